using System.Diagnostics;
using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Runtimes;

namespace PerfLab.Benchmarks;

/// <summary>
/// The benchmark pipeline: compile the source for each runtime (Roslyn, in-process), reuse cached
/// results, provision missing runtimes, then run every case in its own PerfLab.Host process on each
/// runtime, one runtime after another, and build the results.
/// </summary>
public sealed class BenchmarkEngine
{
    private readonly Workspace _workspace;
    private readonly ResultCache _cache;

    /// <summary>Creates an engine over a PerfLab home.</summary>
    /// <param name="home">Where runtimes, builds and the cache live; null uses <see cref="PerfLabHome.Default"/>.</param>
    public BenchmarkEngine(PerfLabHome? home = null)
    {
        _workspace = new Workspace(home);
        _cache = new ResultCache(_workspace.Home.ResultsCache);
    }

    /// <summary>Sees each <see cref="CaseStep"/> the run passes, where it passes it: a seam for tests that cancel there.</summary>
    internal Action<string>? OnStep { get; init; }

    /// <summary>Runs <paramref name="request"/>.</summary>
    /// <param name="request">What to run.</param>
    /// <param name="progress">Receives progress as the run goes; may be null.</param>
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
            .Select(r => new RuntimeWork<RuntimeOutcome>(r, ResultCache.Key(request.Source, request.Mode, request.Filter, request.Environment, r.Version, _workspace.Hosts.VersionOf(r), _workspace.Hosts.GeneratorsFor(request.Source, r))))
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
            await _workspace.LocateAsync(pending, m => say("provision", m), cancellationToken).ConfigureAwait(false);
            provisionSeconds = provisionClock.Elapsed.TotalSeconds;

            var waitClock = Stopwatch.StartNew();
            using var measuring = await _workspace.AcquireMeasuringLockAsync(request.Mode != BenchmarkMode.Smoke, m => say("wait", m), cancellationToken).ConfigureAwait(false);
            waitSeconds = waitClock.Elapsed.TotalSeconds;
            OnStep?.Invoke(CaseStep.Locked);

            // A run that held the lock before this one may have measured the same parts: they are read, not measured twice.
            ReadCached(pending, "cached result, measured meanwhile by another run");
            pending = pending.Where(w => w.Outcome is null).ToArray();

            var scratch = _workspace.NewScratchFolder("bench");
            try
            {
                foreach (var work in pending)
                {
                    var runner = new RuntimeRun(request, work.Located!, work.Compiled!, _workspace.Launcher, Path.Combine(scratch, work.Runtime.Moniker), clock, progress, OnStep);
                    var (reported, cases) = await runner.RunAsync(cancellationToken).ConfigureAwait(false);
                    measureSeconds += runner.MeasureSeconds;
                    work.Outcome = OutcomeOf(work, reported, cases, cached: false);
                    if (cases.All(c => c.Error is null))
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
        var run = ResultBuilder.Build(request.SourcePath, request.Mode, startedAt, request.Environment, request.Filter, works.Select(w => w.Outcome!).ToArray(), timing);
        say("done", $"done in {clock.Elapsed.TotalSeconds:F1} s");
        return run with { Code = request.ContentKey() };
    }

    // The one place a runtime's part of a run is labelled with where its runtime is: installed or
    // provisioned, or missing for a cached part whose runtime is not (or no longer) on this machine.
    private static RuntimeOutcome OutcomeOf(RuntimeWork<RuntimeOutcome> work, HostRuntime reported, IReadOnlyList<HostResult> cases, bool cached) =>
        new(work.Runtime.Moniker, work.Located!.Source.Name(), reported, cases, cached);

    /// <summary>Runs every case of one runtime, each in its own host process.</summary>
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

        public double MeasureSeconds { get; private set; }

        private string Moniker => runtime.Pinned.Moniker;

        /// <summary>The runtime the host reported, and every case's result.</summary>
        public async Task<(HostRuntime Reported, IReadOnlyList<HostResult> Cases)> RunAsync(CancellationToken cancellationToken)
        {
            IReadOnlyList<CaseInfo>? cases = null;
            var results = new List<HostResult>();
            for (var index = 0; cases is null || index < cases.Count; index++)
            {
                var result = await RunCaseAsync(index, cases, c => cases ??= c, cancellationToken).ConfigureAwait(false);
                cases ??= result.Cases;
                results.Add(result);
            }

            // A case killed on timeout reports no runtime; any other case of the run does.
            var reported = results.Select(r => r.Runtime).FirstOrDefault(r => r.Version != Unknown.Version)
                ?? Unknown with { Version = runtime.Pinned.Version, FrameworkDescription = ".NET " + runtime.Pinned.Version };
            return (reported, results);
        }

        private async Task<HostResult> RunCaseAsync(int index, IReadOnlyList<CaseInfo>? knownCases, Action<IReadOnlyList<CaseInfo>> onCases, CancellationToken cancellationToken)
        {
            var folder = Path.Combine(work, $"case-{index}");
            var hostRequest = new HostRequest(compiled.AssemblyPath, index, request.Mode, request.Filter, Path.Combine(folder, "result.json"), Path.Combine(folder, "artifacts"));

            var cases = knownCases;
            string? CaseName() => cases is not null && index < cases.Count ? Name(cases[index]) : null;
            void Report(string? phase, int? iteration, string? message = null) =>
                progress?.Report(new RunProgress("measure", clock.Elapsed, message, Moniker, index + 1, cases?.Count, CaseName(), phase, iteration));

            Report(null, null, "starting");
            var (process, result) = await launcher.RunAsync(
                runtime,
                hostRequest,
                folder,
                request.Environment,
                request.EffectiveCaseTimeout,
                hostEvent =>
                {
                    if (hostEvent.Cases is { } list)
                    {
                        cases = list;
                        onCases(list);
                    }

                    if (hostEvent.Phase is not ("cases" or "done"))
                    {
                        Report(hostEvent.Phase, hostEvent.Iteration);
                    }
                },
                onStep,
                cancellationToken).ConfigureAwait(false);
            MeasureSeconds += process.Elapsed.TotalSeconds;

            if (process.TimedOut)
            {
                if (cases is null || index >= cases.Count)
                {
                    throw new PerfLabException(
                        $"The benchmark process on {Moniker} did not finish within {request.EffectiveCaseTimeout.TotalSeconds:F0} s and was killed with its child processes.",
                        "Check the benchmark for an endless loop, or raise the limit with --case-timeout.");
                }

                var message = $"{BenchmarkResult.TimedOutPrefix} the case did not finish within {request.EffectiveCaseTimeout.TotalSeconds:F0} s; its process tree was killed. Check for an endless loop, or raise --case-timeout.";
                Report(null, null, "timed out");
                return Failed(cases, index, message);
            }

            if (result is null)
            {
                var tail = string.Join("\n", (process.StandardError + process.StandardOutput).Split('\n', StringSplitOptions.RemoveEmptyEntries).TakeLast(12));
                var message = $"The benchmark process on {Moniker} exited with code {process.ExitCode} without a result (a crash such as a stack overflow ends it this way).";
                if (cases is null || index >= cases.Count)
                {
                    throw new PerfLabException(message, "Run the benchmark's code once outside the benchmark to see the crash.", tail.Length == 0 ? [] : tail.Split('\n'));
                }

                return Failed(cases, index, message + (tail.Length == 0 ? "" : "\n" + tail));
            }

            if (result.Case is null)
            {
                // Nothing to run at all: an empty filter match, or an assembly the host could not use.
                throw new PerfLabException(
                    result.Error ?? $"The benchmark process on {Moniker} reported no case.",
                    request.Filter.Count > 0 ? "Patterns match Namespace.Class.Method, e.g. --filter '*Sum*'." : null,
                    result.Cases.Select(c => "case: " + c.TypeName + "." + Name(c)).ToArray());
            }

            // The reason is on the line itself: a terminal or a notebook's folded progress is where a reader looks.
            Report(null, null, result.Error is null ? "done" : "failed: " + BenchmarkResult.FirstLine(result.Error));
            return result;
        }

        private static HostResult Failed(IReadOnlyList<CaseInfo> cases, int index, string error)
        {
            return new HostResult(HostProtocol.Version, Unknown, cases, cases[index], null, null, null, null, null, null, null, [], error);
        }

        private static string Name(CaseInfo c) =>
            c.Parameters.Count == 0 ? c.MethodName : $"{c.MethodName}({string.Join(", ", c.Parameters.Select(p => $"{p.Name}={p.Value}"))})";
    }
}
