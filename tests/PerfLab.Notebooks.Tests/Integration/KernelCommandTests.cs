using PerfLab.Notebooks.Tests.Support;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>`perflab kernel install|uninstall`: one command each, seen by Jupyter itself.</summary>
public class KernelCommandTests
{
    [Fact]
    public async Task Install_under_a_prefix_is_listed_by_jupyter_and_uninstall_removes_it()
    {
        using var prefix = new TempFolder();
        var jupyterPath = new Dictionary<string, string> { ["JUPYTER_PATH"] = Path.Combine(prefix.Path, "share", "jupyter") };

        var install = await CliProcess.RunAsync(["kernel", "install", "--prefix", prefix.Path]);
        Assert.True(install.ExitCode == 0, install.ToString());
        var spec = Path.Combine(prefix.Path, "share", "jupyter", "kernels", "perflab-csharp", "kernel.json");
        var json = await File.ReadAllTextAsync(spec);
        var listed = await JupyterPython.RunAsync(JupyterPython.Python, ["-m", "jupyter_client.kernelspecapp", "list"], jupyterPath, TimeSpan.FromMinutes(1));
        var uninstall = await CliProcess.RunAsync(["kernel", "uninstall", "--prefix", prefix.Path]);
        var again = await CliProcess.RunAsync(["kernel", "uninstall", "--prefix", prefix.Path]);

        Assert.Contains("\"kernel\",", json, StringComparison.Ordinal);
        Assert.Contains("\"{connection_file}\"", json, StringComparison.Ordinal);
        Assert.Contains("\"interrupt_mode\": \"message\"", json, StringComparison.Ordinal);
        Assert.True(listed.Output.Contains("perflab-csharp", StringComparison.Ordinal), listed.ToString());
        Assert.True(uninstall.ExitCode == 0, uninstall.ToString());
        Assert.False(File.Exists(spec), "uninstall left kernel.json behind");
        Assert.Contains("nothing to remove", again.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Serving_without_a_connection_file_is_one_clear_message()
    {
        var result = await CliProcess.RunAsync(["kernel", "serve", "/no/such/connection.json"]);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("Jupyter connection file not found", result.Error, StringComparison.Ordinal);
        Assert.Contains("perflab kernel install", result.Error, StringComparison.Ordinal);
    }
}
