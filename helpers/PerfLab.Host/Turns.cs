using PerfLab.Contract;

namespace PerfLab.Host;

/// <summary>
/// A host taking turns (<see cref="HostRequest.Turns"/>): it says it has stopped, then waits for its turn, a line on its
/// standard input. Once the parent closes that input (it stopped coordinating, or was stopped), the host runs freely.
/// </summary>
internal static class Turns
{
    private static bool _free;
    private static bool _inWorkload;

    /// <summary>Stops until the parent gives this process its turn; <paramref name="phase"/> is the iteration just run's stage.</summary>
    public static void Wait(string phase)
    {
        if (_free)
        {
            return;
        }

        var first = !_inWorkload && phase == "WorkloadWarmup";
        _inWorkload |= first;
        Console.Out.WriteLine(first ? HostProtocol.WorkloadTurnLine : HostProtocol.TurnLine);
        Console.Out.Flush();
        _free = Console.In.ReadLine() is null;
    }
}
