namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// The perflab-csharp kernelspec installed by the built CLI (`dotnet PerfLab.Cli.dll kernel install`)
/// into a temporary JUPYTER_DATA_DIR, once per test class; so the tests never see a kernel the
/// reader installed, and always run this build.
/// </summary>
public sealed class JupyterKernelspec : IDisposable
{
    /// <summary>The kernelspec's name, as nbclient's kernel_name.</summary>
    public const string Name = "perflab-csharp";

    private readonly TempFolder _data = new("jupyter-" + Guid.NewGuid().ToString("N")[..8]);

    public JupyterKernelspec()
    {
        var install = JupyterPython.RunAsync(
            "dotnet",
            [CliProcess.CliAssembly, "kernel", "install"],
            new Dictionary<string, string> { ["JUPYTER_DATA_DIR"] = DataDirectory },
            TimeSpan.FromMinutes(1)).GetAwaiter().GetResult();
        if (install.ExitCode != 0 || !File.Exists(Path.Combine(KernelFolder, "kernel.json")))
        {
            throw new InvalidOperationException($"`perflab kernel install` did not write {KernelFolder}/kernel.json:\n{install}");
        }
    }

    /// <summary>The temporary Jupyter data folder holding kernels/perflab-csharp.</summary>
    public string DataDirectory => _data.Path;

    public string KernelFolder => Path.Combine(DataDirectory, "kernels", Name);

    /// <summary>Environment of a driver: this kernelspec, smoke mode, and a PerfLab home (the shared test home unless given).</summary>
    public Dictionary<string, string> Environment(string? perflabHome = null) => new()
    {
        ["JUPYTER_DATA_DIR"] = DataDirectory,
        ["PERFLAB_HOME"] = perflabHome ?? TestHome.Path,
        ["PERFLAB_MODE"] = "smoke",
        ["PYTHONUNBUFFERED"] = "1",
    };

    public void Dispose() => _data.Dispose();
}
