using System.Diagnostics.Tracing;
using System.Globalization;

namespace PerfLab.Host;

/// <summary>
/// Listens to the runtime's own events for each method the JIT compiles in this process, and the tier it compiled it
/// at. The tiering drive asks it whether the benchmark method has its final code yet (<see cref="HasFinalCode"/>): the
/// JIT's count of compiled methods can stay still while promotion has not even started (on a loaded machine the
/// call-counting timer may not run for seconds), and a launch that measured then timed Tier0 code. The JIT trace
/// (<see cref="JitTrace"/>) keeps every event.
/// </summary>
internal sealed class JitEvents : EventListener
{
    // The runtime's JIT keyword; MethodLoadVerbose (event 143) carries the method's id (its MethodDesc, the value of
    // its RuntimeMethodHandle), its names, and its tier in bits 7 to 9 of MethodFlags, numbered as the runtime's
    // JitOptimizationTier.
    private const EventKeywords JitKeyword = (EventKeywords)0x10;
    private const int MethodLoadVerbose = 143;

    // The tiers, by the runtime's number.
    private static readonly string[] Tiers =
        ["unknown", "MinOpts", "Optimized", "Tier0", "Tier1", "Tier1-OSR", "Tier0-instrumented", "Tier1-instrumented"];

    // Code no later tier replaces: Tier1, or optimized from the start (AggressiveOptimization, tiering off), or MinOpts
    // (a method too large to optimize). Tier0, OSR and the instrumented tiers are on their way to Tier1.
    private static readonly HashSet<string> FinalTiers = ["Tier1", "Optimized", "MinOpts"];

    // MethodFlags' bit for a dynamic method (a DynamicMethod: Reflection.Emit, a compiled regex).
    private const uint DynamicMethodFlag = 0x1;

    private readonly Dictionary<long, string> _lastTier = [];
    private readonly Action<DateTime, string>? _onCompiled;
    private long _dynamicCompiles;
    private long _otherCompiles;

    /// <param name="onCompiled">Sees each compile as a line ("JIT Tier1 Ns.Type:Method") with its time; may be null.</param>
    public JitEvents(Action<DateTime, string>? onCompiled = null)
    {
        _onCompiled = onCompiled;
    }

    /// <summary>Whether the method whose handle is <paramref name="method"/> has been compiled at a final tier, by the events seen so far.</summary>
    public bool HasFinalCode(RuntimeMethodHandle method)
    {
        lock (_lastTier)
        {
            return _lastTier.TryGetValue(method.Value, out var tier) && FinalTiers.Contains(tier);
        }
    }

    /// <summary>The last tier the method was compiled at, or null when no event has named it.</summary>
    public string? TierOf(RuntimeMethodHandle method)
    {
        lock (_lastTier)
        {
            return _lastTier.GetValueOrDefault(method.Value);
        }
    }

    /// <summary>
    /// The compiles whose events have arrived so far: of dynamic methods, and of every other method. A dynamic method
    /// is compiled once, optimized, and never tiers, so its compiles say nothing about whether tiering has settled.
    /// </summary>
    public (long Dynamic, long Other) Compiles => (Interlocked.Read(ref _dynamicCompiles), Interlocked.Read(ref _otherCompiles));

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        if (eventSource.Name == "Microsoft-Windows-DotNETRuntime")
        {
            EnableEvents(eventSource, EventLevel.Verbose, JitKeyword);
        }
    }

    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        if (eventData.EventId != MethodLoadVerbose || eventData.Payload is not { } payload || eventData.PayloadNames is not { } names)
        {
            return;
        }

        object? Field(string name) => names.IndexOf(name) is var i and >= 0 ? payload[i] : null;
        var flags = Convert.ToUInt32(Field("MethodFlags"), CultureInfo.InvariantCulture);
        var tier = Tiers[(flags >> 7) & 0x7];
        Interlocked.Increment(ref (flags & DynamicMethodFlag) != 0 ? ref _dynamicCompiles : ref _otherCompiles);
        var id = unchecked((long)Convert.ToUInt64(Field("MethodID"), CultureInfo.InvariantCulture));
        lock (_lastTier)
        {
            _lastTier[id] = tier;
        }

        _onCompiled?.Invoke(eventData.TimeStamp.ToUniversalTime(), $"JIT {tier} {Field("MethodNamespace")}:{Field("MethodName")}");
    }
}
