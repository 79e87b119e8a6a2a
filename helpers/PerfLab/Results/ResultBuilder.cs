using System.Globalization;
using PerfLab.Contract;

namespace PerfLab.Results;

/// <summary>What one runtime produced: the runtime the host reported and one host result per case.</summary>
/// <param name="Moniker">The runtime asked for.</param>
/// <param name="Source">installed or provisioned; missing for a cached part whose runtime is not on this machine.</param>
/// <param name="Runtime">The runtime the host reported.</param>
/// <param name="Cases">One host result per case.</param>
/// <param name="Cached">True when taken from the cache.</param>
public sealed record RuntimeOutcome(string Moniker, string Source, HostRuntime Runtime, IReadOnlyList<HostResult> Cases, bool Cached);

/// <summary>Turns host results into rows: ratios against the baseline, and warnings a reader should see.</summary>
public static class ResultBuilder
{
    /// <summary>Error above this share of the mean marks a result as noisy.</summary>
    public const double NoisyRelativeError = 0.10;

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
        var byMethod = rows.Any(r => r.IsBaseline);
        var baseline = byMethod ? "method" : outcomes.Count > 0 ? "runtime:" + outcomes[0].Moniker : "none";
        rows = byMethod ? WithMethodRatios(rows) : WithRuntimeRatios(rows, outcomes.Select(o => o.Moniker).ToArray());

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
            new RunMachine(first?.Os ?? System.Runtime.InteropServices.RuntimeInformation.OSDescription, first?.Architecture ?? System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture.ToString(), first?.ProcessorCount ?? Environment.ProcessorCount, Environment.MachineName),
            rows,
            warnings,
            timing);
    }

    private static BenchmarkResult Row(RuntimeOutcome outcome, HostResult result, BenchmarkMode mode)
    {
        var info = result.Case!;
        var warnings = new List<string>(result.Warnings);
        var stats = result.Statistics;
        if (stats is not null && mode != BenchmarkMode.Smoke)
        {
            if (stats.Mean < 1)
            {
                warnings.Add($"Sub-nanosecond mean ({QuantityText.Time(stats.Mean)}): faster than one clock cycle, so the JIT probably removed the work. Return the result or consume it.");
            }

            if (stats.Mean > 0 && stats.N > 1 && stats.Error / stats.Mean > NoisyRelativeError)
            {
                warnings.Add(string.Create(CultureInfo.InvariantCulture, $"Noisy: the error is {stats.Error / stats.Mean:0%} of the mean. Close other programs, or use --mode full."));
            }
        }

        return new BenchmarkResult(
            info.TypeName,
            info.MethodName,
            info.Parameters,
            info.IsBaseline,
            outcome.Moniker,
            outcome.Runtime.Version,
            stats,
            result.MeasurementsNs ?? [],
            result.AllocatedBytesPerOperation,
            result.Gen0PerThousandOps,
            result.Gen1PerThousandOps,
            result.Gen2PerThousandOps,
            Ratio: null,
            AllocRatio: null,
            outcome.Cached,
            warnings,
            result.Error,
            PublishedFigures.Find(info.Categories, info.MethodName, info.Parameters, info.IsBaseline));
    }

    // Without a baseline method, each case compares with itself on the first runtime listed.
    private static List<BenchmarkResult> WithRuntimeRatios(List<BenchmarkResult> rows, IReadOnlyList<string> runtimeOrder)
    {
        var baselines = rows
            .Where(r => runtimeOrder.Count > 0 && r.Runtime == runtimeOrder[0])
            .GroupBy(r => r.CaseKey)
            .ToDictionary(g => g.Key, g => g.First());
        return rows.Select(r => WithRatios(r, baselines.GetValueOrDefault(r.CaseKey))).ToList();
    }

    // With a [Benchmark(Baseline = true)] method, rows compare with it on the same runtime and parameters.
    private static List<BenchmarkResult> WithMethodRatios(List<BenchmarkResult> rows)
    {
        static string Group(BenchmarkResult r) => $"{r.Runtime}|{r.Type}|{string.Join(",", r.Parameters.Select(p => $"{p.Name}={p.Value}"))}";
        var baselines = rows.Where(r => r.IsBaseline).GroupBy(Group).ToDictionary(g => g.Key, g => g.First());
        return rows.Select(r => WithRatios(r, baselines.GetValueOrDefault(Group(r)))).ToList();
    }

    private static BenchmarkResult WithRatios(BenchmarkResult row, BenchmarkResult? baseline)
    {
        if (baseline is null)
        {
            return row;
        }

        return row with
        {
            Ratio = Ratio(row.Statistics?.Mean, baseline.Statistics?.Mean),
            AllocRatio = Ratio(row.AllocatedBytes, baseline.AllocatedBytes),
        };
    }

    /// <summary>value / baseline, or null when either is missing or the baseline is zero.</summary>
    /// <param name="value">The row's value.</param>
    /// <param name="baseline">The baseline's value.</param>
    public static double? Ratio(double? value, double? baseline) =>
        value is { } v && baseline is { } b && b > 0 ? v / b : null;
}
