using PerfLab.Runtimes;

namespace PerfLab.Benchmarks;

/// <summary>
/// One runtime's way through an engine (benchmarks or asm): the runtime and its cache key, then, as the
/// stages fill them in, its compiled assembly, where it runs, and its outcome (from the cache or run now).
/// The engines carry one of these per runtime, so nothing is paired by position in parallel lists.
/// </summary>
/// <typeparam name="TOutcome">What the engine makes of one runtime.</typeparam>
/// <param name="runtime">The runtime.</param>
/// <param name="cacheKey">The key of its part of the result in the engine's cache.</param>
internal sealed class RuntimeWork<TOutcome>(PinnedRuntime runtime, string cacheKey)
    where TOutcome : class
{
    /// <summary>The runtime.</summary>
    public PinnedRuntime Runtime { get; } = runtime;

    /// <summary>The key of its part of the result in the engine's cache.</summary>
    public string CacheKey { get; } = cacheKey;

    /// <summary>The source compiled for it, once compiled.</summary>
    public CompiledBenchmark? Compiled { get; set; }

    /// <summary>Where it is on this machine, once located (provisioned first when it is to run).</summary>
    public LocatedRuntime? Located { get; set; }

    /// <summary>Its outcome, once read from the cache or run.</summary>
    public TOutcome? Outcome { get; set; }
}
