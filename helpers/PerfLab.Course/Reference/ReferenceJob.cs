using System.Globalization;
using System.Runtime.InteropServices;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Files;
using PerfLab.Processes;
using PerfLab.Results;
using PerfLab.Runtimes;
using PerfLab.Views.Json;

namespace PerfLab.Course.Reference;

/// <summary>The machine a reference run happened on, as readers compare machines.</summary>
/// <param name="Name">The name the results file carries, e.g. linux-x64 or a CI leg's name.</param>
/// <param name="Platform">Runtime identifier, e.g. linux-x64.</param>
/// <param name="Os">The OS description.</param>
/// <param name="Processor">The processor's model name, when the OS tells it.</param>
/// <param name="LogicalCores">Logical cores.</param>
/// <param name="MemoryBytes">Memory the runtime sees.</param>
/// <param name="Sdk">The .NET SDK version.</param>
/// <param name="Runner">The CI runner (GitHub Actions: OS, architecture and image), when run there.</param>
internal sealed record MachineDescription(
    string Name,
    string Platform,
    string Os,
    string Processor,
    int LogicalCores,
    long MemoryBytes,
    string Sdk,
    string? Runner);

/// <summary>One benchmark run of the reference job and where its code lives.</summary>
/// <param name="Suite">The suite file or notebook, relative to the repository (e.g. data/reference/suite/RuntimeDifferences.cs).</param>
/// <param name="Run">Its results.</param>
/// <param name="Code">What it measured, as <see cref="BenchmarkRequest.ContentKey"/>: the key a notebook cell's code finds it by.</param>
public sealed record SuiteRun(string Suite, BenchmarkRun Run, string Code);

/// <summary>What a reference run wrote.</summary>
/// <param name="File">The results file.</param>
/// <param name="Runs">Every run, suite files first, then notebooks.</param>
public sealed record ReferenceResult(string File, IReadOnlyList<SuiteRun> Runs)
{
    /// <summary>Whether any case failed.</summary>
    public bool HasErrors => Runs.Any(r => r.Run.HasErrors);
}

/// <summary>
/// The course's reference job: every benchmark file in data/reference/suite and every benchmark the
/// notebooks run (collected by the caller, which runs them), measured fresh on every pinned runtime,
/// written with the machine's description to one file per machine (data/reference/machines/&lt;name&gt;.json
/// in the repository; the GitHub workflow collects one per runner).
/// </summary>
public static partial class ReferenceJob
{
    /// <summary>The results file's schema name.</summary>
    public const string Schema = ReferenceRuns.Schema;

    /// <summary>
    /// The job's mode when no --mode is given: full, not the course's rule (--mode > PERFLAB_MODE > quick), because
    /// the files it writes are what data/reference compares the published figures with.
    /// </summary>
    public const BenchmarkMode Mode = BenchmarkMode.Full;

    /// <summary>Why the job keeps its own default, for its help and its output.</summary>
    public static string ModeReason { get; } =
        $"the job exists to write the {ModeChoice.Name(Mode)}-mode numbers data/reference keeps, and a {ModeChoice.Variable} set for notebooks (smoke in CI) must not change them";

    /// <summary>The suite's folder in the repository.</summary>
    public static string SuiteFolder => Path.Combine(CourseRepository.Root(), "data", "reference", "suite");

    /// <summary>The machine's name for the results file: the one given, checked, or this machine's platform and host name.</summary>
    /// <param name="name">The name asked for, or null.</param>
    /// <exception cref="PerfLabException">The name cannot be a file name.</exception>
    public static string MachineName(string? name)
    {
        var machineName = string.IsNullOrWhiteSpace(name)
            ? UnsafeCharacter().Replace($"{RuntimeProvisioner.RuntimeIdentifier}-{Environment.MachineName}".ToLowerInvariant(), "-")
            : name.Trim();
        if (machineName.Length == 0 || UnsafeCharacter().IsMatch(machineName))
        {
            throw new PerfLabException($"'{machineName}' cannot be a file name here.", "Use letters, digits, '.', '-' and '_' only, e.g. --name ubuntu-x64.");
        }

        return machineName;
    }

    /// <summary>Runs every file of data/reference/suite, fresh.</summary>
    /// <param name="mode">How long each case is measured.</param>
    /// <param name="progress">Receives the engine's progress.</param>
    /// <param name="cancellationToken">Stops the run and kills its processes.</param>
    /// <param name="measured">Whether a content key already has a run (--only-missing: that file is skipped); null runs every file.</param>
    public static async Task<IReadOnlyList<SuiteRun>> RunSuiteAsync(BenchmarkMode mode, IProgress<RunProgress>? progress, CancellationToken cancellationToken, Func<string, bool>? measured = null)
    {
        var suite = Directory.Exists(SuiteFolder) ? Directory.GetFiles(SuiteFolder, "*.cs").Order(StringComparer.Ordinal).ToArray() : [];
        if (suite.Length == 0)
        {
            throw new PerfLabException($"The reference suite is empty: no .cs file in {SuiteFolder}.", "Restore data/reference/suite from git.");
        }

        var repo = CourseRepository.Root();
        var runs = new List<SuiteRun>();
        var engine = new BenchmarkEngine();
        foreach (var file in suite)
        {
            var request = BenchmarkRequest.FromFile(file) with { Mode = mode, Force = true };
            if (measured?.Invoke(request.ContentKey()) == true)
            {
                continue;
            }

            var run = await engine.RunAsync(request, progress, cancellationToken).ConfigureAwait(false);

            // Files are shared across machines: paths relative to the repository, not this machine's.
            var relative = Path.GetRelativePath(repo, file).Replace('\\', '/');
            runs.Add(new SuiteRun(relative, run with { Source = relative }, request.ContentKey()));
        }

        return runs;
    }

    /// <summary>The file <see cref="WriteAsync"/> writes for <paramref name="machineName"/>.</summary>
    /// <param name="outFolder">The results folder.</param>
    /// <param name="machineName">The machine's name (<see cref="MachineName"/>).</param>
    public static string TargetFile(string outFolder, string machineName) => Path.Combine(Path.GetFullPath(outFolder), MachineName(machineName) + ".json");

    /// <summary>
    /// Checks, before anything is measured, that <paramref name="outFolder"/>'s file for this machine can be
    /// updated: it exists, is this schema and was measured in <paramref name="mode"/> (one file, one mode).
    /// </summary>
    /// <param name="outFolder">The results folder.</param>
    /// <param name="machineName">The machine's name.</param>
    /// <param name="mode">The mode of the new runs.</param>
    /// <exception cref="PerfLabException">The file is missing, unreadable, of another schema or another mode.</exception>
    public static void CheckUpdatable(string outFolder, string machineName, BenchmarkMode mode) => _ = ReadForUpdate(TargetFile(outFolder, machineName), mode);

    private static JsonArray ReadForUpdate(string target, BenchmarkMode mode)
    {
        if (!File.Exists(target))
        {
            throw new PerfLabException($"--update: there is no {target} to update.", "Leave out --update to write it anew, or check --out and --name.");
        }

        JsonNode? document;
        try
        {
            document = JsonNode.Parse(File.ReadAllText(target));
        }
        catch (JsonException ex)
        {
            throw new PerfLabException($"--update: {target} is not valid JSON ({ex.Message}).", "Restore it from git, or leave out --update to write it anew.");
        }

        var modeName = ModeChoice.Name(mode);
        if ((string?)document?["schema"] != Schema || (string?)document?["mode"] != modeName || document?["runs"] is not JsonArray runs)
        {
            throw new PerfLabException(
                $"--update: {target} is schema {(string?)document?["schema"] ?? "(none)"} in {(string?)document?["mode"] ?? "(no)"} mode; this job writes {Schema} in {modeName} mode.",
                "A file holds one mode: run with the file's --mode, or leave out --update to replace it.");
        }

        return runs;
    }

    /// <summary>Writes <c>&lt;outFolder&gt;/&lt;machineName&gt;.json</c>: this machine's description and every run.</summary>
    /// <param name="outFolder">Where the results file goes (created).</param>
    /// <param name="machineName">The machine's name (<see cref="MachineName"/>).</param>
    /// <param name="mode">The mode the runs used.</param>
    /// <param name="runs">The runs.</param>
    /// <param name="update">Keep the existing file's runs of every suite file or notebook this job did not run (see <see cref="CheckUpdatable"/>); the others are replaced.</param>
    /// <param name="cancellationToken">Stops the processes that describe the machine.</param>
    /// <param name="addOnly">With <paramref name="update"/>: keep every run of the file and add <paramref name="runs"/> after them (--only-missing).</param>
    /// <exception cref="PerfLabException">With <paramref name="update"/>: the file cannot be updated.</exception>
    public static async Task<ReferenceResult> WriteAsync(string outFolder, string machineName, BenchmarkMode mode, IReadOnlyList<SuiteRun> runs, bool update, CancellationToken cancellationToken, bool addOnly = false)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(outFolder);
        ArgumentNullException.ThrowIfNull(runs);
        var target = TargetFile(outFolder, machineName);
        var fresh = runs.Select(r => (r.Suite, Node: (JsonNode)new JsonObject
        {
            ["suite"] = r.Suite,
            ["code"] = r.Code,
            ["run"] = JsonNode.Parse(ResultJson.Serialize(r.Run)),
        })).ToList();
        var written = new List<JsonNode>();
        if (update && addOnly)
        {
            written.AddRange(ReadForUpdate(target, mode).OfType<JsonNode>().Select(old => old.DeepClone()));
            written.AddRange(fresh.Select(f => f.Node));
        }
        else if (update)
        {
            // In the file's order: a suite file or notebook run again takes its old place; new ones go last.
            var rerun = fresh.Select(f => f.Suite).ToHashSet(StringComparer.Ordinal);
            foreach (var old in ReadForUpdate(target, mode).OfType<JsonNode>())
            {
                var suite = (string?)old["suite"] ?? "";
                if (!rerun.Contains(suite))
                {
                    written.Add(old.DeepClone());
                }
                else if (rerun.Remove(suite))
                {
                    written.AddRange(fresh.Where(f => f.Suite == suite).Select(f => f.Node));
                }
            }

            written.AddRange(fresh.Where(f => rerun.Contains(f.Suite)).Select(f => f.Node));
        }
        else
        {
            written.AddRange(fresh.Select(f => f.Node));
        }

        var machine = await DescribeAsync(MachineName(machineName), cancellationToken).ConfigureAwait(false);
        var document = new JsonObject
        {
            ["schema"] = Schema,
            ["created"] = DateTimeOffset.UtcNow.ToString("O", CultureInfo.InvariantCulture),
            ["mode"] = ModeChoice.Name(mode),
            ["machine"] = JsonSerializer.SerializeToNode(machine, JsonFormats.WebIndented),
            ["runs"] = new JsonArray(written.ToArray()),
        };
        Directory.CreateDirectory(Path.GetDirectoryName(target)!);
        await AtomicFile.WriteAllTextAsync(target, document.ToJsonString(JsonFormats.WebIndented) + "\n", cancellationToken).ConfigureAwait(false);
        return new ReferenceResult(target, runs);
    }

    /// <summary>Describes this machine.</summary>
    /// <param name="name">The name to give it.</param>
    /// <param name="cancellationToken">Stops the processes asked.</param>
    private static async Task<MachineDescription> DescribeAsync(string name, CancellationToken cancellationToken)
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
    internal static async Task<string> ProcessorAsync(CancellationToken cancellationToken)
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
