using PerfLab.Benchmarks;
using PerfLab.Results;

namespace PerfLab.Room;

/// <summary>
/// Hears of each run <see cref="BenchmarkEngine"/> finishes, before the engine returns it: the engine's one hook, through
/// which a finished run leaves it for a workshop room (<see cref="RoomLaptop"/>). It lives here, beside its one
/// implementation, so the Benchmarks folder holds only the call. It must not throw: a run that finished is the
/// reader's whatever happens to it afterwards.
/// </summary>
internal interface IFinishedRunObserver
{
    /// <summary>Takes a finished run.</summary>
    /// <param name="run">The run, with its content key (<see cref="BenchmarkRun.Code"/>).</param>
    /// <param name="say">A line for the reader, shown with the run's progress.</param>
    /// <param name="cancellationToken">The run's token.</param>
    Task RunFinishedAsync(BenchmarkRun run, Action<string> say, CancellationToken cancellationToken);
}
