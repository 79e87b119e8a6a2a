using System.Text.Json.Serialization;
using PerfLab.Contract;

namespace PerfLab.Results;

/// <summary>What a ratio's interval is computed from, and so which variation it covers.</summary>
public enum IntervalKind
{
    /// <summary>Each side's launch means (separate processes): covers what changes from one process to the next.</summary>
    Launches,

    /// <summary>Each side's iterations within one process: does not cover what changes from one process to the next
    /// (code layout, tiering and PGO decisions), so it is narrower than the ratio's real uncertainty.</summary>
    Iterations,

    /// <summary>Each side's launch means, launched in the same rounds of turns (<see cref="BenchmarkResult.LaunchRounds"/>):
    /// covers what changes from one process to the next, but not what the machine's state did to a whole round, which
    /// fell on every launch of the round alike and so on neither side of the ratio more than the other.</summary>
    Rounds,
}

/// <summary>
/// A 95% interval for a row's ratio to its baseline row. On the log scale, the difference of the two sides'
/// mean logs has a standard error from one variance pooled over both sides (what varies from one process to the
/// next, code layout and tiering decisions, varies alike on either runtime, and pooling gives the t quantile twice
/// the degrees of freedom of one side), and a Student t quantile sets its width; the interval is that width around
/// the ratio of means the table shows: ratio × exp(±t·se). The values are each side's launch means when both sides
/// have two or more launches, else each side's iterations (one process each: <see cref="IntervalKind.Iterations"/>).
/// Where both sides' launches ran in the same rounds of turns (quick mode's runtimes of a case), the rounds are blocks
/// instead (<see cref="InRounds"/>): what a round's machine state did to all of its launches drops out of the ratio.
/// In quick mode the interval is for the ratio full mode would find, so it also holds what its short launches cannot
/// see (<see cref="QuickAgainstFull"/>). bench/honesty measures how often it holds the full-mode ratio
/// (docs/performance.md).
/// </summary>
/// <param name="Low">Lower end.</param>
/// <param name="High">Upper end.</param>
/// <param name="Kind">What it was computed from.</param>
public sealed record RatioInterval(double Low, double High, IntervalKind Kind)
{
    /// <summary>The share of repeated measurements whose interval would hold the true ratio.</summary>
    public const double Confidence = 0.95;

    /// <summary>
    /// How far quick mode's ratios stray from full mode's beyond what its launches' spread shows, as a standard
    /// deviation on the log scale: a quick launch measures <see cref="QuickJob.IterationCount"/> short iterations after a
    /// short warm-up, full mode's process 15 or more of 250 ms or longer, and the two settle on slightly different
    /// numbers (overhead subtraction, warm-up, timer resolution on sub-nanosecond cases, slow phases of a busy machine that
    /// a 0.25-s launch lands in or misses). The value is the calibration's: how far quick runs stray from a full run of
    /// three processes per case made the same hour (the root mean square of each row's mean log offset), measured by
    /// bench/honesty (docs/performance.md, "Quick intervals widened" and "A short call-counting delay", which say when
    /// and why it moved). It is added in quadrature to a quick ratio's
    /// interval, and is why no quick interval is narrower than <see cref="QuickFloor"/>. More launches cannot narrow it,
    /// so LaunchPlan leaves it out.
    /// </summary>
    internal const double QuickAgainstFull = 0.05;

    /// <summary>The narrowest a quick interval gets, as a share of the ratio: <see cref="QuickAgainstFull"/> alone (launches that agree exactly).</summary>
    internal static double QuickFloor => Math.Exp(NormalQuantile * QuickAgainstFull) - 1;

    // The standard normal's quantile for Confidence (97.5% point): the added spread is known (measured over many
    // ratios), not estimated from this sample, so no t.
    private const double NormalQuantile = 1.959964;

    /// <summary>The interval holds 1: the data cannot tell the two apart.</summary>
    [JsonIgnore] // derived from Low and High
    public bool HoldsOne => Low <= 1 && High >= 1;

    /// <summary>The interval of <paramref name="row"/>'s ratio to <paramref name="baseline"/>, or null: in smoke mode, for the
    /// baseline row itself, when a side has no time or fewer than two values, or a value that is not above zero.</summary>
    /// <param name="row">The row.</param>
    /// <param name="baseline">The row it is compared with.</param>
    /// <param name="mode">The run's mode.</param>
    /// <param name="runRows">Every row of the run the two belong to, for the rows launched in the same rounds as they were
    /// (<see cref="InRounds"/>); null or empty: the two alone (rows of different runs never share rounds).</param>
    public static RatioInterval? Between(BenchmarkResult row, BenchmarkResult baseline, BenchmarkMode mode, IReadOnlyList<BenchmarkResult>? runRows = null)
    {
        ArgumentNullException.ThrowIfNull(row);
        ArgumentNullException.ThrowIfNull(baseline);
        if (mode == BenchmarkMode.Smoke || ReferenceEquals(row, baseline) || row.Statistics is not { } a || baseline.Statistics is not { } b || b.Mean <= 0)
        {
            return null;
        }

        var beyond = mode == BenchmarkMode.Quick ? QuickAgainstFull : 0;
        if (SameRounds(row, baseline))
        {
            // The rows of the run launched in the very same rounds: the row, its baseline, and the other runtimes of the case.
            var block = (runRows ?? []).Where(r => r.Statistics is not null && SameRounds(r, row)).Append(row).Append(baseline).Distinct().ToArray();
            if (InRounds(a.Mean / b.Mean, block.Select(r => r.LaunchMeansNs!).ToArray(), beyond) is { } inRounds)
            {
                return inRounds;
            }
        }

        return FromLaunchesOrIterations(a.Mean / b.Mean, row.LaunchMeansNs, baseline.LaunchMeansNs, row.MeasurementsNs, baseline.MeasurementsNs, beyond);
    }

    /// <summary>
    /// The fewest degrees of freedom an interval in rounds may have (<see cref="InRounds"/>); with fewer, its width
    /// would rest on too few values to be worth the pairing (a ratio of two runtimes over 3 rounds has 2, and its t
    /// quantile of 4.3 is wider than the independent interval's over the same launches).
    /// </summary>
    internal const int FewestRoundDegrees = 3;

    /// <summary>
    /// The interval around <paramref name="ratio"/> of two rows of <paramref name="rows"/> (each row's launch means, one
    /// per round, the rounds in the same order for every row), with the rounds as blocks: the logs' variance left once
    /// each row's level and each round's level are taken out (a two-way layout of rows by rounds, one value a cell),
    /// with (rows - 1) × (rounds - 1) degrees of freedom; the difference of two rows' mean logs has the standard error
    /// √(2·s²/rounds). Null when a row has a value not above zero, the rows' counts differ, or the degrees of freedom
    /// are fewer than <see cref="FewestRoundDegrees"/>.
    /// </summary>
    /// <param name="ratio">The ratio shown (of the means).</param>
    /// <param name="rows">Every row launched in those rounds, each row's launch means in round order (two or more rows).</param>
    /// <param name="beyondSample">As for <see cref="Of"/>.</param>
    internal static RatioInterval? InRounds(double ratio, IReadOnlyList<IReadOnlyList<double>> rows, double beyondSample = 0)
    {
        if (RoundVariance(rows) is not { } variance || !double.IsFinite(ratio))
        {
            return null;
        }

        var sampled = RoundLogWidth(variance.Variance, rows.Count, rows[0].Count);
        var beyond = NormalQuantile * beyondSample;
        var width = Math.Exp(Math.Sqrt((sampled * sampled) + (beyond * beyond)));
        return new RatioInterval(ratio / width, ratio * width, IntervalKind.Rounds);
    }

    /// <summary>
    /// The variance of the logs of <paramref name="rows"/> (rows by rounds) left once each row's and each round's level
    /// are taken out, and its degrees of freedom; null when the counts differ, a value is not above zero or finite, or
    /// the degrees of freedom are fewer than <see cref="FewestRoundDegrees"/>. LaunchPlan asks it of a case's runtimes.
    /// </summary>
    /// <param name="rows">Each row's values, one per round, in round order.</param>
    internal static (double Variance, int Degrees)? RoundVariance(IReadOnlyList<IReadOnlyList<double>> rows)
    {
        ArgumentNullException.ThrowIfNull(rows);
        if (rows.Count < 2 || rows.Any(r => r.Count != rows[0].Count) || rows.SelectMany(r => r).Any(v => !(v > 0) || !double.IsFinite(v)))
        {
            return null;
        }

        var (count, rounds) = (rows.Count, rows[0].Count);
        var degrees = (count - 1) * (rounds - 1);
        if (degrees < FewestRoundDegrees)
        {
            return null;
        }

        var logs = rows.Select(r => r.Select(v => Math.Log(v)).ToArray()).ToArray();
        var grand = logs.SelectMany(l => l).Average();
        var rowLevels = logs.Select(l => l.Average()).ToArray();
        var roundLevels = Enumerable.Range(0, rounds).Select(j => logs.Average(l => l[j])).ToArray();
        var squares = 0.0;
        for (var i = 0; i < count; i++)
        {
            for (var j = 0; j < rounds; j++)
            {
                var residual = logs[i][j] - rowLevels[i] - roundLevels[j] + grand;
                squares += residual * residual;
            }
        }

        return (squares / degrees, degrees);
    }

    /// <summary>Half the width on the log scale of an interval in rounds from the samples alone: the t quantile at
    /// (rows - 1) × (rounds - 1) degrees of freedom times √(2·variance/rounds). LaunchPlan asks it for rounds it has not run yet.</summary>
    internal static double RoundLogWidth(double variance, int rows, int rounds)
    {
        var standardError = Math.Sqrt(2 * variance / rounds);
        return standardError == 0 ? 0 : StudentT.Quantile(1 - ((1 - Confidence) / 2), (rows - 1) * (rounds - 1)) * standardError;
    }

    // Both rows' launches ran in the same rounds of turns, in the same order.
    private static bool SameRounds(BenchmarkResult row, BenchmarkResult other) =>
        row.LaunchRounds is { Count: >= 2 } rounds && other.LaunchRounds is { } others && rounds.SequenceEqual(others)
        && row.LaunchMeansNs?.Count == rounds.Count && other.LaunchMeansNs?.Count == rounds.Count;

    /// <summary>The interval from each side's launch means when both have two or more, else from each side's iterations.</summary>
    internal static RatioInterval? FromLaunchesOrIterations(
        double ratio, IReadOnlyList<double>? launchMeans, IReadOnlyList<double>? baselineLaunchMeans, IReadOnlyList<double> iterations, IReadOnlyList<double> baselineIterations, double beyondSample = 0) =>
        launchMeans is { Count: >= 2 } && baselineLaunchMeans is { Count: >= 2 }
            ? Of(ratio, launchMeans, baselineLaunchMeans, IntervalKind.Launches, beyondSample)
            : Of(ratio, iterations, baselineIterations, IntervalKind.Iterations, beyondSample);

    /// <summary>
    /// How far quick mode's fastest ratio strays from full mode's beyond what the spread of its launches' fastest
    /// iterations shows, as a standard deviation on the log scale (like <see cref="QuickAgainstFull"/>): chosen from one
    /// calibration against full mode in 3 processes per case and checked on another (docs/performance.md, "The
    /// fastest iterations' ratio").
    /// </summary>
    internal const double QuickFastestAgainstFull = 0.04;

    /// <summary>The narrowest a quick interval of a fastest ratio gets, as a share of the ratio.</summary>
    internal static double QuickFastestFloor => Math.Exp(NormalQuantile * QuickFastestAgainstFull) - 1;

    /// <summary>
    /// The ratio of <paramref name="row"/>'s fastest iterations to <paramref name="baseline"/>'s, with its 95% interval
    /// where both have two or more launches (1 and no interval for the baseline row itself); null in smoke mode and when a side has no
    /// time or a fastest iteration not above zero. Each launch's fastest iteration, of those the faster half of the
    /// launches (at least two), their geometric mean: a busy machine's slow phases last seconds and lengthen whole
    /// launches, so the slower launches say more about the machine than about the code. The interval is
    /// <see cref="Of"/> on those values, which understates the spread of a sample cut to its faster half; quick mode's
    /// widening (<see cref="QuickFastestAgainstFull"/>) was measured with that cut, so the two go together. Results
    /// without each launch's fastest iteration (written before they were kept) give each side's fastest iteration
    /// overall and no interval.
    /// </summary>
    /// <param name="row">The row.</param>
    /// <param name="baseline">The row it is compared with.</param>
    /// <param name="mode">The run's mode.</param>
    public static (double Ratio, RatioInterval? Interval)? Fastest(BenchmarkResult row, BenchmarkResult baseline, BenchmarkMode mode)
    {
        ArgumentNullException.ThrowIfNull(row);
        ArgumentNullException.ThrowIfNull(baseline);
        if (mode == BenchmarkMode.Smoke || row.Statistics is not { } a || baseline.Statistics is not { } b)
        {
            return null;
        }

        if (ReferenceEquals(row, baseline))
        {
            return (1, null);
        }

        var (fast, baselineFast) = (FasterHalf(row.LaunchMinsNs ?? [a.Min]), FasterHalf(baseline.LaunchMinsNs ?? [b.Min]));
        if (fast.Concat(baselineFast).Any(v => !(v > 0) || !double.IsFinite(v)))
        {
            return null;
        }

        var ratio = Math.Exp(fast.Average(Math.Log) - baselineFast.Average(Math.Log));
        return (ratio, Of(ratio, fast, baselineFast, IntervalKind.Launches, mode == BenchmarkMode.Quick ? QuickFastestAgainstFull : 0));
    }

    // The smaller half of a side's launch minimums, at least two (all of one or two).
    private static double[] FasterHalf(IReadOnlyList<double> launchMins) =>
        [.. launchMins.Order().Take(Math.Max(2, (launchMins.Count + 1) / 2))];

    /// <summary>
    /// Half the interval's width on the log scale from the samples alone: the t quantile (both sides' degrees of
    /// freedom) times the standard error of the difference of mean logs, for a pooled variance of the logs and each
    /// side's count. LaunchPlan asks it for counts it has not run yet.
    /// </summary>
    internal static double SampledLogWidth(double pooledVariance, int count, int baselineCount)
    {
        var standardError = Math.Sqrt(pooledVariance * ((1.0 / count) + (1.0 / baselineCount)));
        return standardError == 0 ? 0 : StudentT.Quantile(1 - ((1 - Confidence) / 2), count + baselineCount - 2) * standardError;
    }

    /// <summary>The interval around <paramref name="ratio"/> from two samples, or null when a side has fewer than two values or one not above zero.</summary>
    /// <param name="ratio">The ratio shown (of the means).</param>
    /// <param name="values">The row's values.</param>
    /// <param name="baselineValues">The baseline's values.</param>
    /// <param name="kind">What the values are.</param>
    /// <param name="beyondSample">A log-scale standard deviation the samples cannot show, added in quadrature (<see cref="QuickAgainstFull"/>); 0 for none.</param>
    internal static RatioInterval? Of(double ratio, IReadOnlyList<double> values, IReadOnlyList<double> baselineValues, IntervalKind kind, double beyondSample = 0)
    {
        if (values.Count < 2 || baselineValues.Count < 2 || values.Concat(baselineValues).Any(v => !(v > 0) || !double.IsFinite(v)) || !double.IsFinite(ratio))
        {
            return null;
        }

        // Each side's sum of squared deviations of its logs from their mean.
        static double SquaredDeviations(IReadOnlyList<double> sample)
        {
            var logs = sample.Select(v => Math.Log(v)).ToArray();
            var mean = logs.Average();
            return logs.Sum(l => (l - mean) * (l - mean));
        }

        var pooledVariance = (SquaredDeviations(values) + SquaredDeviations(baselineValues)) / (values.Count + baselineValues.Count - 2);
        var sampled = SampledLogWidth(pooledVariance, values.Count, baselineValues.Count);
        var beyond = NormalQuantile * beyondSample;
        var width = Math.Exp(Math.Sqrt((sampled * sampled) + (beyond * beyond)));
        return new RatioInterval(ratio / width, ratio * width, kind);
    }
}
