using PerfLab.Contract;
using PerfLab.Results;

namespace PerfLab.Benchmarks;

/// <summary>
/// How many launches a case gets. A request that names its launches gets exactly those; quick mode's own plan is
/// <see cref="QuickJob.Launches"/> (<see cref="QuickJob.FewestLaunches"/> where three or more rows took turns, a case's
/// runtimes or a baseline method's class's methods on its runtimes (<see cref="SharedRounds"/>), and their interval in rounds
/// is already within the target by then), then one more round on every runtime while a runtime's launch means are spread too
/// far for a ratio interval of ±<see cref="QuickJob.TargetHalfWidth"/> and, spread as they are, would be close enough
/// by <see cref="QuickJob.MaxLaunches"/>. A fixed number wide enough for the noisiest cases would cost every case that;
/// most settle at the first four, and launches that could not reach the target (whole processes apart by a fifth or
/// more, as two clusters of launch means are on the course machine) only cost time: their interval stays as wide as
/// their spread, which is what the table shows. A case whose runtimes take turns is judged as its table will be, with
/// the rounds as blocks (<see cref="RatioInterval.InRounds"/>): a round the machine slowed as a whole asks for no more.
/// A case whose first round measured under a nanosecond on every runtime (<see cref="ResultBuilder.NothingMeasuredBelowNs"/>)
/// stops there: its work was removed, as its row's warning says, and more launches would only narrow ratios between
/// measurements of nothing. Such a case is also the costliest to launch: its overhead stages run as long as its workload.
/// </summary>
internal static class LaunchPlan
{
    /// <summary>Whether the case whose launches are <paramref name="launchMeans"/> (each runtime's launch means so far, in ns) gets another round.</summary>
    /// <param name="request">The run's request.</param>
    /// <param name="done">Rounds run so far.</param>
    /// <param name="launchMeans">Each runtime's launch means of the case; a runtime whose launch failed is left out by the caller.</param>
    /// <param name="inRounds">The runtimes' launches took turns, round by round: each runtime's n-th launch mean is of the n-th round.</param>
    public static bool WantsAnother(BenchmarkRequest request, int done, IReadOnlyList<IReadOnlyList<double>> launchMeans, bool inRounds = false)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(launchMeans);
        var ownPlan = request is { Mode: BenchmarkMode.Quick, Launches: null };
        if (MeasuredNothing(request, done, launchMeans))
        {
            return false;
        }

        var rounds = inRounds ? RatioInterval.RoundVariance(launchMeans) : null;
        if (done < request.EffectiveLaunches)
        {
            // Quick mode's runtimes in turns, already within the target after its fewest rounds: another round would narrow nothing needed.
            return !(ownPlan && done >= QuickJob.FewestLaunches && rounds is { } early
                && Share(RatioInterval.RoundLogWidth(early.Variance, launchMeans.Count, done)) <= QuickJob.TargetHalfWidth);
        }

        if (!ownPlan || done >= QuickJob.MaxLaunches)
        {
            return false;
        }

        if (rounds is { } blocks)
        {
            return Share(RatioInterval.RoundLogWidth(blocks.Variance, launchMeans.Count, done)) > QuickJob.TargetHalfWidth
                && Share(RatioInterval.RoundLogWidth(blocks.Variance, launchMeans.Count, QuickJob.MaxLaunches)) <= QuickJob.TargetHalfWidth;
        }

        return launchMeans.Any(means => HalfWidth(means) > QuickJob.TargetHalfWidth && HalfWidthAt(means, QuickJob.MaxLaunches) <= QuickJob.TargetHalfWidth);
    }

    /// <summary>
    /// Whether quick mode's own plan is done with a case whose rounds so far measured under a nanosecond on every runtime
    /// (<see cref="ResultBuilder.NothingMeasuredBelowNs"/>): its work was removed. A method of a class in shared rounds
    /// (<see cref="SharedRounds"/>) is judged alone, so it leaves the rounds its class's other methods go on with.
    /// </summary>
    /// <param name="request">The run's request.</param>
    /// <param name="done">Rounds run so far.</param>
    /// <param name="launchMeans">The case's launch means on each runtime, in ns.</param>
    public static bool MeasuredNothing(BenchmarkRequest request, int done, IReadOnlyList<IReadOnlyList<double>> launchMeans)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(launchMeans);
        return request is { Mode: BenchmarkMode.Quick, Launches: null } && done >= 1 && launchMeans.Count > 0
            && launchMeans.All(means => means.Count > 0 && means.All(mean => mean < ResultBuilder.NothingMeasuredBelowNs));
    }

    // A half-width on the log scale as a share of the ratio: half the distance between its ends, for a ratio of 1.
    private static double Share(double logWidth)
    {
        var width = Math.Exp(logWidth);
        return (width - (1 / width)) / 2;
    }

    /// <summary>
    /// The half-width, as a share of the ratio, of the 95% interval of a ratio between two cases whose launch means
    /// spread as <paramref name="launchMeans"/> do (the table's interval, <see cref="RatioInterval"/>, with this sample on
    /// both sides, without quick mode's widening, which no number of launches narrows); 0 for fewer than two means or
    /// one that is not above zero (nothing more launches could fix).
    /// </summary>
    /// <param name="launchMeans">One runtime's launch means of a case.</param>
    public static double HalfWidth(IReadOnlyList<double> launchMeans)
    {
        ArgumentNullException.ThrowIfNull(launchMeans);
        return HalfWidthAt(launchMeans, launchMeans.Count);
    }

    /// <summary>
    /// <see cref="HalfWidth"/> as it would be after <paramref name="launches"/> launches a side whose means spread as
    /// <paramref name="launchMeans"/> do: the same variance of the logs, with that many values on each side.
    /// </summary>
    /// <param name="launchMeans">One runtime's launch means of a case.</param>
    /// <param name="launches">Launches a side.</param>
    public static double HalfWidthAt(IReadOnlyList<double> launchMeans, int launches)
    {
        ArgumentNullException.ThrowIfNull(launchMeans);
        if (launchMeans.Count < 2 || launches < 2 || launchMeans.Any(v => !(v > 0) || !double.IsFinite(v)))
        {
            return 0;
        }

        // Pooled over two sides spread alike, the variance is the sample's.
        var logs = launchMeans.Select(v => Math.Log(v)).ToArray();
        var mean = logs.Average();
        var variance = logs.Sum(l => (l - mean) * (l - mean)) / (logs.Length - 1);
        return Share(RatioInterval.SampledLogWidth(variance, launches, launches));
    }

    /// <summary>
    /// The time a run has left, estimated from the launches already run: their mean seconds times the launches still
    /// planned; null before any launch has run (nothing to estimate from).
    /// </summary>
    /// <param name="secondsSoFar">Seconds the launches run so far took, together.</param>
    /// <param name="launchesRun">How many launches that was.</param>
    /// <param name="launchesLeft">Launches still planned, the next one included.</param>
    public static TimeSpan? TimeLeft(double secondsSoFar, int launchesRun, int launchesLeft) =>
        launchesRun > 0 ? TimeSpan.FromSeconds(secondsSoFar / launchesRun * launchesLeft) : null;
}
