using PerfLab.Contract;

namespace PerfLab.Benchmarks;

/// <summary>Where a host taking turns stopped last (<see cref="TurnSeat.Stage"/>), in the order a host passes them.</summary>
internal enum TurnStage
{
    /// <summary>Started, not stopped yet.</summary>
    Starting,

    /// <summary>Stopped ready: started and driven, before BenchmarkDotNet's stages (<see cref="HostProtocol.ReadyTurnLine"/>).</summary>
    Ready,

    /// <summary>Stopped after an iteration of BenchmarkDotNet's jitting and overhead stages.</summary>
    Preparing,

    /// <summary>Stopped after a workload iteration (<see cref="HostProtocol.WorkloadTurnLine"/> first).</summary>
    Workload,

    /// <summary>Stopped once done measuring, before its summary and exit (<see cref="HostProtocol.MeasuredTurnLine"/>).</summary>
    Measured,
}

/// <summary>
/// One launch's place in a round of launches that take turns (<see cref="LaunchTurns"/>): it holds the host's standard
/// input and hears the host say it has stopped, and where (<see cref="HostProtocol.IsTurnLine"/>).
/// </summary>
internal sealed class TurnSeat(int of, long round)
{
    private readonly SemaphoreSlim _stopped = new(0);
    private StreamWriter? _input;

    /// <summary>How many launches take turns in the round: each one's process lives about that many times as long.</summary>
    public int Of { get; } = of;

    /// <summary>The round, as the time it started (Unix ms): what its launches' results carry (<see cref="HostResult.Round"/>).</summary>
    public long Round { get; } = round;

    /// <summary>Takes the host's standard input (called once the process has started).</summary>
    public void Attach(StreamWriter input) => _input = input;

    /// <summary>Where the host stopped last.</summary>
    public TurnStage Stage { get; private set; }

    /// <summary>The host has stopped for its next turn, saying <paramref name="line"/> (called on the output reader's thread).</summary>
    public void Stopped(string line)
    {
        Stage = line switch
        {
            HostProtocol.ReadyTurnLine => TurnStage.Ready,
            HostProtocol.WorkloadTurnLine => TurnStage.Workload,
            HostProtocol.MeasuredTurnLine => TurnStage.Measured,
            _ => Stage < TurnStage.Preparing ? TurnStage.Preparing : Stage,
        };
        _stopped.Release();
    }

    /// <summary>Waits until the host has stopped for its next turn.</summary>
    public Task WaitStoppedAsync(CancellationToken cancellationToken) => _stopped.WaitAsync(cancellationToken);

    /// <summary>Gives the host its turn: it runs until it stops again, or ends.</summary>
    public void Go() => Write(input =>
    {
        input.WriteLine();
        input.Flush();
    });

    /// <summary>Lets the host run to its end without stopping again.</summary>
    public void Free() => Write(input => input.Close());

    // A host that has just ended (or was killed) has no input left to write to; its launch reports how it ended.
    private void Write(Action<StreamWriter> write)
    {
        if (_input is not { } input)
        {
            return;
        }

        try
        {
            write(input);
        }
        catch (Exception ex) when (ex is IOException or ObjectDisposedException)
        {
        }
    }
}

/// <summary>
/// Runs one round of a case's launches, one per runtime, at once and in turns: the hosts start side by side and each
/// drives its case until tiering settles and stops ready (nothing is measured yet, and two cores start and drive three
/// hosts in less time than one after another: a drive is mostly pauses); then each in turn runs one iteration at a
/// time, so every runtime's iterations sit next to the others' in time and no two processes ever run their work
/// together. A host whose overhead stages are done waits until the others' are too (BenchmarkDotNet chooses their
/// length in each process), so the measured iterations of the round are run side by side. A host done measuring waits
/// until all are, and then they all end side by side (their summaries and exits measure nothing). On the course
/// machine the speed of a core changes over seconds (docs/performance.md, "The machine's state"), and launches run one
/// after another each caught one state; in turns, the runtimes of one round share it.
/// </summary>
internal static class LaunchTurns
{
    /// <summary>
    /// Runs <paramref name="launches"/> (each given its seat, which it must hand to its host) in turns, in the order
    /// given, until every one has ended; throws what the first failing launch threw. Whatever ends the round early
    /// (a failure, a cancel) frees every host still waiting, so none is left waiting for a turn.
    /// </summary>
    public static async Task RunAsync(IReadOnlyList<Func<TurnSeat, Task>> launches, CancellationToken cancellationToken)
    {
        var round = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        var seats = launches.Select(_ => new TurnSeat(launches.Count, round)).ToArray();
        var running = new Task?[launches.Count];
        try
        {
            for (var i = 0; i < launches.Count; i++)
            {
                running[i] = launches[i](seats[i]);
            }

            var waiting = new List<int>();
            for (var i = 0; i < launches.Count; i++)
            {
                if (await StoppedAsync(seats[i], running[i]!, cancellationToken).ConfigureAwait(false))
                {
                    waiting.Add(i);
                }
            }

            while (waiting.Where(i => seats[i].Stage < TurnStage.Measured).ToArray() is { Length: > 0 } measuring)
            {
                // Hosts at their workload iterations wait while any other is still in its jitting or overhead stages.
                var behind = measuring.Where(i => seats[i].Stage < TurnStage.Workload).ToArray();
                foreach (var i in behind.Length > 0 ? behind : measuring)
                {
                    seats[i].Go();
                    if (!await StoppedAsync(seats[i], running[i]!, cancellationToken).ConfigureAwait(false))
                    {
                        waiting.Remove(i);
                    }
                }
            }
        }
        finally
        {
            // Every host done measuring (or left waiting by a failure or a cancel) runs to its end now, side by side.
            foreach (var seat in seats)
            {
                seat.Free();
            }

            await Task.WhenAll(running.OfType<Task>()).ConfigureAwait(false);
        }
    }

    // True when the host stopped for its next turn, false when its launch ended (or failed: the caller's WhenAll reports it).
    private static async Task<bool> StoppedAsync(TurnSeat seat, Task launch, CancellationToken cancellationToken)
    {
        var stopped = seat.WaitStoppedAsync(cancellationToken);
        if (await Task.WhenAny(stopped, launch).ConfigureAwait(false) == stopped)
        {
            await stopped.ConfigureAwait(false);
            return true;
        }

        return false;
    }
}
