using System.Reflection;
using System.Runtime;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Analysers;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using PerfLab.Contract;
using Perfolizer.Mathematics.Common;

namespace PerfLab.Host;

/// <summary>Loads the benchmark assembly, lists its cases and runs the one asked for.</summary>
internal static class CaseRunner
{
    // BenchmarkDotNet remarks that are always true here and say nothing about the reader's code.
    private static readonly string[] IgnoredRemarks = ["No exporters defined", "is located in temp", "question mark"];

    private static readonly TimeSpan QuickTieringLimit = TimeSpan.FromSeconds(QuickJob.TieringLimitSeconds);

    // Turns the quick-mode tiering warm-up off, so bench/tiering/measure.cs can show what it buys side by side.
    private const string SkipTieringWarmup = "PERFLAB_SKIP_TIERING_WARMUP";

    /// <summary>Runs what <paramref name="request"/> asks; <paramref name="publish"/> gets the results so far after each case (and the one failure of a request it cannot run).</summary>
    /// <returns>The process's exit code.</returns>
    public static int Run(HostRequest request, Action<IReadOnlyList<HostResult>> publish)
    {
        var runtime = new HostRuntime(
            Environment.Version.ToString(),
            RuntimeInformation.FrameworkDescription,
            RuntimeInformation.OSDescription,
            RuntimeInformation.ProcessArchitecture.ToString(),
            Environment.ProcessorCount,
            GCSettings.IsServerGC,
            Environment.GetEnvironmentVariable("DOTNET_TieredPGO"));

        HostResult Failure(IReadOnlyList<CaseInfo> cases, CaseInfo? info, string? error) => HostResult.Failed(runtime, cases, info, error);

        Directory.CreateDirectory(request.ArtifactsPath);
        using var logger = new HostLogger(Path.Combine(request.ArtifactsPath, "benchmarkdotnet.log"));
        var config = ManualConfig.CreateEmpty()
            .AddJob(Jobs.For(request.Mode, request.Iterations, request.Launches))
            .AddDiagnoser(MemoryDiagnoser.Default)
            .AddLogger(logger)
            .AddColumnProvider(BenchmarkDotNet.Columns.DefaultColumnProviders.Instance)
            .AddAnalyser(DefaultConfig.Instance.GetAnalysers().ToArray())
            .WithArtifactsPath(request.ArtifactsPath)
            .WithOptions(ConfigOptions.DisableLogFile)
            .WithWakeLock(WakeLockType.None);
        if (request.Filter is { Count: > 0 } filter)
        {
            config.AddFilter(new GlobFilter(filter.ToArray()));
        }

        Assembly assembly;
        try
        {
            assembly = Assembly.LoadFrom(request.AssemblyPath);
        }
        catch (Exception ex) when (ex is IOException or BadImageFormatException)
        {
            publish([Failure([], null, $"Could not load {request.AssemblyPath}: {ex.Message}")]);
            return HostProtocol.BadRequestExitCode;
        }

        var runInfos = assembly.GetExportedTypes()
            .Where(t => t is { IsClass: true, IsAbstract: false, IsGenericTypeDefinition: false })
            .Where(t => t.GetMethods().Any(m => m.IsDefined(typeof(BenchmarkAttribute), inherit: true)))
            .Select(t => BenchmarkConverter.TypeToBenchmarks(t, config))
            .ToArray();
        var allCases = runInfos.SelectMany(r => r.BenchmarksCases.Select(c => (Info: r, Case: c))).ToArray();
        var cases = allCases.Select((c, i) => Describe(c.Case, i)).ToArray();
        if (allCases.Length == 0)
        {
            var why = request.Filter is { Count: > 0 }
                ? $"No benchmark matches the filter {string.Join(" ", request.Filter)} (patterns match Namespace.Class.Method)."
                : "The assembly has no public, non-abstract class with a [Benchmark] method.";
            publish([Failure(cases, null, why)]);
            return HostProtocol.BadRequestExitCode;
        }

        if (request.Disasm is { } disasm)
        {
            var failure = AsmDriver.Drive(runInfos, disasm);
            publish([Failure(cases, null, failure)]);
            return failure is null ? 0 : HostProtocol.CaseFailedExitCode;
        }

        if (request.ListOnly)
        {
            publish([Failure(cases, null, null)]);
            return 0;
        }

        var first = request.FromCase ?? request.CaseIndex;
        if (first < 0 || first >= allCases.Length)
        {
            publish([Failure(cases, null, $"Case {first} does not exist; there are {allCases.Length}.")]);
            return HostProtocol.BadRequestExitCode;
        }

        HostLogger.Emit(new HostEvent("cases", null, cases));
        MachineFacts.Install();
        var results = new List<HostResult>();
        var exitCode = 0;
        foreach (var index in request.FromCase is null ? [first] : Enumerable.Range(first, allCases.Length - first))
        {
            logger.BeginCase(index);
            var result = RunCase(request, logger, allCases[index].Info, allCases[index].Case, cases[index], cases, runtime);
            results.Add(result);
            publish(results);
            if (result.Error is not null)
            {
                exitCode = HostProtocol.CaseFailedExitCode;
            }
        }

        return exitCode;
    }

    // One case, measured by BenchmarkDotNet in this process: its result, or its failure.
    private static HostResult RunCase(HostRequest request, HostLogger logger, BenchmarkRunInfo runInfo, BenchmarkCase benchmarkCase, CaseInfo info, IReadOnlyList<CaseInfo> cases, HostRuntime runtime)
    {
        HostResult Failure(string error) => HostResult.Failed(runtime, cases, info, error);

        var drives = request.Mode == BenchmarkMode.Quick && Environment.GetEnvironmentVariable(SkipTieringWarmup) != "1";
        if (request.Turns)
        {
            // The parent runs this case's launches on every runtime at once, one iteration in turn. This process first
            // drives its case until tiering settles, at BenchmarkDotNet's first iteration (which runs only its empty
            // overhead method), and stops ready once the JIT is quiet: the round's hosts start and drive side by side,
            // as nothing is measured yet. From then on it works only in its turn, so nothing it measures overlaps
            // another runtime's work: each iteration (a stop before each, from the logger, between iterations). Its
            // last stop follows the measured iterations and BenchmarkDotNet's memory-measuring one, which all come
            // before the lines of its results (its Result "stage"): the summary and the exit measure nothing, and the
            // round's hosts then end side by side.
            var ready = false;
            var driven = !drives;
            var measured = false;
            logger.OnIteration = (phase, _) =>
            {
                if (!driven)
                {
                    driven = true;
                    DriveUntilSettled(benchmarkCase);
                }

                if (!ready)
                {
                    ready = true;
                    Turns.WaitReady();
                }

                if (!phase.EndsWith("Result", StringComparison.Ordinal))
                {
                    Turns.Wait(phase);
                }
                else if (!measured)
                {
                    measured = true;
                    Turns.WaitMeasured();
                }
            };
        }
        else if (drives)
        {
            // Quick mode's short stages can end before tiering has settled, and then iterations time Tier0 code, or
            // time it while the JIT promotes the many library methods BenchmarkDotNet's own preparation made hot
            // (reflection, emit, its job's characteristics: a hundred or more compiles per measured iteration, seen
            // in bench/launches' JIT traces). So the case is driven until tiering settles once that preparation is
            // done: at its first iteration, from the logger, which BenchmarkDotNet calls between iterations.
            var driven = false;
            logger.OnIteration = (_, _) =>
            {
                if (!driven)
                {
                    driven = true;
                    DriveUntilSettled(benchmarkCase);
                }
            };
        }

        var summary = BenchmarkRunner.Run(new BenchmarkRunInfo([benchmarkCase], runInfo.Type, runInfo.Config));
        HostLogger.Emit(new HostEvent("done", null, Case: info.Index));

        var critical = summary.ValidationErrors.Where(v => v.IsCritical).Select(v => v.Message).ToArray();
        if (critical.Length > 0)
        {
            return Failure("BenchmarkDotNet rejected the benchmark: " + string.Join(" ", critical));
        }

        var report = summary.Reports.FirstOrDefault();
        var statistics = report?.ResultStatistics;
        if (report is null || !report.Success || statistics is null)
        {
            var error = logger.BenchmarkException ?? "The benchmark produced no measurements (see BenchmarkDotNet's log).";
            return Failure(error);
        }

        var remarks = summary.ValidationErrors.Select(v => v.Message)
            .Concat(runInfo.Config.GetCompositeAnalyser().Analyse(summary)
                .Where(c => c.Kind is ConclusionKind.Warning or ConclusionKind.Error)
                .Where(c => !(request.Mode != BenchmarkMode.Full && c.AnalyserId == "MinIterationTime"))
                .Select(c => c.Message))
            .Where(m => !IgnoredRemarks.Any(i => m.Contains(i, StringComparison.Ordinal)))
            .Distinct()
            .ToArray();

        var error999 = statistics.N > 1 ? statistics.GetConfidenceInterval(ConfidenceLevel.L999).Margin : 0;
        var gc = report.GcStats;
        double? PerThousand(int collections) => gc.TotalOperations > 0 ? collections * 1000.0 / gc.TotalOperations : null;
        var measurements = report.AllMeasurements
            .Where(m => m.Is(IterationMode.Workload, IterationStage.Result))
            .Select(m => m.Nanoseconds / m.Operations)
            .ToArray();

        var result = new HostResult(
            HostProtocol.Version,
            runtime,
            cases,
            info,
            new CaseStatistics(statistics.Mean, double.IsFinite(error999) ? error999 : 0, statistics.StandardDeviation, statistics.Median, statistics.Min, statistics.Max, statistics.N),
            measurements,
            gc.GetBytesAllocatedPerOperation(benchmarkCase),
            PerThousand(gc.Gen0Collections),
            PerThousand(gc.Gen1Collections),
            PerThousand(gc.Gen2Collections),
            gc.TotalOperations,
            remarks,
            null,
            Jobs.ShapeOf(report));
        return result;
    }

    // An exception here is left for BenchmarkDotNet to meet on its own instance and report in its own words.
    private static void DriveUntilSettled(BenchmarkCase benchmarkCase)
    {
        HostLogger.Emit(new HostEvent("TieringWarmup", null));
        using var jit = new JitEvents();
        var clock = System.Diagnostics.Stopwatch.StartNew();
        try
        {
            _ = TieringDriver.Drive([benchmarkCase], QuickTieringLimit, roundBudget: TieringDriver.QuickRoundBudget, jit: jit);
        }
        catch (Exception ex) when (ex is MissingMethodException or TargetInvocationException or MemberAccessException or ArgumentException)
        {
        }

        // The trace tells a drive that settled from one its time limit ended.
        var ended = clock.Elapsed < QuickTieringLimit ? "TieringSettled " : "TieringTimedOut ";
        JitTrace.Note(ended + jit.TierOf(benchmarkCase.Descriptor.WorkloadMethod.MethodHandle), null);
    }

    private static CaseInfo Describe(BenchmarkCase benchmarkCase, int index) => new(
        index,
        benchmarkCase.Descriptor.Type.FullName ?? benchmarkCase.Descriptor.Type.Name,
        benchmarkCase.Descriptor.WorkloadMethodDisplayInfo,
        benchmarkCase.Parameters.Items.Select(p => new CaseParameter(p.Name, p.ToDisplayText())).ToArray(),
        benchmarkCase.Descriptor.Baseline,
        benchmarkCase.Descriptor.Categories);
}
