using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using PerfLab.Files;

namespace PerfLab.Results;

/// <summary>What every cached entry carries, so a file can be checked before it is trusted.</summary>
internal interface ICacheEntry
{
    /// <summary>The entry format it was written with.</summary>
    int Version { get; }

    /// <summary>The key it answers (the file name says so too; a copied or renamed file would not).</summary>
    string Key { get; }

    /// <summary>Nothing a reader needs is null: a file can parse and still lack a field.</summary>
    bool IsComplete();
}

/// <summary>
/// The key of a cached entry: the SHA-256 of a canonical text with one "name=value" line per input that
/// can change the cached value. Lists are joined with U+001F, an environment is sorted by name, and a
/// source's line endings are normalized, so none of those differences is a miss.
/// </summary>
internal static class CacheKey
{
    /// <summary>The hash of the lines, in the order given.</summary>
    public static string Hash(params (string Name, string Value)[] inputs)
    {
        var canonical = string.Join('\n', inputs.Select(i => i.Name + "=" + i.Value));
        return Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(canonical)));
    }

    /// <summary>One line when there is a value, none when it is null: a new optional input leaves the keys made without it unchanged.</summary>
    public static (string Name, string Value)[] Optional(string name, string? value) => value is null ? [] : [(name, value)];

    /// <summary>The values in order.</summary>
    public static string List(IEnumerable<string> values) => string.Join('\u001f', values);

    /// <summary>NAME=VALUE pairs sorted by name.</summary>
    public static string Environment(IReadOnlyDictionary<string, string> environment) =>
        List(environment.OrderBy(e => e.Key, StringComparer.Ordinal).Select(e => e.Key + "=" + e.Value));

    /// <summary>The source with "\n" line endings.</summary>
    public static string Source(string source) => source.ReplaceLineEndings("\n");
}

/// <summary>
/// A folder of cached entries, one JSON file per key (the result cache and the asm cache). Writes are
/// atomic, so a reader never sees half a file; an entry that cannot be read is a warning and a miss,
/// never a crash.
/// </summary>
/// <typeparam name="TEntry">What one file holds.</typeparam>
internal sealed class EntryStore<TEntry>
    where TEntry : class, ICacheEntry
{
    private readonly string _folder;
    private readonly int _version;
    private readonly JsonSerializerOptions _json;
    private readonly string _what;
    private readonly string _instead;

    /// <summary>Creates a store over <paramref name="folder"/>.</summary>
    /// <param name="folder">Where the files go; created on the first write.</param>
    /// <param name="version">The entry format: an entry of another version is not trusted.</param>
    /// <param name="json">How entries are written and read.</param>
    /// <param name="what">What an entry is, for the warning: "cached result".</param>
    /// <param name="instead">What happens after a corrupt entry, for the warning: "running again".</param>
    public EntryStore(string folder, int version, JsonSerializerOptions json, string what, string instead)
    {
        _folder = folder;
        _version = version;
        _json = json;
        _what = what;
        _instead = instead;
    }

    /// <summary>The stored entry, or null on a miss; a corrupt entry is reported through <paramref name="warn"/>.</summary>
    public TEntry? TryGet(string key, Action<string> warn)
    {
        var path = PathOf(key);
        if (!File.Exists(path))
        {
            return null;
        }

        try
        {
            var entry = JsonSerializer.Deserialize<TEntry>(File.ReadAllText(path), _json);
            if (entry is null || entry.Version != _version || entry.Key != key || !entry.IsComplete())
            {
                throw new InvalidDataException("unexpected content");
            }

            return entry;
        }
        catch (Exception ex) when (ex is JsonException or InvalidDataException or IOException or NotSupportedException)
        {
            warn($"Ignored a corrupt {_what} ({path}: {ex.Message}); {_instead}.");
            return null;
        }
    }

    /// <summary>Stores <paramref name="entry"/> under its key atomically, replacing any earlier one.</summary>
    public void Put(TEntry entry)
    {
        Directory.CreateDirectory(_folder);
        var path = PathOf(entry.Key);
        AtomicFile.WriteAllText(path, JsonSerializer.Serialize(entry, _json));
    }

    private string PathOf(string key) => Path.Combine(_folder, key + ".json");
}
