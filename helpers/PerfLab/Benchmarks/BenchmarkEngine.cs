using System.Diagnostics;
using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Room;
using PerfLab.Runtimes;

namespace PerfLab.Benchmarks;

/// <summary>
/// The benchmark pipeline: compile the source for each runtime (Roslyn, in-process), reuse cached
/// results, provision missing runtimes, then run the cases in PerfLab.Host processes (quick and full mode: each case in
/// its own, quick mode several launches per runtime; smoke mode: a runtime's cases one after another in one), round after round (launch r of every case, the runtimes interleaved per case),
/// reporting the table so far after each round (<see cref="RunProgress.Partial"/>), and build the results.
/// </summary>
public sealed class BenchmarkEngine
{
    private readonly Workspace _workspace;
    private readonly ResultCache _cache;

    // Where a finished run goes besides back to the caller: the home's room, when this laptop joined one.
    private readonly IFinishedRunObserver _finished;

    /// <summary>Creates an engine over a PerfLab home.</summary>
    /// <param name="home">Where runtimes, builds and the cache live; null uses <see cref="PerfLabHome.Default"/>.</param>
    public BenchmarkEngine(PerfLabHome? home = null)
    {
        _workspace = new Workspace(home);
        _cache = new ResultCache(_workspace.Home.ResultsCache);
        _finished = new RoomLaptop(_workspace.Home);
    }

    /// <summary>Sees each <see cref="CaseStep"/> the run passes, where it passes it: a seam for tests that cancel there.</summary>
    internal Action<string>? OnStep { get; init; }

    /// <summary>Runs <paramref name="request"/>.</summary>
    /// <param name="request">What to run.</param>
    /// <param name="progress">Receives progress as the run goes, with the time left and, after each round of launches, the table so far (<see cref="RunProgress.Partial"/>); may be null.</param>
    /// <param name="cancellationToken">Stops the run and kills its processes.</param>
    /// <returns>The results; failed cases are rows with an error.</returns>
    /// <exception cref="PerfLabException">The run could not happen (compile error, no runtime, timeout...).</exception>
    public async Task<BenchmarkRun> RunAsync(BenchmarkRequest request, IProgress<RunProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(request);
        request.Validate();
        var startedAt = DateTimeOffset.UtcNow;
        var clock = Stopwatch.StartNew();
        void Say(string stage, string message) => progress?.Report(new RunProgress(stage, clock.Elapsed, message));

        using var runLimit = new CancellationTokenSource(request.EffectiveRunTimeout);
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, runLimit.Token);
        try
        {
            return await RunCoreAsync(request, startedAt, clock, Say, progress, linked.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (runLimit.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
        {
            throw new PerfLabException(
                $"The run took longer than its limit of {request.EffectiveRunTimeout.TotalSeconds:F0} s and was stopped (benchmark processes killed).",
                "Raise the limit with --timeout, or run fewer cases with --filter.");
        }
    }

    private async Task<BenchmarkRun> RunCoreAsync(
        BenchmarkRequest request,
        DateTimeOffset startedAt,
        Stopwatch clock,
        Action<string, string> say,
        IProgress<RunProgress>? progress,
        CancellationToken cancellationToken)
    {
        var works = request.Runtimes
            .Select(r => new RuntimeWork<RuntimeOutcome>(r, ResultCache.Key(request.Source, request.Mode, request.EffectiveLaunches, request.Filter, request.Environment, r.Version, _workspace.Hosts.VersionOf(r), _workspace.Hosts.GeneratorsFor(request.Source, r))))
            .ToArray();
        say("compile", $"compiling {Path.GetFileName(request.SourcePath)} for {string.Join(", ", request.Runtimes.Select(r => r.Moniker))}");
        var compileClock = Stopwatch.StartNew();
        await _workspace.CompileAsync(request.Source, request.SourcePath, works, cancellationToken).ConfigureAwait(false);
        var compileSeconds = compileClock.Elapsed.TotalSeconds;
        OnStep?.Invoke(CaseStep.Compiled);

        // A cached part runs nothing: its runtime is located, not provisioned, and labelled as found.
        void ReadCached(IEnumerable<RuntimeWork<RuntimeOutcome>> candidates, string note)
        {
            if (request.Force)
            {
                return;
            }

            foreach (var work in candidates)
            {
                if (_cache.TryGet(work.CacheKey, w => say("cache", w)) is { } hit)
                {
                    work.Located ??= _workspace.Runtimes.Locate(work.Runtime);
                    work.Outcome = OutcomeOf(work, hit.Runtime, hit.Cases, cached: true);
                    say("cache", $"{work.Runtime.Moniker}: {note} (use --force to re-run)");
                }
            }
        }

        ReadCached(works, "cached result");

        double provisionSeconds = 0, waitSeconds = 0, measureSeconds = 0;
        var pending = works.Where(w => w.Outcome is null).ToArray();
        if (pending.Length > 0)
        {
            var provisionClock = Stopwatch.StartNew();
            await _workspace.LocateAsync(pending, measures: request.Mode != BenchmarkMode.Smoke, m => say("provision", m), cancellationToken).ConfigureAwait(false);
            provisionSeconds = provisionClock.Elapsed.TotalSeconds;

            var waitClock = Stopwatch.StartNew();
            using var measuring = await _workspace.AcquireMeasuringLockAsync(request.HoldsMeasuringLockAlone, m => say("wait", m), cancellationToken).ConfigureAwait(false);
            waitSeconds = waitClock.Elapsed.TotalSeconds;
            OnStep?.Invoke(CaseStep.Locked);

            // A run that held the lock before this one may have measured the same parts: they are read, not measured twice.
            ReadCached(pending, "cached result, measured meanwhile by another run");
            pending = pending.Where(w => w.Outcome is null).ToArray();

            var scratch = _workspace.NewScratchFolder("bench");
            try
            {
                var runners = pending.Select(w => (Work: w, Runner: new RuntimeRun(request, w.Located!, w.Compiled!, _workspace.Launcher, Path.Combine(scratch, w.Runtime.Moniker), clock, progress, OnStep))).ToArray();
                var measured = runners.Select(r => r.Runner).ToArray();
                var settled = new HashSet<int>();

                // The table so far, for frontends that show it as it grows, reported when another round is about to
                // start (a run of one round, smoke or full mode, reports none); only the final run is cached and returned.
                void ReportSoFar(int rounds, int planned)
                {
                    if (progress is null)
                    {
                        return;
                    }

                    var soFar = works.Select(w => w.Outcome ?? Partial(w, runners.First(r => r.Work == w).Runner)).ToArray();
                    var partial = ResultBuilder.Build(request.SourcePath, request.Mode, startedAt, request.Environment, request.Filter, soFar, new RunTiming(clock.Elapsed.TotalSeconds, compileSeconds, provisionSeconds, waitSeconds, measured.Sum(r => r.MeasureSeconds)));
                    progress.Report(new RunProgress("round", clock.Elapsed, $"round {rounds} done", Left: TimeLeft(planned), Partial: partial with { Code = request.ContentKey() }));
                }

                TimeSpan? TimeLeft(int planned) => LaunchPlan.TimeLeft(measured.Sum(r => r.MeasureSeconds), measured.Sum(r => r.LaunchesRun), LaunchesLeft(measured, settled, planned));

                // Round after round: round r runs launch r of every case still wanting one, and each case's launch on
                // every runtime before the next case, so drift on a shared machine (another program, the clock speed)
                // falls on every runtime alike, and after round 1 every case has a row to show. Quick mode adds rounds
                // to a case while its launches disagree too much for a narrow interval (LaunchPlan); a case left out
                // of a round is done.
                var ran = true;
                for (var launch = 1; ran; launch++)
                {
                    ran = false;
                    for (var index = 0; measured.Any(r => r.HasCase(index)); index++)
                    {
                        // A case an earlier process of several cases already ran in this round is not run again.
                        var running = measured.Where(r => r.HasCase(index) && !r.HasFailed(index) && r.LaunchesOf(index) < launch).ToArray();
                        if (settled.Contains(index) || running.Length == 0 || !LaunchPlan.WantsAnother(request, launch - 1, running.Select(r => r.LaunchMeans(index))))
                        {
                            settled.Add(index);
                            continue;
                        }

                        var planned = Math.Max(launch, request.EffectiveLaunches);
                        if (!ran && launch > 1)
                        {
                            ReportSoFar(launch - 1, planned);
                        }

                        foreach (var runner in running)
                        {
                            await runner.RunLaunchAsync(index, launch, planned, TimeLeft(planned), SeveralCasesPerProcess(request), cancellationToken).ConfigureAwait(false);
                        }

                        ran = true;
                    }
                }

                foreach (var (work, runner) in runners)
                {
                    measureSeconds += runner.MeasureSeconds;
                    var (reported, cases) = runner.Outcome();
                    work.Outcome = OutcomeOf(work, reported, cases, cached: false);
                    // A bytes-only run's times were taken beside other work: no later run may show them.
                    if (!request.ReadsOnlyBytes && cases.All(c => c.Launches.All(l => l.Error is null)))
                    {
                        _cache.Put(work.CacheKey, reported, cases);
                    }
                }
            }
            finally
            {
                Workspace.DeleteScratch(scratch);
            }
        }

        var timing = new RunTiming(clock.Elapsed.TotalSeconds, compileSeconds, provisionSeconds, waitSeconds, measureSeconds);
        var run = ResultBuilder.Build(request.SourcePath, request.Mode, startedAt, request.Environment, request.Filter, works.Select(w => w.Outcome!).ToArray(), timing) with { Code = request.ContentKey() };
        await _finished.RunFinishedAsync(run, m => say("room", m), cancellationToken).ConfigureAwait(false);
        say("done", $"done in {clock.Elapsed.TotalSeconds:F1} s");
        return run;
    }

    // Smoke mode runs every case of a runtime in one process, one after another: its one cold call per case costs far
    // less than a process's start-up, BenchmarkDotNet's preparation and exit. A mode that measures keeps one case per
    // process (quick mode's launches are what its intervals are made of; full mode is BenchmarkDotNet's own default).
    private static bool SeveralCasesPerProcess(BenchmarkRequest request) => request.Mode == BenchmarkMode.Smoke;

    private static RuntimeOutcome Partial(RuntimeWork<RuntimeOutcome> work, RuntimeRun runner)
    {
        var (reported, cases) = runner.Outcome();
        return OutcomeOf(work, reported, cases, cached: false);
    }

    // The launches still planned, the one about to start included: every case not settled or failed, on every runtime,
    // up to this round's planned number (a case that may get one more round in quick mode counts it); a runtime that
    // has not listed its cases yet is taken to have those another listed.
    private static int LaunchesLeft(IReadOnlyList<RuntimeRun> runners, IReadOnlySet<int> settled, int planned)
    {
        var cases = runners.Max(r => r.CaseCount) ?? 1;
        var left = 0;
        foreach (var runner in runners)
        {
            for (var c = 0; c < (runner.CaseCount ?? cases); c++)
            {
                if (!settled.Contains(c) && !runner.HasFailed(c))
                {
                    left += Math.Max(0, planned - runner.LaunchesOf(c));
                }
            }
        }

        return left;
    }

    // The one place a runtime's part of a run is labelled with where its runtime is: installed or
    // provisioned, or missing for a cached part whose runtime is not (or no longer) on this machine.
    private static RuntimeOutcome OutcomeOf(RuntimeWork<RuntimeOutcome> work, HostRuntime reported, IReadOnlyList<CaseLaunches> cases, bool cached) =>
        new(work.Runtime.Moniker, work.Located!.Source.Name(), reported, cases, cached);

    /// <summary>Runs the launches of one runtime's cases in host processes (one case each, or in smoke mode a case and the ones after it) and keeps their results.</summary>
    private sealed class RuntimeRun(
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

        /// <summary>Launches run so far, every case's.</summary>
        public int LaunchesRun => _launches.Sum(l => l.Count);

        /// <summary>How many cases the host listed; null until it has.</summary>
        public int? CaseCount => _cases?.Count;

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
        /// fails, and the cases after it get a process of their own when the run asks for them again.
        /// </summary>
        public async Task RunLaunchAsync(int index, int launch, int launches, TimeSpan? left, bool andTheRest, CancellationToken cancellationToken)
        {
            foreach (var result in await RunProcessAsync(index, launch, launches, left, andTheRest, cancellationToken).ConfigureAwait(false))
            {
                _cases ??= result.Cases;
                var at = result.Case!.Index;
                while (_launches.Count <= at)
                {
                    _launches.Add([]);
                }

                _launches[at].Add(result);
            }
        }

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
        private async Task<IReadOnlyList<HostResult>> RunProcessAsync(int index, int launch, int launches, TimeSpan? left, bool andTheRest, CancellationToken cancellationToken)
        {
            var folder = Path.Combine(work, $"case-{index}-launch-{launch}");
            // Later launches run the iterations the first one's pilot chose, and skip their own pilot.
            var iterations = launch > 1 && index < _launches.Count ? _launches[index][0].Iterations : null;
            var hostRequest = new HostRequest(compiled.AssemblyPath, index, request.Mode, request.Filter, Path.Combine(folder, "result.json"), Path.Combine(folder, "artifacts"), Iterations: iterations, Launches: launches, FromCase: andTheRest ? index : null);

            string? CaseName(int at) => _cases is { } cases && at < cases.Count ? Name(cases[at]) : null;
            void Report(int at, string? phase, int? iteration, string? message = null) =>
                progress?.Report(new RunProgress("measure", clock.Elapsed, message, Moniker, at + 1, _cases?.Count, CaseName(at), phase, iteration, launch, launches, left));

            Report(index, null, null, "starting");
            var (process, written, strayEventLine, strayCase) = await launcher.RunAsync(
                runtime,
                hostRequest,
                folder,
                request.Environment,
                request.EffectiveCaseTimeout,
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
                cancellationToken).ConfigureAwait(false);
            MeasureSeconds += process.Elapsed.TotalSeconds;

            if (written is [{ Case: null } nothing])
            {
                // Nothing to run at all: an empty filter match, or an assembly the host could not use.
                throw new PerfLabException(
                    nothing.Error ?? $"The benchmark process on {Moniker} reported no case.",
                    request.Filter.Count > 0 ? "Patterns match Namespace.Class.Method, e.g. --filter '*Sum*'." : null,
                    nothing.Cases.Select(c => "case: " + c.TypeName + "." + Name(c)).ToArray());
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
                        $"The benchmark process on {Moniker} did not finish within {request.EffectiveCaseTimeout.TotalSeconds:F0} s and was killed with its child processes.",
                        "Check the benchmark for an endless loop, or raise the limit with --case-timeout.");
                }

                var message = $"{BenchmarkResult.TimedOutPrefix} the case did not finish within {request.EffectiveCaseTimeout.TotalSeconds:F0} s; its process tree was killed. Check for an endless loop, or raise --case-timeout.";
                Report(running, null, null, "timed out");
                results.Add(Failed(cases, running, message));
                return results;
            }

            var tail = string.Join("\n", (process.StandardError + process.StandardOutput).Split('\n', StringSplitOptions.RemoveEmptyEntries).TakeLast(12));
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
}
