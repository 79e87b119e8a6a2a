using PerfLab.Results;

namespace PerfLab.Benchmarks;

/// <summary>
/// Hears of each run <see cref="BenchmarkEngine"/> finishes, before the engine returns it: the one hook through which a
/// finished run leaves the engine for elsewhere (a workshop room, PerfLab.Room's <c>RoomLaptop</c>). It must not throw:
/// a run that finished is the reader's whatever happens to it afterwards.
/// </summary>
internal interface IFinishedRunObserver
{
    /// <summary>Takes a finished run.</summary>
    /// <param name="run">The run, with its content key (<see cref="BenchmarkRun.Code"/>).</param>
    /// <param name="say">A line for the reader, shown with the run's progress.</param>
    /// <param name="cancellationToken">The run's token.</param>
    Task RunFinishedAsync(BenchmarkRun run, Action<string> say, CancellationToken cancellationToken);
}
