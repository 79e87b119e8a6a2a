using PerfLab.Contract;
using PerfLab.Views.Terminal;

namespace PerfLab.Results;

/// <summary>One measured (method, parameters, runtime) combination.</summary>
/// <param name="Type">Full name of the benchmark class.</param>
/// <param name="Method">The benchmark method.</param>
/// <param name="Parameters">Parameter values of this case.</param>
/// <param name="IsBaseline">True for a method marked [Benchmark(Baseline = true)].</param>
/// <param name="Runtime">Moniker of the runtime, e.g. net8.0.</param>
/// <param name="RuntimeVersion">The exact runtime version that ran, as reported by the process.</param>
/// <param name="Statistics">Time per operation in nanoseconds over every launch's iterations; null when the case failed.</param>
/// <param name="MeasurementsNs">Each workload measurement, ns per operation, launch after launch.</param>
/// <param name="LaunchMeansNs">The mean of each launch (one host process each), ns per operation; null in results
/// written before launches were kept.</param>
/// <param name="LaunchMinsNs">The fastest iteration of each launch, ns per operation, in the order of <paramref name="LaunchMeansNs"/>;
/// null where it is, and in results written before minimums were kept.</param>
/// <param name="AllocatedBytes">Managed bytes allocated per operation.</param>
/// <param name="Gen0">Gen0 collections per 1000 operations.</param>
/// <param name="Gen1">Gen1 collections per 1000 operations.</param>
/// <param name="Gen2">Gen2 collections per 1000 operations.</param>
/// <param name="Ratio">Mean relative to the baseline row (see <see cref="BenchmarkRun.Baseline"/>).</param>
/// <param name="RatioInterval">The 95% interval of <paramref name="Ratio"/>, or null (<see cref="Results.RatioInterval.Between"/>).</param>
/// <param name="FastestRatio">The ratio of the fastest iterations to the baseline row's, or null (<see cref="Results.RatioInterval.Fastest"/>).</param>
/// <param name="FastestRatioInterval">The 95% interval of <paramref name="FastestRatio"/>, or null (both sides need two or more launches).</param>
/// <param name="AllocRatio">Allocated bytes relative to the baseline row.</param>
/// <param name="Cached">True when this row came from the result cache.</param>
/// <param name="Warnings">Sub-nanosecond, zero-measurement, noise and BenchmarkDotNet's own remarks.</param>
/// <param name="Error">Why the case failed, when it did.</param>
/// <param name="Published">What this case reproduces of a post's figure ([BenchmarkCategory("N10-J01")]), if anything.</param>
/// <param name="LaunchRounds">The round of turns each launch measured in (<see cref="HostResult.Round"/>), in the order of
/// <paramref name="LaunchMeansNs"/>: two rows with the same rounds took turns launch by launch, so the machine's state of each
/// round fell on both (<see cref="Results.RatioInterval.InRounds"/>). Null where launches did not take turns, and in results
/// written before rounds were kept.</param>
public sealed record BenchmarkResult(
    string Type,
    string Method,
    IReadOnlyList<CaseParameter> Parameters,
    bool IsBaseline,
    string Runtime,
    string RuntimeVersion,
    CaseStatistics? Statistics,
    IReadOnlyList<double> MeasurementsNs,
    IReadOnlyList<double>? LaunchMeansNs,
    IReadOnlyList<double>? LaunchMinsNs,
    long? AllocatedBytes,
    double? Gen0,
    double? Gen1,
    double? Gen2,
    double? Ratio,
    RatioInterval? RatioInterval,
    double? FastestRatio,
    RatioInterval? FastestRatioInterval,
    double? AllocRatio,
    bool Cached,
    IReadOnlyList<string> Warnings,
    string? Error,
    PublishedComparison? Published = null,
    IReadOnlyList<long>? LaunchRounds = null)
{
    /// <summary>"Method(A=1, B=x)": how the row is named in messages.</summary>
    public string DisplayName => Parameters.Count == 0 ? Method : $"{Method}({string.Join(", ", Parameters.Select(p => $"{p.Name}={p.Value}"))})";

    /// <summary>Identifies the case across runtimes: type, method and parameters.</summary>
    public string CaseKey => $"{Type}.{DisplayName}";

    /// <summary>How <see cref="Error"/> starts for a case stopped at its time limit.</summary>
    public const string TimedOutPrefix = "Timed out:";

    /// <summary>The case was stopped at its time limit (rather than failing on its own).</summary>
    [System.Text.Json.Serialization.JsonIgnore] // derived from Error, which the results JSON carries
    public bool TimedOut => Error?.StartsWith(TimedOutPrefix, StringComparison.Ordinal) == true;

    /// <summary>The first non-empty line of an error, shortened for a progress or summary line.</summary>
    /// <param name="error">An error text, often with a stack trace after its first line.</param>
    public static string FirstLine(string error)
    {
        ArgumentNullException.ThrowIfNull(error);
        var line = error.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).FirstOrDefault() ?? "";
        return line.Length <= 200 ? line : line[..199] + "…";
    }
}

/// <summary>The runtime a part of the run used.</summary>
/// <param name="Moniker">e.g. net8.0.</param>
/// <param name="Version">Exact version that ran.</param>
/// <param name="FrameworkDescription">As the process reported it.</param>
/// <param name="Source">installed or provisioned; missing for a cached part whose runtime is not on this machine.</param>
/// <param name="Cached">True when this runtime's rows came from the cache.</param>
public sealed record RunRuntime(string Moniker, string Version, string FrameworkDescription, string Source, bool Cached);

/// <summary>Where a run's wall time went, in seconds.</summary>
/// <param name="Total">From the request to the result.</param>
/// <param name="Compile">Compiling the source for every runtime.</param>
/// <param name="Provision">Provisioning missing runtimes.</param>
/// <param name="Wait">Waiting for another PerfLab run to finish measuring.</param>
/// <param name="Measure">Benchmark processes, start to exit, summed.</param>
public sealed record RunTiming(double Total, double Compile, double Provision, double Wait, double Measure);

/// <summary>The machine a run happened on.</summary>
/// <param name="Os">Operating system description.</param>
/// <param name="Architecture">Process architecture.</param>
/// <param name="ProcessorCount">Logical processors.</param>
/// <param name="MachineName">Host name.</param>
/// <param name="Processor">The processor's model name (<see cref="MachineDescription.ProcessorAsync"/>); null in files written before runs
/// carried it (2026-11-28): a reference file's runs then ran on its machine's processor.</param>
public sealed record RunMachine(string Os, string Architecture, int ProcessorCount, string MachineName, string? Processor = null);

/// <summary>
/// Everything a benchmark run produced: one row per method x parameters x runtime, with the mode,
/// runtimes and environment that produced it. Serialized as described in docs/results-schema.md.
/// </summary>
/// <param name="SchemaVersion">Version of the JSON layout (<see cref="CurrentSchemaVersion"/>).</param>
/// <param name="Source">Path of the benchmark source.</param>
/// <param name="Mode">smoke, quick or full.</param>
/// <param name="StartedAt">When the run started (UTC).</param>
/// <param name="Runtimes">The runtimes, in the order asked for.</param>
/// <param name="Environment">Environment variables set on every benchmark process.</param>
/// <param name="Filter">Glob filters applied, if any.</param>
/// <param name="Baseline">What ratios compare against: "method" or "runtime:&lt;moniker&gt;".</param>
/// <param name="Machine">The machine.</param>
/// <param name="Results">The rows.</param>
/// <param name="Warnings">Run-level warnings (e.g. smoke numbers are meaningless).</param>
/// <param name="Timing">Where the run's wall time went.</param>
[PerfLab.Views.Html.TypeFormatterSource(typeof(PerfLab.Views.Html.NotebookFormatterSource))]
public sealed record BenchmarkRun(
    int SchemaVersion,
    string Source,
    BenchmarkMode Mode,
    DateTimeOffset StartedAt,
    IReadOnlyList<RunRuntime> Runtimes,
    IReadOnlyDictionary<string, string> Environment,
    IReadOnlyList<string> Filter,
    string Baseline,
    RunMachine Machine,
    IReadOnlyList<BenchmarkResult> Results,
    IReadOnlyList<string> Warnings,
    RunTiming Timing)
{
    /// <summary>The schema version this library writes.</summary>
    public const int CurrentSchemaVersion = 1;

    /// <summary>
    /// Who measured this run, as a chart's legend names it, when not the reader: the course site answers a cell
    /// with the reference run's results (NotebookReplay). Null: the reader's own run. Never written to JSON.
    /// </summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public string? MeasuredBy { get; init; }

    /// <summary>
    /// The content key of what the run measured (BenchmarkRequest.ContentKey), set by the engine: the reference
    /// lines and bars beside it come only from reference runs of the same code. Null for a run read back from
    /// JSON (the reference file keeps it beside the run). Never written to JSON.
    /// </summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public string? Code { get; init; }

    /// <summary>True when every row came from the cache.</summary>
    public bool Cached => Runtimes.Count > 0 && Runtimes.All(r => r.Cached);

    /// <summary>True when at least one case failed.</summary>
    public bool HasErrors => Results.Any(r => r.Error is not null);

    /// <summary>The terminal table.</summary>
    public override string ToString() => TerminalTable.Render(this);
}
