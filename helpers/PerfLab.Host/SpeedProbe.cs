using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;

namespace PerfLab.Host;

/// <summary>
/// A diagnostic beside the JIT trace (<see cref="JitTrace"/>), off unless <see cref="Variable"/> is set too: after each
/// warm-up and measured iteration, on BenchmarkDotNet's thread (so outside the timed iterations), it times two pieces
/// of code whose machine code no runtime changes, and notes both with the iteration's own line. A long chain of
/// dependent multiplies sees the core's clock; a 9-step loop called many times sees how well the core predicts a
/// short loop's exit, which on a shared virtual machine comes and goes for seconds at a time (docs/performance.md,
/// "The machine's state"). bench/machine-state/measure.cs reads them.
/// </summary>
internal static class SpeedProbe
{
    /// <summary>The environment variable that turns the probe on (any value), with <see cref="JitTrace.Variable"/>.</summary>
    public const string Variable = "PERFLAB_SPEED_PROBE";

    private const int ChainSteps = 400_000;
    private const int ShortLoopCalls = 100_000;
    private static readonly int[] Nine = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    private static readonly bool Enabled = Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } && JitTrace.Tracing;
    private static bool _compiled;

    /// <summary>Notes the iteration's line, then "PROBE chain-ns-per-step short-loop-ns-per-call", when on.</summary>
    public static void AfterIteration(string iterationLine)
    {
        if (!Enabled)
        {
            return;
        }

        if (!_compiled)
        {
            // The first call compiles both; timing it would time the JIT.
            _ = Chain(1) + ShortLoop(Nine);
            _compiled = true;
        }

        JitTrace.NoteText("LINE " + iterationLine.Trim());
        var start = Stopwatch.GetTimestamp();
        var keep = Chain(ChainSteps);
        var chain = Stopwatch.GetElapsedTime(start).TotalNanoseconds / ChainSteps;
        start = Stopwatch.GetTimestamp();
        for (var i = 0; i < ShortLoopCalls; i++)
        {
            keep += ShortLoop(Nine);
        }

        var shortLoop = Stopwatch.GetElapsedTime(start).TotalNanoseconds / ShortLoopCalls;
        GC.KeepAlive(keep);
        JitTrace.NoteText(string.Create(CultureInfo.InvariantCulture, $"PROBE {chain:F4} {shortLoop:F4}"));
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
    private static int ShortLoop(int[] values)
    {
        var total = 0;
        for (var i = 0; i < values.Length; i++)
        {
            total += values[i];
        }

        return total;
    }
}
