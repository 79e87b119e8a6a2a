using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace PerfLab.Host;

/// <summary>
/// Two timings whose machine code no runtime changes, to read the machine's own speed (docs/performance.md, "The
/// machine's state"): a chain of dependent multiplies, one loop exit in many steps, which only the core's clock sets;
/// and a 9-step loop called again and again, which also slows when the core's front end or branch predictor is shared
/// with another hardware thread's work. The host's SpeedProbe times them between iterations; bench/Shared
/// compiles this file too, for bench/machine-state/measure.cs. The first call of each compiles it: time a later one.
/// </summary>
public static class MachineSpeed
{
    private static readonly int[] Nine = [1, 2, 3, 4, 5, 6, 7, 8, 9];

    /// <summary>Nanoseconds per step of a chain of <paramref name="steps"/> dependent multiply-adds.</summary>
    public static double MultiplyChain(int steps)
    {
        var start = Stopwatch.GetTimestamp();
        GC.KeepAlive(Chain(steps));
        return Stopwatch.GetElapsedTime(start).TotalNanoseconds / steps;
    }

    /// <summary>Nanoseconds per call of a loop over 9 numbers, called <paramref name="calls"/> times.</summary>
    public static double ShortLoop(int calls)
    {
        var start = Stopwatch.GetTimestamp();
        long keep = 0;
        for (var i = 0; i < calls; i++)
        {
            keep += Sum(Nine);
        }

        GC.KeepAlive(keep);
        return Stopwatch.GetElapsedTime(start).TotalNanoseconds / calls;
    }

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    private static long Chain(int steps)
    {
        long x = steps;
        for (var i = 0; i < steps; i++)
        {
            x = (x * 31) + 7;
        }

        return x;
    }

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    private static int Sum(int[] values)
    {
        var total = 0;
        for (var i = 0; i < values.Length; i++)
        {
            total += values[i];
        }

        return total;
    }
}
