using System.Diagnostics;
using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Room;
using PerfLab.Runtimes;

namespace PerfLab.Benchmarks;

/// <summary>
/// The benchmark pipeline: compile the source for each runtime (Roslyn, in-process), reuse cached
/// results, provision missing runtimes, then run the cases in PerfLab.Host processes (quick and full mode: each case in
/// its own, quick mode several launches per runtime; smoke mode: a runtime's cases one after another in one), round after round (launch r of every case, the runtimes interleaved per case; in quick mode taking turns an iteration at a time, a baseline method's class with all its methods in each round: SharedRounds),
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

                // A class with a baseline method seats its methods in the same rounds (SharedRounds), so its cases
                // must be known before the first round: one host lists them, and every runtime lists the same.
                var listed = TakesTurns(request) && SharedRounds.MayHaveBaseline(request.Source) && measured.Length > 0
                    ? await measured[0].ListCasesAsync(cancellationToken).ConfigureAwait(false)
                    : null;
                if (listed is not null)
                {
                    foreach (var runner in measured)
                    {
                        runner.Know(listed);
                    }
                }

                // Round after round: round r runs launch r of every case still wanting one, and each case's launch on
                // every runtime (with a baseline method's class, every method's) before the next case (in quick mode at
                // once, in turns: LaunchTurns), so drift on a shared machine (another program, the clock speed) falls on
                // every runtime alike, and after round 1 every case has a row to show. Quick mode adds rounds to a case
                // while its launches disagree too much for a narrow interval (LaunchPlan); a case left out of a round is done.
                var ran = true;
                for (var launch = 1; ran; launch++)
                {
                    ran = false;
                    var seated = new HashSet<int>();
                    for (var index = 0; measured.Any(r => r.HasCase(index)); index++)
                    {
                        if (seated.Contains(index))
                        {
                            continue;
                        }

                        var group = listed is not null ? SharedRounds.GroupOf(listed, index, measured.Length) : [index];
                        seated.UnionWith(group);
                        if (group.Count > 1)
                        {
                            // A method that measured nothing leaves its class's rounds, as it would stop if it had rounds of its own.
                            settled.UnionWith(group.Where(i => LaunchPlan.MeasuredNothing(request, launch - 1, measured.Where(r => r.HasCase(i) && !r.HasFailed(i)).Select(r => r.LaunchMeans(i)).ToArray())));
                            group = [.. group.Where(i => !settled.Contains(i))];
                        }

                        // A case an earlier process of several cases already ran in this round is not run again.
                        var rows = group.SelectMany(i => measured.Where(r => r.HasCase(i) && !r.HasFailed(i) && r.LaunchesOf(i) < launch).Select(r => (Runner: r, Index: i))).ToArray();
                        // Rows launched in the same rounds are judged as the table will judge them (RatioInterval.InRounds):
                        // runtimes taking turns, and a baseline method's class only where its methods share the rounds.
                        var inRounds = TakesTurns(request) && rows.Length > 1 && (group.Count > 1 || !measured.Any(r => r.HasBaselineMethod));
                        if (group.All(settled.Contains) || rows.Length == 0 || !LaunchPlan.WantsAnother(request, launch - 1, rows.Select(r => r.Runner.LaunchMeans(r.Index)).ToArray(), inRounds))
                        {
                            settled.UnionWith(group);
                            continue;
                        }

                        var planned = Math.Max(launch, request.EffectiveLaunches);
                        if (!ran && launch > 1)
                        {
                            ReportSoFar(launch - 1, planned);
                        }

                        if (TakesTurns(request) && rows.Length > 1)
                        {
                            var left = TimeLeft(planned);
                            var round = Stopwatch.StartNew();
                            await LaunchTurns.RunAsync(
                                rows.Select(row => (Func<TurnSeat, Task>)(seat => row.Runner.RunLaunchAsync(row.Index, launch, planned, left, andTheRest: false, cancellationToken, seat))).ToArray(),
                                cancellationToken).ConfigureAwait(false);
                            foreach (var row in rows)
                            {
                                row.Runner.CountShare(round.Elapsed.TotalSeconds / rows.Length);
                            }
                        }
                        else
                        {
                            foreach (var (runner, at) in rows)
                            {
                                await runner.RunLaunchAsync(at, launch, planned, TimeLeft(planned), SeveralCasesPerProcess(request), cancellationToken).ConfigureAwait(false);
                            }
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

    // Quick mode's launches of several take turns: a round's launches of a case on every runtime run at once, one
    // iteration each in turn (LaunchTurns), so the machine's state changes hit every runtime of the round alike.
    // PERFLAB_TURNS=0 runs them one after another instead, to compare the two.
    private static bool TakesTurns(BenchmarkRequest request) =>
        request.Mode == BenchmarkMode.Quick && request.EffectiveLaunches > 1 && Environment.GetEnvironmentVariable(TurnsVariable) != "0";

    private const string TurnsVariable = "PERFLAB_TURNS";

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
}
