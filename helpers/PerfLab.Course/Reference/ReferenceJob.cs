using System.Diagnostics;
using System.Text.RegularExpressions;
using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Notebooks;
using PerfLab.Notebooks.Documents;
using PerfLab.Results;
using PerfLab.Runtimes;

namespace PerfLab.Course.Reference;

/// <summary>One benchmark run of the reference job and where its code lives.</summary>
/// <param name="Suite">The suite file or notebook, relative to the repository (e.g. data/reference/suite/RuntimeDifferences.cs).</param>
/// <param name="Run">Its results.</param>
/// <param name="Code">What it measured, as <see cref="BenchmarkRequest.ContentKey"/>: the key a notebook cell's code finds it by.</param>
public sealed record SuiteRun(string Suite, BenchmarkRun Run, string Code);

/// <summary>What a reference job measures and where it writes.</summary>
/// <param name="OutFolder">Where the results file goes: OUT/NAME.json.</param>
/// <param name="MachineName">The machine's name in the file name (<see cref="ReferenceJob.MachineName"/>).</param>
/// <param name="Mode">The mode of every benchmark, as the command resolved it.</param>
/// <param name="Notebooks">Notebooks (files or folders) whose benchmarks join the suite; null: the repository's notebooks folder; empty: none.</param>
/// <param name="Suite">Whether the files of data/reference/suite run first.</param>
/// <param name="Update">Keep the file's runs (same mode) of every suite file and notebook the job does not run again.</param>
/// <param name="OnlyMissing">Measure only the benchmarks whose code the file has no run of, keep every run it has and add the new ones (implies <paramref name="Update"/>).</param>
/// <param name="Launches">Processes per case and runtime (a cell that names its own keeps them); null: the mode's, one in full mode.</param>
public sealed record ReferenceRequest(string OutFolder, string MachineName, ModeChoice Mode, IReadOnlyList<string>? Notebooks, bool Suite, bool Update, bool OnlyMissing, int? Launches = null);

/// <summary>What a reference run wrote.</summary>
/// <param name="File">The results file.</param>
/// <param name="Runs">Every run measured, suite files first, then notebooks.</param>
/// <param name="Kept">With --only-missing: the benchmark runs the file had already, answered from it instead of measured.</param>
public sealed record ReferenceResult(string File, IReadOnlyList<SuiteRun> Runs, int Kept)
{
    /// <summary>Whether any case failed.</summary>
    public bool HasErrors => Runs.Any(r => r.Run.HasErrors);
}

/// <summary>
/// The course's reference job: every benchmark file in data/reference/suite and every benchmark the
/// notebooks run (executed top to bottom, as `perflab run` runs them), measured fresh on every pinned runtime,
/// written with the machine's description to one file per machine (data/reference/machines/&lt;name&gt;.json
/// in the repository; the GitHub workflow collects one per runner) after each suite file and notebook.
/// </summary>
public static partial class ReferenceJob
{
    /// <summary>
    /// The job's mode when no --mode is given: full, not the course's rule (--mode > PERFLAB_MODE > quick), because
    /// the files it writes are what data/reference compares the published figures with.
    /// </summary>
    public const BenchmarkMode Mode = BenchmarkMode.Full;

    /// <summary>Why the job keeps its own default, for its help and its output.</summary>
    public static string ModeReason { get; } =
        $"the job exists to write the {ModeChoice.Name(Mode)}-mode numbers data/reference keeps, and a {ModeChoice.Variable} set for notebooks (smoke in CI) must not change them";

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

    /// <summary>
    /// Runs the job: the suite's files, then the notebooks, each benchmark fresh; the results file is written
    /// after each suite file and notebook, so a job stopped half way keeps what it measured.
    /// </summary>
    /// <param name="request">What to run and where to write.</param>
    /// <param name="progress">Receives the engine's progress while the suite runs.</param>
    /// <param name="log">Receives a line per notebook, its runner's progress, and a line per write of the file.</param>
    /// <param name="cancellationToken">Stops the run and kills its processes; what was written stays.</param>
    /// <exception cref="PerfLabException">The file cannot be updated, a notebook path is wrong, the suite is empty, or a notebook's cell failed.</exception>
    public static async Task<ReferenceResult> RunAsync(ReferenceRequest request, IProgress<RunProgress>? progress, Action<string> log, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(log);
        var mode = request.Mode.Mode;
        var file = ReferenceFile.Open(request.OutFolder, request.MachineName, mode, request.Update || request.OnlyMissing, addOnly: request.OnlyMissing);

        // --only-missing: what the file has answers its calls, and only the rest is measured.
        var recorded = new Dictionary<string, BenchmarkRun>(StringComparer.Ordinal);
        foreach (var run in file.Recorded.Where(r => r.Code is not null))
        {
            recorded[run.Code!] = run.Run;
        }

        var kept = 0;
        BenchmarkRun? Recorded(string code)
        {
            var found = recorded.GetValueOrDefault(code);
            kept += found is null ? 0 : 1;
            return found;
        }

        Func<string, BenchmarkRun?>? answer = request.OnlyMissing ? Recorded : null;
        var repo = CourseRepository.Root();
        var notebooks = (request.Notebooks ?? [CourseRepository.PathOf(CourseRepository.NotebooksFolder, repo)])
            .SelectMany(p => NotebookFiles.Find(p).Notebooks).Distinct().ToArray();
        var runs = new List<SuiteRun>();
        var written = false;
        async Task WriteAsync()
        {
            await file.WriteAsync(runs, cancellationToken).ConfigureAwait(false);
            written = true;
            log($"  written: {file.Path} (this job's {runs.Count} run{(runs.Count == 1 ? "" : "s")} so far)");
        }

        if (request.Suite)
        {
            var engine = new BenchmarkEngine();
            foreach (var suiteFile in SuiteFiles(repo))
            {
                var benchmark = BenchmarkRequest.FromFile(suiteFile) with { Mode = mode, Force = true, Launches = request.Launches };
                var code = benchmark.ContentKey();
                if (answer?.Invoke(code) is not null)
                {
                    continue;
                }

                var run = await engine.RunAsync(benchmark, progress, cancellationToken).ConfigureAwait(false);

                // Files are shared across machines: paths relative to the repository, not this machine's.
                var relative = CourseRepository.Relative(suiteFile, repo);
                runs.Add(new SuiteRun(relative, run with { Source = relative }, code));
                await WriteAsync().ConfigureAwait(false);
            }
        }

        var clock = Stopwatch.StartNew();
        foreach (var (notebook, index) in notebooks.Select((n, i) => (n, i)))
        {
            var relative = CourseRepository.Relative(notebook, repo);
            log($"▶ {relative} ({index + 1} of {notebooks.Length}, {ModeChoice.Name(mode)} mode)");
            var found = await NotebookBenchmarks.RunAsync(notebook, relative, request.Mode, line => log($"  [{clock.Elapsed.TotalSeconds,7:F1}s] {line}"), cancellationToken, answer, request.Launches).ConfigureAwait(false);
            runs.AddRange(found.Select(r => new SuiteRun(relative, r.Run, r.Code)));
            await WriteAsync().ConfigureAwait(false);
        }

        // Every suite file answered from the file and no notebook: the file is still written once, as the job's record.
        if (!written)
        {
            await file.WriteAsync(runs, cancellationToken).ConfigureAwait(false);
        }

        return new ReferenceResult(file.Path, runs, kept);
    }

    // The suite's files, in name order.
    private static string[] SuiteFiles(string repo)
    {
        var folder = CourseRepository.PathOf(CourseRepository.ReferenceSuiteFolder, repo);
        var suite = Directory.Exists(folder) ? Directory.GetFiles(folder, "*.cs").Order(StringComparer.Ordinal).ToArray() : [];
        if (suite.Length == 0)
        {
            throw new PerfLabException($"The reference suite is empty: no .cs file in {folder}.", "Restore data/reference/suite from git.");
        }

        return suite;
    }

    [GeneratedRegex(@"[^A-Za-z0-9._-]")]
    private static partial Regex UnsafeCharacter();
}
