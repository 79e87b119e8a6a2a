using PerfLab.Benchmarks;
using PerfLab.Results;

namespace PerfLab.Notebooks.Execution;

/// <summary>
/// What answers the benchmark calls (<c>Lab.RunAsync</c>) of one session's cells: measured, as a reader's run is;
/// recorded for the reference job; or replayed from recorded runs for the course site. It travels with the
/// session as the mode does (<see cref="CellContext.Policy"/>), so two notebooks run in one process each keep
/// their own. A kernel with no session of the course's (.NET Interactive) measures.
/// </summary>
internal sealed record BenchmarkPolicy
{
    /// <summary>Every call measured, the cache used as the cell asks: a reader's run.</summary>
    public static BenchmarkPolicy Measure { get; } = new();

    /// <summary>Answers a call from recorded runs before anything is measured; null: no recorded run of it.</summary>
    public Func<BenchmarkRequest, BenchmarkRun?>? Replay { get; init; }

    /// <summary>
    /// Whether a call <see cref="Replay"/> has no run for is measured (the reference job's --only-missing) or an
    /// error (the course site, which never measures).
    /// </summary>
    public bool MeasureUnanswered { get; init; }

    /// <summary>Receives every run measured, with its request; a policy that records measures fresh, never from the cache.</summary>
    public Action<BenchmarkRequest, BenchmarkRun>? Recorder { get; init; }

    /// <summary>Processes per case and runtime for a call that names none; null: the mode's.</summary>
    public int? DefaultLaunches { get; init; }

    /// <summary>The recorded run answering <paramref name="request"/>, or null when it is to be measured.</summary>
    /// <exception cref="PerfLabException">No recorded run answers it, and this policy measures nothing.</exception>
    public BenchmarkRun? Replayed(BenchmarkRequest request)
    {
        if (Replay is null)
        {
            return null;
        }

        return Replay(request) ?? (MeasureUnanswered
            ? null
            : throw new PerfLabException(
                "No recorded run answers this benchmark call, and this run of the notebook measures nothing.",
                "Run the notebook with `perflab run` to measure it."));
    }
}
