using System.Text.Json;
using PerfLab.Course.Setup;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// A kernelspec for .NET Interactive (Polyglot Notebooks' engine) in a temporary JUPYTER_DATA_DIR, once per
/// test class: the dotnet-interactive tool that .config/dotnet-tools.json pins, started as a Jupyter kernel
/// with `dotnet tool run`. That finds the manifest from the kernel's working folder, which nbclient sets to
/// the notebook's folder, inside the repository. The tool must be restored (`dotnet tool restore`, which
/// ./test.sh does); if it is not, the fixture fails with one message saying so.
/// </summary>
public sealed class InteractiveKernelspec : IDisposable
{
    /// <summary>The kernelspec's name, as nbclient's kernel_name.</summary>
    public const string Name = "dotnet-interactive-csharp";

    private const string ManifestPath = InteractiveTool.ManifestPath;

    private const string ToolId = InteractiveTool.PackageId;

    private readonly TempFolder _data = new("jupyter-interactive-" + Guid.NewGuid().ToString("N")[..8]);

    public InteractiveKernelspec()
    {
        try
        {
            Version = PinnedVersion(Repo.Root);
            Ports = PortRange();
            ToolVersion = RestoredVersion(Version);
            Directory.CreateDirectory(KernelFolder);
            var spec = new Dictionary<string, object>
            {
                ["argv"] = new[]
                {
                    "dotnet", "tool", "run", "dotnet-interactive", "--", "jupyter", "--default-kernel", "csharp",
                    // Its HTTP API (which Polyglot's front ends use) on the loopback only, on the first free port of
                    // a window of this test run's, so runs side by side rarely probe the same ports.
                    "--http-local-only", "--http-port-range", Ports, "{connection_file}",
                },
                ["display_name"] = $".NET Interactive {Version} (C#)",
                ["language"] = "C#",
            };
            File.WriteAllText(Path.Combine(KernelFolder, "kernel.json"), JsonSerializer.Serialize(spec, JsonFormats.Indented));
        }
        catch
        {
            _data.Dispose();
            throw;
        }
    }

    /// <summary>The version .config/dotnet-tools.json pins.</summary>
    public string Version { get; }

    /// <summary>What `dotnet-interactive --version` says (the pinned version and its commit).</summary>
    public string ToolVersion { get; }

    /// <summary>The kernel's HTTP port range, "start-end".</summary>
    public string Ports { get; }

    /// <summary>The temporary Jupyter data folder holding kernels/<see cref="Name"/>.</summary>
    public string DataDirectory => _data.Path;

    public string KernelFolder => Path.Combine(DataDirectory, "kernels", Name);

    /// <summary>Environment of a driver: this kernelspec, smoke mode, this test run's PerfLab home, no telemetry banner.</summary>
    public Dictionary<string, string> Environment() => new()
    {
        ["JUPYTER_DATA_DIR"] = DataDirectory,
        ["PERFLAB_HOME"] = TestHome.Path,
        ["PERFLAB_MODE"] = "smoke",
        ["PYTHONUNBUFFERED"] = "1",
        ["DOTNET_INTERACTIVE_CLI_TELEMETRY_OPTOUT"] = "1",
        ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
        ["DOTNET_NOLOGO"] = "1",
    };

    /// <summary>The version the manifest under <paramref name="repoRoot"/> pins (PerfLab.Course's InteractiveTool reads it).</summary>
    public static string PinnedVersion(string repoRoot) =>
        InteractiveTool.PinnedVersion(repoRoot)
        ?? throw new InvalidOperationException($"{Path.Combine(repoRoot, ManifestPath)} pins no {ToolId} version: it pins the dotnet-interactive tool the Interactive route runs.");

    // `dotnet tool run` from the repository root: what the kernelspec will start, asked for its version.
    private static string RestoredVersion(string pinned)
    {
        var run = JupyterPython.RunAsync(
            "dotnet",
            ["tool", "run", "dotnet-interactive", "--", "--version"],
            new Dictionary<string, string> { ["DOTNET_INTERACTIVE_CLI_TELEMETRY_OPTOUT"] = "1", ["DOTNET_NOLOGO"] = "1" },
            TimeSpan.FromMinutes(1),
            Repo.Root).GetAwaiter().GetResult();
        var said = run.Output.Trim();
        if (run.ExitCode != 0 || !said.StartsWith(pinned, StringComparison.Ordinal))
        {
            throw new InvalidOperationException(
                $"The dotnet-interactive tool {pinned} ({ManifestPath}) is not restored: run `dotnet tool restore` in {Repo.Root} (./test.sh does it). " +
                $"`dotnet tool run dotnet-interactive -- --version` said (exit {run.ExitCode}): {(said + " " + run.Error.Trim()).Trim()}");
        }

        return said;
    }

    // 100 ports from a window picked per fixture in 20000-32699, below Linux's ephemeral ports (32768 up).
    private static string PortRange()
    {
        var start = 20_000 + (100 * Random.Shared.Next(0, 127));
        return $"{start}-{start + 99}";
    }

    public void Dispose() => _data.Dispose();
}
