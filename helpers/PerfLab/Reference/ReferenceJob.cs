using System.Globalization;
using System.Runtime.InteropServices;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Processes;
using PerfLab.Results;
using PerfLab.Runtimes;

namespace PerfLab.Reference;

/// <summary>The machine a reference run happened on, as readers compare machines.</summary>
/// <param name="Name">The name the results file carries, e.g. linux-x64 or a CI leg's name.</param>
/// <param name="Platform">Runtime identifier, e.g. linux-x64.</param>
/// <param name="Os">The OS description.</param>
/// <param name="Processor">The processor's model name, when the OS tells it.</param>
/// <param name="LogicalCores">Logical cores.</param>
/// <param name="MemoryBytes">Memory the runtime sees.</param>
/// <param name="Sdk">The .NET SDK version.</param>
/// <param name="Runner">The CI runner (GitHub Actions: OS, architecture and image), when run there.</param>
public sealed record MachineDescription(
    string Name,
    string Platform,
    string Os,
    string Processor,
    int LogicalCores,
    long MemoryBytes,
    string Sdk,
    string? Runner);

/// <summary>What a reference run wrote.</summary>
/// <param name="File">The results file.</param>
/// <param name="Runs">One run per suite file.</param>
public sealed record ReferenceResult(string File, IReadOnlyList<BenchmarkRun> Runs)
{
    /// <summary>Whether any case failed.</summary>
    public bool HasErrors => Runs.Any(r => r.HasErrors);
}

/// <summary>
/// The course's reference job: every benchmark file in data/reference/suite, measured fresh on every
/// pinned runtime, written with the machine's description to one file per machine
/// (data/reference/machines/&lt;name&gt;.json in the repository; the GitHub workflow collects one per runner).
/// </summary>
public static partial class ReferenceJob
{
    /// <summary>The results file's schema name.</summary>
    public const string Schema = ReferenceRuns.Schema;

    private static readonly JsonSerializerOptions JsonOptions = new(JsonSerializerDefaults.Web) { WriteIndented = true };

    /// <summary>The suite's folder in the repository.</summary>
    public static string SuiteFolder => Path.Combine(CourseRepository.Root(), "data", "reference", "suite");

    /// <summary>Runs the suite and writes <c>&lt;outFolder&gt;/&lt;name&gt;.json</c>.</summary>
    /// <param name="outFolder">Where the results file goes (created).</param>
    /// <param name="name">The machine's name in the file name; null: this machine's platform and host name.</param>
    /// <param name="mode">How long each case is measured.</param>
    /// <param name="progress">Receives the engine's progress.</param>
    /// <param name="cancellationToken">Stops the run and kills its processes.</param>
    public static async Task<ReferenceResult> RunAsync(string outFolder, string? name, BenchmarkMode mode, IProgress<RunProgress>? progress, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(outFolder);
        var machineName = string.IsNullOrWhiteSpace(name)
            ? UnsafeCharacter().Replace($"{RuntimeProvisioner.RuntimeIdentifier}-{Environment.MachineName}".ToLowerInvariant(), "-")
            : name.Trim();
        if (machineName.Length == 0 || UnsafeCharacter().IsMatch(machineName))
        {
            throw new PerfLabException($"'{machineName}' cannot be a file name here.", "Use letters, digits, '.', '-' and '_' only, e.g. --name ubuntu-x64.");
        }

        var suite = Directory.Exists(SuiteFolder) ? Directory.GetFiles(SuiteFolder, "*.cs").Order(StringComparer.Ordinal).ToArray() : [];
        if (suite.Length == 0)
        {
            throw new PerfLabException($"The reference suite is empty: no .cs file in {SuiteFolder}.", "Restore data/reference/suite from git.");
        }

        var machine = await DescribeAsync(machineName, cancellationToken).ConfigureAwait(false);
        var runs = new List<BenchmarkRun>();
        var engine = new BenchmarkEngine();
        foreach (var file in suite)
        {
            var request = BenchmarkRequest.FromFile(file) with { Mode = mode, Force = true };
            runs.Add(await engine.RunAsync(request, progress, cancellationToken).ConfigureAwait(false));
        }

        // Files are shared across machines: paths relative to the repository, not this machine's.
        var repo = CourseRepository.Root();
        runs = runs.Select(r => r with { Source = Path.GetRelativePath(repo, r.Source).Replace('\\', '/') }).ToList();
        var document = new JsonObject
        {
            ["schema"] = Schema,
            ["created"] = DateTimeOffset.UtcNow.ToString("O", CultureInfo.InvariantCulture),
            ["mode"] = mode.ToString().ToLowerInvariant(),
            ["machine"] = JsonSerializer.SerializeToNode(machine, JsonOptions),
            ["runs"] = new JsonArray(suite.Zip(runs, (file, run) => (JsonNode)new JsonObject
            {
                ["suite"] = Path.GetRelativePath(repo, file).Replace('\\', '/'),
                ["run"] = JsonNode.Parse(ResultJson.Serialize(run)),
            }).ToArray()),
        };
        var target = Path.Combine(Path.GetFullPath(outFolder), machineName + ".json");
        Directory.CreateDirectory(Path.GetDirectoryName(target)!);
        await File.WriteAllTextAsync(target + ".tmp", document.ToJsonString(JsonOptions) + "\n", cancellationToken).ConfigureAwait(false);
        File.Move(target + ".tmp", target, overwrite: true);
        return new ReferenceResult(target, runs);
    }

    /// <summary>Describes this machine.</summary>
    /// <param name="name">The name to give it.</param>
    /// <param name="cancellationToken">Stops the processes asked.</param>
    public static async Task<MachineDescription> DescribeAsync(string name, CancellationToken cancellationToken)
    {
        var sdk = DotnetInstallation.Current();
        var sdkVersion = await sdk.SdkVersionAsync(CourseRepository.Root(), cancellationToken).ConfigureAwait(false);
        var runner = Environment.GetEnvironmentVariable("GITHUB_ACTIONS") == "true"
            ? $"GitHub Actions {Environment.GetEnvironmentVariable("RUNNER_OS")} {Environment.GetEnvironmentVariable("RUNNER_ARCH")}, image {Environment.GetEnvironmentVariable("ImageOS")} {Environment.GetEnvironmentVariable("ImageVersion")}".TrimEnd()
            : null;
        return new MachineDescription(
            name,
            RuntimeProvisioner.RuntimeIdentifier,
            RuntimeInformation.OSDescription,
            await ProcessorAsync(cancellationToken).ConfigureAwait(false),
            Environment.ProcessorCount,
            GC.GetGCMemoryInfo().TotalAvailableMemoryBytes,
            sdkVersion,
            runner);
    }

    // Each OS tells the processor's model its own way; "unknown" rather than a failed run.
    private static async Task<string> ProcessorAsync(CancellationToken cancellationToken)
    {
        if (OperatingSystem.IsWindows())
        {
            return Environment.GetEnvironmentVariable("PROCESSOR_IDENTIFIER") ?? "unknown";
        }

        if (OperatingSystem.IsMacOS())
        {
            return await SysctlAsync("machdep.cpu.brand_string", cancellationToken).ConfigureAwait(false) ?? "unknown";
        }

        try
        {
            var lines = await File.ReadAllLinesAsync("/proc/cpuinfo", cancellationToken).ConfigureAwait(false);
            var model = lines.FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))
                ?? lines.FirstOrDefault(l => l.StartsWith("CPU part", StringComparison.Ordinal));
            return model is null ? "unknown" : model[(model.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim();
        }
        catch (IOException)
        {
            return "unknown";
        }
    }

    private static async Task<string?> SysctlAsync(string name, CancellationToken cancellationToken)
    {
        try
        {
            var result = await ChildProcess.RunAsync("sysctl", ["-n", name], null, null, TimeSpan.FromSeconds(30), null, cancellationToken).ConfigureAwait(false);
            return result.ExitCode == 0 && !string.IsNullOrWhiteSpace(result.StandardOutput) ? result.StandardOutput.Trim() : null;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }

    [GeneratedRegex(@"[^A-Za-z0-9._-]")]
    private static partial Regex UnsafeCharacter();
}
