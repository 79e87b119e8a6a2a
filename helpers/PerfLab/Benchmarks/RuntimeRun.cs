using System.Diagnostics;
using PerfLab.Contract;
using PerfLab.Processes;
using PerfLab.Results;
using PerfLab.Runtimes;

namespace PerfLab.Benchmarks;

/// <summary>Runs the launches of one runtime's cases in host processes (one case each, or in smoke mode a case and the ones after it) and keeps their results.</summary>
internal sealed class RuntimeRun(
    BenchmarkRequest request,
    LocatedRuntime runtime,
    CompiledBenchmark compiled,
    HostLauncher launcher,
    string work,
    Stopwatch clock,
    IProgress<RunProgress>? progress,
    Action<string>? onStep)
{
    private static readonly HostRuntime Unknown = new("?", "?", System.Runtime.InteropServices.RuntimeInformation.OSDescription, System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture.ToString(), Environment.ProcessorCount, false, null);

    // The host's list of cases, known from the first launch's events or result.
    private IReadOnlyList<CaseInfo>? _cases;
    private readonly List<List<HostResult>> _launches = [];

    public double MeasureSeconds { get; private set; }

    /// <summary>Counts this runtime's share of a round whose launches took turns (<see cref="LaunchTurns"/>): its wall time over the launches.</summary>
    public void CountShare(double seconds) => MeasureSeconds += seconds;

    /// <summary>Launches run so far, every case's.</summary>
    public int LaunchesRun => _launches.Sum(l => l.Count);

    /// <summary>How many cases the host listed; null until it has.</summary>
    public int? CaseCount => _cases?.Count;

    /// <summary>Whether a case the host listed is the class's baseline method ([Benchmark(Baseline = true)]).</summary>
    public bool HasBaselineMethod => _cases?.Any(c => c.IsBaseline) == true;

    /// <summary>Launches of the case at <paramref name="index"/> run so far.</summary>
    public int LaunchesOf(int index) => index < _launches.Count ? _launches[index].Count : 0;

    private string Moniker => runtime.Pinned.Moniker;

    /// <summary>Whether this runtime has a case at <paramref name="index"/> (true until the host has listed its cases).</summary>
    public bool HasCase(int index) => _cases is null || index < _cases.Count;

    /// <summary>Whether a launch of the case at <paramref name="index"/> failed: the case has failed, and runs no more launches.</summary>
    public bool HasFailed(int index) => index < _launches.Count && _launches[index].Any(l => l.Error is not null);

    /// <summary>The means (ns) of the launches of the case at <paramref name="index"/> that measured one, so far.</summary>
    public IReadOnlyList<double> LaunchMeans(int index) =>
        index < _launches.Count ? _launches[index].Where(l => l.Statistics is not null).Select(l => l.Statistics!.Mean).ToArray() : [];

    /// <summary>
    /// Runs one launch of a case and keeps its result; <paramref name="left"/> is the run's time left, estimated before
    /// it. With <paramref name="andTheRest"/> (smoke mode), the same process runs every later case too, one after
    /// another, and each finished case keeps its result; a case that ended the process early (a crash, a timeout)
    /// fails, and the cases after it get a process of their own when the run asks for them again. With
    /// <paramref name="seat"/>, the launch takes turns with the other runtimes' launches of the round (<see cref="LaunchTurns"/>).
    /// </summary>
    public async Task RunLaunchAsync(int index, int launch, int launches, TimeSpan? left, bool andTheRest, CancellationToken cancellationToken, TurnSeat? seat = null)
    {
        foreach (var result in await RunProcessAsync(index, launch, launches, left, andTheRest, seat, cancellationToken).ConfigureAwait(false))
        {
            _cases ??= result.Cases;
            var at = result.Case!.Index;
            while (_launches.Count <= at)
            {
                _launches.Add([]);
            }

            _launches[at].Add(seat is null ? result : result with { Round = seat.Round });
        }
    }

    /// <summary>
    /// Lists the cases in a host that runs none (<see cref="HostRequest.ListOnly"/>): what the engine needs before a first
    /// round that seats a class's methods together (it hands them to every runtime's run: <see cref="Know"/>).
    /// </summary>
    public async Task<IReadOnlyList<CaseInfo>> ListCasesAsync(CancellationToken cancellationToken)
    {
        var folder = Path.Combine(work, "list");
        var hostRequest = new HostRequest(compiled.AssemblyPath, 0, request.Mode, request.Filter, Path.Combine(folder, "result.json"), Path.Combine(folder, "artifacts"), ListOnly: true);
        progress?.Report(new RunProgress("measure", clock.Elapsed, "listing the cases", Moniker));
        var (process, written, _, _) = await launcher.RunAsync(runtime, hostRequest, folder, request.Environment, request.EffectiveCaseTimeout, null, onStep, cancellationToken).ConfigureAwait(false);
        switch (written)
        {
            case [{ Case: null, Error: null } listed]:
                return listed.Cases;
            case [{ Case: null } nothing]:
                throw NothingToRun(nothing);
            default:
                var tail = Tail(process);
                throw new PerfLabException(
                    process.TimedOut
                        ? $"The benchmark process on {Moniker} did not list its cases within {request.EffectiveCaseTimeout.TotalSeconds:F0} s and was killed with its child processes."
                        : $"The benchmark process on {Moniker} exited with code {process.ExitCode} without listing its cases.",
                    "Run the benchmark's code once outside the benchmark: a static constructor or a [Params] source may fail or hang.",
                    tail.Length == 0 ? [] : tail.Split('\n'));
        }
    }

    /// <summary>Knows the cases a host listed (<see cref="ListCasesAsync"/>; every runtime lists the same cases of the same source).</summary>
    public void Know(IReadOnlyList<CaseInfo> cases) => _cases ??= cases;

    /// <summary>The runtime the host reported, and every case's launches.</summary>
    public (HostRuntime Reported, IReadOnlyList<CaseLaunches> Cases) Outcome()
    {
        // A case killed on timeout reports no runtime; any other launch of the run does.
        var reported = _launches.SelectMany(l => l).Select(r => r.Runtime).FirstOrDefault(r => r.Version != Unknown.Version)
            ?? Unknown with { Version = runtime.Pinned.Version, FrameworkDescription = ".NET " + runtime.Pinned.Version };
        return (reported, _launches.Select(l => new CaseLaunches(l)).ToArray());
    }

    // One host process: the case at index, or (andTheRest) it and every later one; the results of the cases it
    // finished, then the failure of the case it was running if it ended early.
    private async Task<IReadOnlyList<HostResult>> RunProcessAsync(int index, int launch, int launches, TimeSpan? left, bool andTheRest, TurnSeat? seat, CancellationToken cancellationToken)
    {
        var folder = Path.Combine(work, $"case-{index}-launch-{launch}");
        // Later launches run the iterations the first one's pilot chose, and skip their own pilot.
        var iterations = launch > 1 && index < _launches.Count ? _launches[index][0].Iterations : null;
        var hostRequest = new HostRequest(compiled.AssemblyPath, index, request.Mode, request.Filter, Path.Combine(folder, "result.json"), Path.Combine(folder, "artifacts"), Iterations: iterations, Launches: launches, FromCase: andTheRest ? index : null, Turns: seat is not null);

        string? CaseName(int at) => _cases is { } cases && at < cases.Count ? Name(cases[at]) : null;
        void Report(int at, string? phase, int? iteration, string? message = null) =>
            progress?.Report(new RunProgress("measure", clock.Elapsed, message, Moniker, at + 1, _cases?.Count, CaseName(at), phase, iteration, launch, launches, left));

        Report(index, null, null, "starting");
        // A launch taking turns waits while the others run: it may live that many times as long.
        var timeout = request.EffectiveCaseTimeout * (seat?.Of ?? 1);
        var (process, written, strayEventLine, strayCase) = await launcher.RunAsync(
            runtime,
            hostRequest,
            folder,
            request.Environment,
            timeout,
            hostEvent =>
            {
                if (hostEvent.Cases is { } list)
                {
                    _cases = list;
                }

                if (hostEvent.Phase is not ("cases" or "done"))
                {
                    Report(hostEvent.Case ?? index, hostEvent.Phase, hostEvent.Iteration);
                }
            },
            onStep,
            cancellationToken,
            seat).ConfigureAwait(false);
        // Launches taking turns live side by side: the engine counts each one's share of the round instead (CountShare).
        if (seat is null)
        {
            MeasureSeconds += process.Elapsed.TotalSeconds;
        }

        if (written is [{ Case: null } nothing])
        {
            throw NothingToRun(nothing);
        }

        var results = written.ToList();
        if (strayEventLine is not null)
        {
            // The case that printed it fails; with one case per process, that one.
            var blamed = results.FindIndex(r => r.Case!.Index == (strayCase ?? index) && r.Error is null);
            if (blamed >= 0)
            {
                results[blamed] = Failed(results[blamed].Cases, results[blamed].Case!.Index, StrayEventMessage(strayEventLine)) with { Runtime = results[blamed].Runtime };
            }
        }

        foreach (var result in results)
        {
            // The reason is on the line itself: a terminal or a notebook's folded progress is where a reader looks.
            Report(result.Case!.Index, null, null, result.Error is null ? "done" : "failed: " + BenchmarkResult.FirstLine(result.Error));
        }

        // The case it was running when the process ended early: the first it asked for without a result.
        var running = index + results.Count;
        var asked = andTheRest ? (_cases?.Count ?? int.MaxValue) - index : 1;
        if (results.Count >= asked)
        {
            return results;
        }

        if (process.TimedOut)
        {
            if (_cases is not { } cases || running >= cases.Count)
            {
                throw new PerfLabException(
                    $"The benchmark process on {Moniker} did not finish within {timeout.TotalSeconds:F0} s and was killed with its child processes.",
                    "Check the benchmark for an endless loop, or raise the limit with --case-timeout.");
            }

            var message = $"{BenchmarkResult.TimedOutPrefix} the case did not finish within {timeout.TotalSeconds:F0} s; its process tree was killed. Check for an endless loop, or raise --case-timeout.";
            Report(running, null, null, "timed out");
            results.Add(Failed(cases, running, message));
            return results;
        }

        var tail = Tail(process);
        var crash = $"The benchmark process on {Moniker} exited with code {process.ExitCode} without a result (a crash such as a stack overflow ends it this way).";
        if (_cases is not { } known || running >= known.Count)
        {
            throw new PerfLabException(crash, "Run the benchmark's code once outside the benchmark to see the crash.", tail.Length == 0 ? [] : tail.Split('\n'));
        }

        var failure = Failed(known, running, crash + (tail.Length == 0 ? "" : "\n" + tail));
        Report(running, null, null, "failed: " + BenchmarkResult.FirstLine(failure.Error!));
        results.Add(failure);
        return results;
    }

    // Nothing to run at all: an empty filter match, or an assembly the host could not use.
    private PerfLabException NothingToRun(HostResult nothing) => new(
        nothing.Error ?? $"The benchmark process on {Moniker} reported no case.",
        request.Filter.Count > 0 ? "Patterns match Namespace.Class.Method, e.g. --filter '*Sum*'." : null,
        nothing.Cases.Select(c => "case: " + c.TypeName + "." + Name(c)).ToArray());

    // The last lines a process printed: what a crash says about itself.
    private static string Tail(ChildProcessResult process) =>
        string.Join("\n", (process.StandardError + process.StandardOutput).Split('\n', StringSplitOptions.RemoveEmptyEntries).TakeLast(12));

    private static HostResult Failed(IReadOnlyList<CaseInfo> cases, int index, string error)
    {
        return HostResult.Failed(Unknown, cases, cases[index], error);
    }

    /// <summary>What a case that printed a line like a host event is told: the line, why it matters, what to do.</summary>
    private static string StrayEventMessage(string line) =>
        $"The benchmark printed '{line}': lines that start with '{HostProtocol.EventPrefix}' are how the benchmark process reports its progress to PerfLab, and this one is no such report. Print that text without that prefix (or to Console.Error).";

    private static string Name(CaseInfo c) =>
        c.Parameters.Count == 0 ? c.MethodName : $"{c.MethodName}({string.Join(", ", c.Parameters.Select(p => $"{p.Name}={p.Value}"))})";
}
