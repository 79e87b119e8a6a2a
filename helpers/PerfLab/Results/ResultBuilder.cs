using System.Globalization;
using PerfLab.Contract;

namespace PerfLab.Results;

/// <summary>One case on one runtime: the result of each launch (its own host process), in launch order.</summary>
/// <param name="Launches">At least one; a failed launch fails the case, so the launches after it do not run.</param>
public sealed record CaseLaunches(IReadOnlyList<HostResult> Launches)
{
    /// <summary>The case, as the host named it; null when the host ran none.</summary>
    [System.Text.Json.Serialization.JsonIgnore] // derived from Launches
    public CaseInfo? Case => Launches[0].Case;
}

/// <summary>What one runtime produced: the runtime the host reported and every case's launches.</summary>
/// <param name="Moniker">The runtime asked for.</param>
/// <param name="Source">installed or provisioned; missing for a cached part whose runtime is not on this machine.</param>
/// <param name="Runtime">The runtime the host reported.</param>
/// <param name="Cases">One entry per case, with its launches.</param>
/// <param name="Cached">True when taken from the cache.</param>
public sealed record RuntimeOutcome(string Moniker, string Source, HostRuntime Runtime, IReadOnlyList<CaseLaunches> Cases, bool Cached);

/// <summary>Turns host results into rows: launches combined, ratios against the baseline with their intervals, and warnings a reader should see.</summary>
internal static class ResultBuilder
{
    /// <summary>Error above this share of the mean marks a result as noisy.</summary>
    public const double NoisyRelativeError = 0.10;

    /// <summary>
    /// A mean below this (ns) is a few clock cycles at most: the JIT most likely removed the work, and the row warns so. Quick
    /// mode runs such a case in one round of launches (LaunchPlan).
    /// </summary>
    public const double NothingMeasuredBelowNs = 1;

    /// <summary>Builds the run.</summary>
    /// <param name="source">Path of the benchmark source.</param>
    /// <param name="mode">The mode.</param>
    /// <param name="startedAt">When the run started.</param>
    /// <param name="environment">Variables set on the benchmark processes.</param>
    /// <param name="filter">Glob filters.</param>
    /// <param name="outcomes">Per runtime, in the order asked for.</param>
    /// <param name="timing">Where the wall time went.</param>
    public static BenchmarkRun Build(
        string source,
        BenchmarkMode mode,
        DateTimeOffset startedAt,
        IReadOnlyDictionary<string, string> environment,
        IReadOnlyList<string> filter,
        IReadOnlyList<RuntimeOutcome> outcomes,
        RunTiming timing)
    {
        ArgumentNullException.ThrowIfNull(outcomes);
        var rows = outcomes.SelectMany(o => o.Cases.Where(c => c.Case is not null).Select(c => Row(o, c, mode))).ToList();
        var baseline = rows.Any(r => r.IsBaseline) ? "method" : outcomes.Count > 0 ? "runtime:" + outcomes[0].Moniker : "none";
        var baselineOf = Baselines(rows, baseline);
        var measuredRows = rows.ToArray();
        rows = rows.Select(r => WithRatios(r, baselineOf(r), mode, measuredRows)).ToList();

        var warnings = new List<string>();
        if (mode == BenchmarkMode.Smoke)
        {
            warnings.Add($"{ModeChoice.Heading(BenchmarkMode.Smoke)}: one cold invocation per case. The numbers only prove that it runs; use {ModeChoice.OptionOrigin} {ModeChoice.Name(BenchmarkMode.Quick)} or {ModeChoice.Name(BenchmarkMode.Full)} to measure.");
        }

        var first = outcomes.FirstOrDefault()?.Runtime;
        return new BenchmarkRun(
            BenchmarkRun.CurrentSchemaVersion,
            source,
            mode,
            startedAt,
            outcomes.Select(o => new RunRuntime(o.Moniker, o.Runtime.Version, o.Runtime.FrameworkDescription, o.Source, o.Cached)).ToArray(),
            environment,
            filter,
            baseline,
            new RunMachine(first?.Os ?? System.Runtime.InteropServices.RuntimeInformation.OSDescription, first?.Architecture ?? System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture.ToString(), first?.ProcessorCount ?? Environment.ProcessorCount, Environment.MachineName, MachineDescription.ThisProcessor),
            rows,
            warnings,
            timing);
    }

    private static BenchmarkResult Row(RuntimeOutcome outcome, CaseLaunches launches, BenchmarkMode mode)
    {
        var info = launches.Case!;
        var failedAt = launches.Launches.ToList().FindIndex(l => l.Error is not null);
        var measured = failedAt < 0 ? launches.Launches.Where(l => l.Statistics is not null).ToArray() : [];
        var stats = Combined(measured);
        var warnings = launches.Launches.SelectMany(l => l.Warnings).Distinct().ToList();
        if (stats is not null && mode != BenchmarkMode.Smoke)
        {
            if (stats.Mean < NothingMeasuredBelowNs)
            {
                warnings.Add($"Sub-nanosecond mean ({QuantityText.Time(stats.Mean)}): faster than one clock cycle, so the JIT probably removed the work. Return the result or consume it.");
            }

            if (stats.Mean > 0 && stats.N > 1 && stats.Error / stats.Mean > NoisyRelativeError)
            {
                warnings.Add(string.Create(CultureInfo.InvariantCulture, $"Noisy: the error is {stats.Error / stats.Mean:0%} of the mean. Close other programs, or use --mode full."));
            }
        }

        var allocated = FewestBytes(measured);
        return new BenchmarkResult(
            info.TypeName,
            info.MethodName,
            info.Parameters,
            info.IsBaseline,
            outcome.Moniker,
            outcome.Runtime.Version,
            stats,
            measured.SelectMany(l => l.MeasurementsNs ?? []).ToArray(),
            stats is null ? null : measured.Select(l => l.Statistics!.Mean).ToArray(),
            stats is null ? null : measured.Select(l => l.Statistics!.Min).ToArray(),
            allocated is { } bytes ? (long)Math.Round(bytes) : null,
            PerOperation(measured, l => l.Gen0PerThousandOps),
            PerOperation(measured, l => l.Gen1PerThousandOps),
            PerOperation(measured, l => l.Gen2PerThousandOps),
            Ratio: null,
            RatioInterval: null,
            FastestRatio: null,
            FastestRatioInterval: null,
            AllocRatio: null,
            outcome.Cached,
            warnings,
            failedAt < 0 ? null : FailedLaunch(launches.Launches[failedAt].Error!, failedAt),
            PublishedFigures.Find(info.Categories, info.MethodName, info.Parameters, info.IsBaseline),
            stats is not null && measured.All(l => l.Round is not null) ? measured.Select(l => l.Round!.Value).ToArray() : null);
    }

    // The failed launch's own reason; after launches that measured, also which launch it was (a flaky failure reads differently).
    private static string FailedLaunch(string error, int index) =>
        index == 0 ? error : $"{error}\n(in launch {index + 1}; the launches before it measured)";

    /// <summary>
    /// The statistics of every launch's iterations taken together (mean, median, min, max, n, standard deviation, and
    /// BenchmarkDotNet's Error: half the 99.9% confidence interval of the mean, t quantile at n - 1 degrees of freedom,
    /// treating the iterations as one sample as BenchmarkDotNet does); one launch's are its own, as BenchmarkDotNet gave them.
    /// </summary>
    /// <param name="launches">The launches that measured.</param>
    internal static CaseStatistics? Combined(IReadOnlyList<HostResult> launches)
    {
        if (launches.Count <= 1)
        {
            return launches.FirstOrDefault()?.Statistics;
        }

        var all = launches.SelectMany(l => l.MeasurementsNs ?? []).Order().ToArray();
        if (all.Length == 0)
        {
            return null;
        }

        var mean = all.Average();
        var n = all.Length;
        var stdDev = n > 1 ? Math.Sqrt(all.Sum(v => (v - mean) * (v - mean)) / (n - 1)) : 0;
        var error = n > 1 ? StudentT.Quantile(0.9995, n - 1) * stdDev / Math.Sqrt(n) : 0;
        var median = n % 2 == 1 ? all[n / 2] : (all[(n / 2) - 1] + all[n / 2]) / 2;
        return new CaseStatistics(mean, error, stdDev, median, all[0], all[^1], n);
    }

    // Bytes and collections per operation over all launches: each launch weighted by the operations it ran, as one
    // longer process would count them (a launch without the figure is left out).
    // BenchmarkDotNet counts the bytes the whole process allocated while it ran the benchmark, so another thread's
    // allocation (the runtime's, under load) lands in a launch's count and never leaves one out: the benchmark's own
    // bytes per call are the fewest any launch counted. (A stray 4 KB over 256 calls reads as 18 B a call.)
    private static double? FewestBytes(IReadOnlyList<HostResult> launches) =>
        launches.Select(l => l.AllocatedBytesPerOperation).Min();

    private static double? PerOperation(IReadOnlyList<HostResult> launches, Func<HostResult, double?> value)
    {
        var known = launches.Where(l => value(l) is not null).ToArray();
        if (known.Length <= 1)
        {
            return known.Length == 0 ? null : value(known[0]);
        }

        var weights = known.Select(l => (double)Math.Max(l.TotalOperations ?? 1, 1)).ToArray();
        return known.Select((l, i) => value(l)!.Value * weights[i]).Sum() / weights.Sum();
    }

    /// <summary>
    /// <paramref name="run"/> with the ratio intervals and fastest ratios its file could not carry: results written
    /// before they existed (schema 1 without <c>ratioInterval</c> or <c>fastestRatio</c>, such as the reference file)
    /// get them from what they kept.
    /// </summary>
    /// <param name="run">A run read back from JSON.</param>
    internal static BenchmarkRun WithMissingIntervals(BenchmarkRun run)
    {
        var baselineOf = Baselines(run.Results, run.Baseline);
        return run with
        {
            Results = run.Results
                .Select(r => r.Ratio is not null && baselineOf(r) is { } b ? WithMissing(r, b, run.Mode, run.Results) : r)
                .ToArray(),
        };
    }

    private static BenchmarkResult WithMissing(BenchmarkResult row, BenchmarkResult baseline, BenchmarkMode mode, IReadOnlyList<BenchmarkResult> runRows)
    {
        var fastest = row.FastestRatio is { } kept ? (kept, row.FastestRatioInterval) : RatioInterval.Fastest(row, baseline, mode);
        return row with
        {
            RatioInterval = row.RatioInterval ?? RatioInterval.Between(row, baseline, mode, runRows),
            FastestRatio = fastest?.Ratio,
            FastestRatioInterval = fastest?.Interval,
        };
    }

    // Each row's baseline row. "method": the [Benchmark(Baseline = true)] method on the same runtime and parameters;
    // "runtime:<moniker>": the same case on that runtime (the first listed).
    private static Func<BenchmarkResult, BenchmarkResult?> Baselines(IReadOnlyList<BenchmarkResult> rows, string baseline)
    {
        if (baseline == "method")
        {
            static string Group(BenchmarkResult r) => $"{r.Runtime}|{r.Type}|{string.Join(",", r.Parameters.Select(p => $"{p.Name}={p.Value}"))}";
            var methods = rows.Where(r => r.IsBaseline).GroupBy(Group).ToDictionary(g => g.Key, g => g.First());
            return r => methods.GetValueOrDefault(Group(r));
        }

        var runtime = baseline.StartsWith("runtime:", StringComparison.Ordinal) ? baseline["runtime:".Length..] : null;
        var cases = rows.Where(r => r.Runtime == runtime).GroupBy(r => r.CaseKey).ToDictionary(g => g.Key, g => g.First());
        return r => cases.GetValueOrDefault(r.CaseKey);
    }

    private static BenchmarkResult WithRatios(BenchmarkResult row, BenchmarkResult? baseline, BenchmarkMode mode, IReadOnlyList<BenchmarkResult> runRows)
    {
        if (baseline is null)
        {
            return row;
        }

        var fastest = RatioInterval.Fastest(row, baseline, mode);
        return row with
        {
            Ratio = Ratio(row.Statistics?.Mean, baseline.Statistics?.Mean),
            RatioInterval = RatioInterval.Between(row, baseline, mode, runRows),
            FastestRatio = fastest?.Ratio,
            FastestRatioInterval = fastest?.Interval,
            AllocRatio = Ratio(row.AllocatedBytes, baseline.AllocatedBytes),
        };
    }

    /// <summary>value / baseline, or null when either is missing or the baseline is zero.</summary>
    /// <param name="value">The row's value.</param>
    /// <param name="baseline">The baseline's value.</param>
    public static double? Ratio(double? value, double? baseline) =>
        value is { } v && baseline is { } b && b > 0 ? v / b : null;
}
