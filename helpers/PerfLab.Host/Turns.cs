using PerfLab.Contract;

namespace PerfLab.Host;

/// <summary>
/// A host taking turns (<see cref="HostRequest.Turns"/>): it says it has stopped, then waits for its turn, a line on its
/// standard input. Once the parent closes that input (it stopped coordinating, or was stopped), the host runs freely.
/// </summary>
internal static class Turns
{
    // The JIT counts as quiet after this many looks a pause apart that saw no method compiled; at most MaxLooks looks.
    private const int QuietLooks = 2;
    private const int MaxLooks = 10;
    private static readonly TimeSpan LookPause = TimeSpan.FromMilliseconds(40);

    private static bool _free;
    private static bool _inWorkload;

    /// <summary>
    /// Stops ready: start-up and the tiering drive done, before BenchmarkDotNet's stages (<see cref="HostProtocol.ReadyTurnLine"/>).
    /// First it waits, for at most 0.4 s, until the JIT is quiet: promotions still running in the background would
    /// otherwise run beside another host's iterations (the parent starts a round's hosts side by side, each drives its
    /// case at once, and they wait for this part together).
    /// </summary>
    public static void WaitReady()
    {
        if (_free)
        {
            return;
        }

        var compiled = System.Runtime.JitInfo.GetCompiledMethodCount(currentThread: false);
        for (int look = 0, quiet = 0; look < MaxLooks && quiet < QuietLooks; look++)
        {
            Thread.Sleep(LookPause);
            var now = System.Runtime.JitInfo.GetCompiledMethodCount(currentThread: false);
            quiet = now == compiled ? quiet + 1 : 0;
            compiled = now;
        }

        Stop(HostProtocol.ReadyTurnLine);
    }

    /// <summary>Stops until the parent gives this process its turn; <paramref name="phase"/> is the iteration just run's stage.</summary>
    public static void Wait(string phase)
    {
        var first = !_inWorkload && phase == "WorkloadWarmup";
        _inWorkload |= first;
        Stop(first ? HostProtocol.WorkloadTurnLine : HostProtocol.TurnLine);
    }

    /// <summary>Stops once done measuring, before BenchmarkDotNet's summary and the exit (<see cref="HostProtocol.MeasuredTurnLine"/>).</summary>
    public static void WaitMeasured() => Stop(HostProtocol.MeasuredTurnLine);

    private static void Stop(string line)
    {
        if (_free)
        {
            return;
        }

        Console.Out.WriteLine(line);
        Console.Out.Flush();
        _free = Console.In.ReadLine() is null;
    }
}
