using PerfLab.Contract;

namespace PerfLab.Benchmarks;

/// <summary>
/// One launch's place in a round of launches that take turns (<see cref="LaunchTurns"/>): it holds the host's standard
/// input and hears the host say it has stopped (<see cref="HostProtocol.TurnLine"/>).
/// </summary>
internal sealed class TurnSeat(int of)
{
    private readonly SemaphoreSlim _stopped = new(0);
    private StreamWriter? _input;

    /// <summary>How many launches take turns in the round: each one's process lives about that many times as long.</summary>
    public int Of { get; } = of;

    /// <summary>Takes the host's standard input (called once the process has started).</summary>
    public void Attach(StreamWriter input) => _input = input;

    /// <summary>Whether the host has run its first workload warm-up iteration (<see cref="HostProtocol.WorkloadTurnLine"/>).</summary>
    public bool InWorkload { get; private set; }

    /// <summary>The host has stopped for its next turn (called on the output reader's thread); <paramref name="inWorkload"/>: after its first workload iteration.</summary>
    public void Stopped(bool inWorkload)
    {
        InWorkload |= inWorkload;
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
/// Runs one round of a case's launches, one per runtime, at once and in turns: each host starts and gets as far as its
/// first stop (its tiering drive done) before the next one starts; then each in turn runs one iteration at a time, so
/// every runtime's iterations sit next to the others' in time and no two processes ever run their work together. A
/// host whose overhead stages are done waits until the others' are too (BenchmarkDotNet chooses their length in each
/// process), so the measured iterations of the round are run side by side. On
/// the course machine the speed of a core changes over seconds (docs/performance.md, "The machine's state"), and
/// launches run one after another each caught one state; in turns, the runtimes of one round share it.
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
        var seats = launches.Select(_ => new TurnSeat(launches.Count)).ToArray();
        var running = new Task?[launches.Count];
        try
        {
            var waiting = new List<int>();
            for (var i = 0; i < launches.Count; i++)
            {
                running[i] = launches[i](seats[i]);
                if (await StoppedAsync(seats[i], running[i]!, cancellationToken).ConfigureAwait(false))
                {
                    waiting.Add(i);
                }
            }

            while (waiting.Count > 0)
            {
                // Hosts at their workload iterations wait while any other is still in its overhead stages.
                var behind = waiting.Where(i => !seats[i].InWorkload).ToArray();
                foreach (var i in behind.Length > 0 ? behind : waiting.ToArray())
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
