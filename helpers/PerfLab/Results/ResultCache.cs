using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using PerfLab.Contract;

namespace PerfLab.Results;

/// <summary>
/// Stored results of one runtime, keyed by everything that can change them: source, mode, filter,
/// environment, exact runtime version and host build. A corrupt entry is a miss, never a crash.
/// </summary>
internal sealed class ResultCache
{
    private const int EntryVersion = 1;
    private readonly string _folder;

    public ResultCache(string folder) => _folder = folder;

    private sealed record Entry(int Version, string Key, HostRuntime Runtime, IReadOnlyList<HostResult> Cases);

    /// <summary>The key of one runtime's part of a run.</summary>
    public static string Key(string source, BenchmarkMode mode, IReadOnlyList<string> filter, IReadOnlyDictionary<string, string> environment, string runtimeVersion, string hostVersion)
    {
        var canonical = new StringBuilder()
            .Append("entry=").Append(EntryVersion).Append('\n')
            .Append("mode=").Append(mode).Append('\n')
            .Append("filter=").AppendJoin('\u001f', filter).Append('\n')
            .Append("env=").AppendJoin('\u001f', environment.OrderBy(e => e.Key, StringComparer.Ordinal).Select(e => e.Key + "=" + e.Value)).Append('\n')
            .Append("runtime=").Append(runtimeVersion).Append('\n')
            .Append("host=").Append(hostVersion).Append('\n')
            .Append("source=").Append(source.ReplaceLineEndings("\n"));
        return Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(canonical.ToString())));
    }

    /// <summary>The stored results, or null on a miss; a corrupt entry is reported through <paramref name="warn"/>.</summary>
    public (HostRuntime Runtime, IReadOnlyList<HostResult> Cases)? TryGet(string key, Action<string> warn)
    {
        var path = PathOf(key);
        if (!File.Exists(path))
        {
            return null;
        }

        try
        {
            var entry = JsonSerializer.Deserialize<Entry>(File.ReadAllText(path), HostProtocol.Json);
            if (entry is null || entry.Version != EntryVersion || entry.Key != key || entry.Cases is null || entry.Runtime is null)
            {
                throw new InvalidDataException("unexpected content");
            }

            return (entry.Runtime, entry.Cases);
        }
        catch (Exception ex) when (ex is JsonException or InvalidDataException or IOException or NotSupportedException)
        {
            warn($"Ignored a corrupt cached result ({path}: {ex.Message}); running again.");
            return null;
        }
    }

    /// <summary>Stores results atomically (a reader never sees half a file).</summary>
    public void Put(string key, HostRuntime runtime, IReadOnlyList<HostResult> cases)
    {
        Directory.CreateDirectory(_folder);
        var path = PathOf(key);
        var staging = path + "." + Guid.NewGuid().ToString("N")[..8] + ".tmp";
        File.WriteAllText(staging, JsonSerializer.Serialize(new Entry(EntryVersion, key, runtime, cases), HostProtocol.Json));
        File.Move(staging, path, overwrite: true);
    }

    private string PathOf(string key) => Path.Combine(_folder, key + ".json");
}
