using System.Globalization;
using PerfLab.Results;

namespace PerfLab.Disassembly;

/// <summary>What one runtime's capture produced: the methods it looked for and their listings.</summary>
/// <param name="Methods">The names looked for: the request's, or every [Benchmark] method of this runtime's compile.</param>
/// <param name="Runtime">The listings.</param>
internal sealed record CapturedAsm(IReadOnlyList<string> Methods, RuntimeAsm Runtime);

/// <summary>
/// Stored listings of one runtime, keyed by everything that can change them: the source, the method names
/// as asked, the variant, the environment, the exact runtime version, the host build, this library's
/// build (it parses the JIT's output and picks the listings) and, for a source that uses
/// [GeneratedRegex], the generator that wrote its regex code. A corrupt entry is a miss, never a crash.
/// </summary>
internal sealed class ListingCache
{
    private const int EntryVersion = 1;

    // A deterministic build's module id is a hash of the compiled library: a change to the parser or to
    // how listings are picked is a miss, as a new host build is for the host's part.
    private static readonly string LibraryBuild = typeof(ListingCache).Assembly.ManifestModule.ModuleVersionId.ToString("N");

    private readonly EntryStore<Entry> _store;

    public ListingCache(string folder) => _store = new EntryStore<Entry>(folder, EntryVersion, JsonFormats.Listings, "cached listing", "capturing again");

    private sealed record Entry(int Version, string Key, IReadOnlyList<string> Methods, RuntimeAsm Runtime) : ICacheEntry
    {
        public bool IsComplete() =>
            Methods is not null && Methods.All(m => m is not null)
            && Runtime is { Runtime: not null, Version: not null, Listings: not null, NotCompiled: not null }
            && Runtime.NotCompiled.All(n => n is not null)
            && Runtime.Listings.All(l => l is { Method: not null, Tier: not null, Lines: not null } && l.Lines.All(line => line is not null));
    }

    /// <summary>The key of one runtime's part of a capture (timeouts are left out: they do not change a listing that completes).</summary>
    /// <param name="request">What was asked.</param>
    /// <param name="runtimeVersion">The exact runtime version.</param>
    /// <param name="hostVersion">The host build's hash.</param>
    /// <param name="generators">
    /// The source generators the compile ran (<see cref="Benchmarks.HostLayout.GeneratorsFor"/>), or null;
    /// null adds no line, so captures of sources without [GeneratedRegex] keep their keys.
    /// </param>
    public static string Key(AsmRequest request, string runtimeVersion, string hostVersion, string? generators = null) =>
        CacheKey.Hash(
            [
                ("entry", EntryVersion.ToString(CultureInfo.InvariantCulture)),
                ("methods", CacheKey.List(request.Methods)),
                ("fullopts", request.FullOpts.ToString()),
                ("nopgo", request.NoPgo.ToString()),
                ("tier0", request.Tier0.ToString()),
                ("env", CacheKey.Environment(request.Environment)),
                ("runtime", runtimeVersion),
                ("host", hostVersion),
                ("library", LibraryBuild),
                .. CacheKey.Optional("generators", generators),
                ("source", CacheKey.Source(request.Source)),
            ]);

    /// <summary>The stored capture, or null on a miss; a corrupt entry is reported through <paramref name="warn"/>.</summary>
    public CapturedAsm? TryGet(string key, Action<string> warn) =>
        _store.TryGet(key, warn) is { } entry ? new CapturedAsm(entry.Methods, entry.Runtime) : null;

    /// <summary>Stores one runtime's capture atomically, replacing any earlier one.</summary>
    public void Put(string key, CapturedAsm capture) => _store.Put(new Entry(EntryVersion, key, capture.Methods, capture.Runtime));
}
