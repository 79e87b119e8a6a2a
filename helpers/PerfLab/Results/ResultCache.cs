using System.Globalization;
using PerfLab.Contract;

namespace PerfLab.Results;

/// <summary>
/// Stored results of one runtime, keyed by everything that can change them: source, mode, launches, filter,
/// environment, exact runtime version, host build and, for a source that uses [GeneratedRegex], the
/// generator that wrote its regex code. A corrupt entry is a miss, never a crash.
/// </summary>
internal sealed class ResultCache
{
    // 2: a case holds each launch's result (quick mode runs several processes per case).
    private const int EntryVersion = 2;
    private readonly EntryStore<Entry> _store;

    public ResultCache(string folder) => _store = new EntryStore<Entry>(folder, EntryVersion, HostProtocol.Json, "cached result", "running again");

    private sealed record Entry(int Version, string Key, HostRuntime Runtime, IReadOnlyList<CaseLaunches> Cases) : ICacheEntry
    {
        public bool IsComplete() => Runtime is not null && Cases is not null && Cases.All(c => c.Launches is { Count: > 0 });
    }

    /// <summary>The key of one runtime's part of a run.</summary>
    /// <param name="source">The benchmark's C#.</param>
    /// <param name="mode">The mode it ran in.</param>
    /// <param name="launches">Host processes per case.</param>
    /// <param name="filter">The filter patterns, in order.</param>
    /// <param name="environment">The variables set on the processes.</param>
    /// <param name="runtimeVersion">The exact runtime version.</param>
    /// <param name="hostVersion">The host build's hash.</param>
    /// <param name="generators">
    /// The source generators the compile ran (<see cref="Benchmarks.HostLayout.GeneratorsFor"/>), or null.
    /// Null adds no line, so sources without [GeneratedRegex] keep the keys existing caches hold.
    /// </param>
    public static string Key(string source, BenchmarkMode mode, int launches, IReadOnlyList<string> filter, IReadOnlyDictionary<string, string> environment, string runtimeVersion, string hostVersion, string? generators = null) =>
        CacheKey.Hash(
            [
                ("entry", EntryVersion.ToString(CultureInfo.InvariantCulture)),
                ("mode", mode.ToString()),
                ("launches", launches.ToString(CultureInfo.InvariantCulture)),
                ("filter", CacheKey.List(filter)),
                ("env", CacheKey.Environment(environment)),
                ("runtime", runtimeVersion),
                ("host", hostVersion),
                .. CacheKey.Optional("generators", generators),
                ("source", CacheKey.Source(source)),
            ]);

    /// <summary>The stored results, or null on a miss; a corrupt entry is reported through <paramref name="warn"/>.</summary>
    public (HostRuntime Runtime, IReadOnlyList<CaseLaunches> Cases)? TryGet(string key, Action<string> warn) =>
        _store.TryGet(key, warn) is { } entry ? (entry.Runtime, entry.Cases) : null;

    /// <summary>Stores results atomically (a reader never sees half a file).</summary>
    public void Put(string key, HostRuntime runtime, IReadOnlyList<CaseLaunches> cases) => _store.Put(new Entry(EntryVersion, key, runtime, cases));
}
