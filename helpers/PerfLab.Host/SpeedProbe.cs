using System.Globalization;

namespace PerfLab.Host;

/// <summary>
/// A diagnostic beside the JIT trace (<see cref="JitTrace"/>), off unless <see cref="Variable"/> is set too: after each
/// warm-up and measured iteration, on BenchmarkDotNet's thread (so outside the timed iterations), it times the
/// machine's speed (<see cref="MachineSpeed"/>: about 1 ms) and notes it with the iteration's own line, so a launch's
/// iterations can be read against the machine's state when each ran. bench/machine-state/measure.cs reads them.
/// </summary>
internal static class SpeedProbe
{
    /// <summary>The environment variable that turns the probe on (any value), with <see cref="JitTrace.Variable"/>.</summary>
    public const string Variable = "PERFLAB_SPEED_PROBE";

    private const int ChainSteps = 400_000;
    private const int ShortLoopCalls = 100_000;
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
            // The first calls compile the probes; timing them would time the JIT.
            _ = MachineSpeed.MultiplyChain(1) + MachineSpeed.ShortLoop(1);
            _compiled = true;
        }

        JitTrace.NoteText("LINE " + iterationLine.Trim());
        var chain = MachineSpeed.MultiplyChain(ChainSteps);
        var shortLoop = MachineSpeed.ShortLoop(ShortLoopCalls);
        JitTrace.NoteText(string.Create(CultureInfo.InvariantCulture, $"PROBE {chain:F4} {shortLoop:F4}"));
    }
}
