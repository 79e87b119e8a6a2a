// The contract between PerfLab (the parent) and PerfLab.Host (the child that runs inside each measured
// runtime). This file is compiled into both; keep it dependency-free and backwards compatible.
using System.Text.Json;
using System.Text.Json.Serialization;

namespace PerfLab.Contract;

/// <summary>Names and formats shared by the parent and the host process.</summary>
public static class HostProtocol
{
    /// <summary>Bumped whenever a field below changes meaning.</summary>
    public const int Version = 2;

    /// <summary>Prefix of a machine-readable event line on the host's standard output.</summary>
    public const string EventPrefix = "@perflab ";

    /// <summary>
    /// The line a host taking turns (<see cref="HostRequest.Turns"/>) prints when it stops between two iterations; it then
    /// waits for a line on its standard input (any line: its turn), and runs freely once its input is closed. A constant,
    /// not an event: it is written once an iteration, and nothing an iteration runs may turn hot while iterations are timed.
    /// </summary>
    public const string TurnLine = "@perflab turn";

    /// <summary>
    /// <see cref="TurnLine"/> as a host taking turns prints it once, after its first workload warm-up iteration: its
    /// overhead stages, whose length BenchmarkDotNet chooses in each process, are behind it. The parent lets the hosts
    /// still in theirs catch up before any goes on, so the runtimes' measured iterations are run side by side.
    /// </summary>
    public const string WorkloadTurnLine = "@perflab turn workload";

    /// <summary>
    /// <see cref="TurnLine"/> as a host taking turns prints it first, once its start-up and its tiering drive are done
    /// (BenchmarkDotNet prepared, the case's code settled, the JIT quiet): nothing is measured yet, so the parent starts a
    /// round's hosts side by side, each drives its case at once, and their iterations begin in turn only once all have
    /// stopped here.
    /// </summary>
    public const string ReadyTurnLine = "@perflab turn ready";

    /// <summary>
    /// <see cref="TurnLine"/> as a host taking turns prints it last, once its measured iterations (and BenchmarkDotNet's
    /// memory-measuring one) are done and before its summary and exit: the parent holds it there until every host of the
    /// round is done measuring, then lets them all end side by side.
    /// </summary>
    public const string MeasuredTurnLine = "@perflab turn measured";

    /// <summary>Whether <paramref name="line"/> is one of the stop lines of a host taking turns.</summary>
    public static bool IsTurnLine(string line) => line is TurnLine or WorkloadTurnLine or ReadyTurnLine or MeasuredTurnLine;

    /// <summary>Exit code of a host run whose benchmark case failed (threw, or BenchmarkDotNet rejected it).</summary>
    public const int CaseFailedExitCode = 3;

    /// <summary>Exit code of a host run that was given bad arguments or a bad assembly.</summary>
    public const int BadRequestExitCode = 2;

    /// <summary>JSON options used for every file and event line.</summary>
    public static readonly JsonSerializerOptions Json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        WriteIndented = false,
        Converters = { new JsonStringEnumConverter(JsonNamingPolicy.CamelCase) },
    };
}

/// <summary>How long and how carefully to measure.</summary>
public enum BenchmarkMode
{
    /// <summary>Proves the benchmark runs: one cold invocation; numbers are meaningless.</summary>
    Smoke,

    /// <summary>A short job: a few short iterations, seconds per case.</summary>
    Quick,

    /// <summary>BenchmarkDotNet's default job: real numbers, minutes per benchmark.</summary>
    Full,
}

/// <summary>What the parent asks one host process to do (passed as a JSON file).</summary>
/// <param name="AssemblyPath">The compiled benchmark assembly.</param>
/// <param name="CaseIndex">Index into the host's ordered, filtered list of cases.</param>
/// <param name="Mode">The measurement mode.</param>
/// <param name="Filter">Optional glob patterns over "Namespace.Type.Method" (BenchmarkDotNet's --filter).</param>
/// <param name="ResultPath">Where the host writes its results: a JSON array of <see cref="HostResult"/>, one per case run, in
/// the order they ran, written again (atomically) after each case, so a process that dies keeps what it finished.</param>
/// <param name="ArtifactsPath">A scratch folder BenchmarkDotNet may write to.</param>
/// <param name="Disasm">When set, the host does not measure: it drives the benchmarks until the JIT has
/// written optimized code for these methods, then stops.</param>
/// <param name="Iterations">The iteration shape an earlier launch of the same case chose: the host runs it and skips
/// BenchmarkDotNet's pilot stage. Null: the pilot chooses.</param>
/// <param name="Launches">How many launches the case has on this runtime. A quick run of one (it reads bytes per call)
/// runs the single-process job (<see cref="QuickJob.SingleLaunchWarmupCount"/>) with the runtime's own call-counting delay.</param>
/// <param name="FromCase">When set, the host runs every case from this index to the last, one after another in this one
/// process, instead of <paramref name="CaseIndex"/> alone: what a smoke run asks, where start-up, BenchmarkDotNet's
/// preparation and exit would otherwise cost more than the one call each case makes.</param>
/// <param name="Turns">When set, the host stops once ready (<see cref="HostProtocol.ReadyTurnLine"/>: started and its case
/// driven), after every iteration (<see cref="HostProtocol.TurnLine"/>), and once done measuring
/// (<see cref="HostProtocol.MeasuredTurnLine"/>), and waits for its turn on standard input at each stop: the parent runs
/// the launches of one case on every runtime at once, iteration by iteration in turn, so each runtime's iterations sit
/// next to the others' in time while no two ever run together.</param>
/// <param name="ListOnly">When set, the host only lists the cases (a result with no case and no error, whose
/// <see cref="HostResult.Cases"/> are the list) and runs none: the parent seats a class's methods in the same rounds of
/// turns, which it must know before the first round.</param>
public sealed record HostRequest(
    string AssemblyPath,
    int CaseIndex,
    BenchmarkMode Mode,
    IReadOnlyList<string>? Filter,
    string ResultPath,
    string ArtifactsPath,
    DisasmRequest? Disasm = null,
    IterationShape? Iterations = null,
    int Launches = 1,
    int? FromCase = null,
    bool Turns = false,
    bool ListOnly = false);

/// <summary>
/// How many times one iteration calls the benchmark (BenchmarkDotNet's invocation count, which its pilot stage finds
/// for the iteration time) and how many calls each loop pass holds (its unroll factor). The first launch of a case
/// finds it; the later launches reuse it, so each runs the same iterations without a pilot of its own.
/// </summary>
/// <param name="InvocationCount">Calls per iteration, a multiple of <paramref name="UnrollFactor"/>.</param>
/// <param name="UnrollFactor">Calls per pass of the measuring loop.</param>
public sealed record IterationShape(long InvocationCount, int UnrollFactor);

/// <summary>What an asm-only host run looks for.</summary>
/// <param name="Methods">JIT names up to the opening parenthesis, e.g. "Ns.Type:Method".</param>
/// <param name="ListingPath">The file the JIT writes listings to (DOTNET_JitStdOutFile, set by the parent).</param>
/// <param name="TimeoutSeconds">Stop driving after this long, optimized code or not.</param>
public sealed record DisasmRequest(IReadOnlyList<string> Methods, string ListingPath, double TimeoutSeconds);

/// <summary>A parameter value of one benchmark case.</summary>
/// <param name="Name">The [Params] member or argument name.</param>
/// <param name="Value">The value as BenchmarkDotNet displays it.</param>
public sealed record CaseParameter(string Name, string Value);

/// <summary>One benchmark case: a method with one combination of parameters.</summary>
/// <param name="Index">Position in the host's case list.</param>
/// <param name="TypeName">Full name of the benchmark class.</param>
/// <param name="MethodName">The benchmark method's display name.</param>
/// <param name="Parameters">Parameter values, in BenchmarkDotNet's order.</param>
/// <param name="IsBaseline">Whether the method is marked [Benchmark(Baseline = true)].</param>
/// <param name="Categories">[BenchmarkCategory] names; one may name a published figure, e.g. "N10-J01".</param>
public sealed record CaseInfo(int Index, string TypeName, string MethodName, IReadOnlyList<CaseParameter> Parameters, bool IsBaseline, IReadOnlyList<string>? Categories = null);

/// <summary>The runtime the host actually ran on.</summary>
/// <param name="Version">Exact version, e.g. 8.0.31.</param>
/// <param name="FrameworkDescription">RuntimeInformation.FrameworkDescription.</param>
/// <param name="Os">RuntimeInformation.OSDescription.</param>
/// <param name="Architecture">Process architecture.</param>
/// <param name="ProcessorCount">Logical processors visible to the process.</param>
/// <param name="ServerGc">Whether server GC is on.</param>
/// <param name="TieredPgo">The DOTNET_TieredPGO setting seen by the process, if set.</param>
public sealed record HostRuntime(string Version, string FrameworkDescription, string Os, string Architecture, int ProcessorCount, bool ServerGc, string? TieredPgo);

/// <summary>Statistics of the workload measurements, in nanoseconds per operation.</summary>
/// <param name="Mean">Arithmetic mean.</param>
/// <param name="Error">Half of the 99.9% confidence interval (BenchmarkDotNet's Error column).</param>
/// <param name="StdDev">Standard deviation.</param>
/// <param name="Median">Median.</param>
/// <param name="Min">Minimum.</param>
/// <param name="Max">Maximum.</param>
/// <param name="N">Number of measurements.</param>
public sealed record CaseStatistics(double Mean, double Error, double StdDev, double Median, double Min, double Max, int N);

/// <summary>Everything one host process reports.</summary>
/// <param name="ContractVersion">The <see cref="HostProtocol.Version"/> of the host.</param>
/// <param name="Runtime">The runtime the host ran on.</param>
/// <param name="Cases">Every case the assembly holds after filtering.</param>
/// <param name="Case">The case that was run, if any.</param>
/// <param name="Statistics">Measured statistics when the case succeeded.</param>
/// <param name="MeasurementsNs">Each workload result measurement, ns per operation.</param>
/// <param name="AllocatedBytesPerOperation">Managed bytes allocated per operation, when measured.</param>
/// <param name="Gen0PerThousandOps">Gen0 collections per 1000 operations.</param>
/// <param name="Gen1PerThousandOps">Gen1 collections per 1000 operations.</param>
/// <param name="Gen2PerThousandOps">Gen2 collections per 1000 operations.</param>
/// <param name="TotalOperations">Operations measured in total.</param>
/// <param name="Warnings">BenchmarkDotNet's analyser conclusions and the host's own remarks.</param>
/// <param name="Error">What went wrong, when the case failed.</param>
/// <param name="Iterations">The iteration shape the case was measured with, for the launches after this one.</param>
/// <param name="Round">Set by the engine, never by the host: the round of turns this launch measured in, as the time the
/// round started (Unix milliseconds; no two rounds anywhere start in the same one, as measuring runs never overlap);
/// null when it did not take turns.</param>
public sealed record HostResult(
    int ContractVersion,
    HostRuntime Runtime,
    IReadOnlyList<CaseInfo> Cases,
    CaseInfo? Case,
    CaseStatistics? Statistics,
    IReadOnlyList<double>? MeasurementsNs,
    long? AllocatedBytesPerOperation,
    double? Gen0PerThousandOps,
    double? Gen1PerThousandOps,
    double? Gen2PerThousandOps,
    long? TotalOperations,
    IReadOnlyList<string> Warnings,
    string? Error,
    IterationShape? Iterations = null,
    long? Round = null)
{
    /// <summary>A result without a case's numbers: the failure <paramref name="error"/>, or (null) an asm capture's end.</summary>
    /// <param name="runtime">The runtime that ran, as far as known.</param>
    /// <param name="cases">Every case the host listed.</param>
    /// <param name="info">The case it is about; null for the whole request.</param>
    /// <param name="error">What went wrong, or null.</param>
    public static HostResult Failed(HostRuntime runtime, IReadOnlyList<CaseInfo> cases, CaseInfo? info, string? error) =>
        new(HostProtocol.Version, runtime, cases, info, null, null, null, null, null, null, null, [], error);
}

/// <summary>A progress event the host prints as <see cref="HostProtocol.EventPrefix"/> + JSON.</summary>
/// <param name="Phase">"cases" (the case list, sent before measuring), BenchmarkDotNet's stage (e.g. WorkloadWarmup), or "done".</param>
/// <param name="Iteration">Iteration number within the stage, when known.</param>
/// <param name="Cases">With "cases": every case, so the parent can name a case whose process never returns.</param>
/// <param name="Case">The index of the case the event belongs to (a stage or "done"); null for "cases".</param>
public sealed record HostEvent(string Phase, int? Iteration, IReadOnlyList<CaseInfo>? Cases = null, int? Case = null);
