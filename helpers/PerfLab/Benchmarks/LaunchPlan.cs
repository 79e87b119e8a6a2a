using PerfLab.Contract;
using PerfLab.Results;

namespace PerfLab.Benchmarks;

/// <summary>
/// How many launches a case gets. A request that names its launches gets exactly those; quick mode's own plan is
/// <see cref="QuickJob.Launches"/>, then one more round on every runtime while a runtime's launch means are spread too
/// far for a ratio interval of ±<see cref="QuickJob.TargetHalfWidth"/>, up to <see cref="QuickJob.MaxLaunches"/>. A
/// fixed number wide enough for the noisiest cases would cost every case that; most settle at the first four.
/// </summary>
internal static class LaunchPlan
{
    /// <summary>Whether the case whose launches are <paramref name="launchMeans"/> (each runtime's launch means so far, in ns) gets another round.</summary>
    /// <param name="request">The run's request.</param>
    /// <param name="done">Rounds run so far.</param>
    /// <param name="launchMeans">Each runtime's launch means of the case; a runtime whose launch failed is left out by the caller.</param>
    public static bool WantsAnother(BenchmarkRequest request, int done, IEnumerable<IReadOnlyList<double>> launchMeans)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(launchMeans);
        if (done < request.EffectiveLaunches)
        {
            return true;
        }

        return request is { Mode: BenchmarkMode.Quick, Launches: null }
            && done < QuickJob.MaxLaunches
            && launchMeans.Any(means => HalfWidth(means) > QuickJob.TargetHalfWidth);
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
        return RatioInterval.Of(1, launchMeans, launchMeans, IntervalKind.Launches) is { } interval ? (interval.High - interval.Low) / 2 : 0;
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
