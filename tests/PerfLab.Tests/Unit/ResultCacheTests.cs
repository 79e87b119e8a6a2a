using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

public class ResultCacheTests
{
    private static readonly Dictionary<string, string> NoEnv = [];

    private static string Key(string source = "src", BenchmarkMode mode = BenchmarkMode.Quick, int launches = 3, string[]? filter = null, Dictionary<string, string>? env = null, string runtime = "8.0.31", string host = "h1", string? generators = null) =>
        ResultCache.Key(source, mode, launches, filter ?? [], env ?? NoEnv, runtime, host, generators);

    [Fact]
    public void Every_input_changes_the_key()
    {
        var keys = new[]
        {
            Key(),
            Key(source: "src2"),
            Key(mode: BenchmarkMode.Full),
            Key(launches: 1),
            Key(filter: ["*Sum*"]),
            Key(env: new() { ["DOTNET_TieredPGO"] = "0" }),
            Key(runtime: "8.0.32"),
            Key(host: "h2"),
            Key(generators: "regex:1"),
            Key(generators: "regex:2"),
        };
        Assert.Equal(keys.Length, keys.Distinct().Count());
    }

    [Fact]
    public void Key_ignores_line_endings_and_environment_order()
    {
        Assert.Equal(Key(source: "a\nb"), Key(source: "a\r\nb"));
        Assert.Equal(
            Key(env: new() { ["A"] = "1", ["B"] = "2" }),
            Key(env: new() { ["B"] = "2", ["A"] = "1" }));
    }

    [Fact]
    public void The_key_stays_what_existing_caches_were_written_with()
    {
        // A change here would silently turn every reader's cached result into a miss. (Entry version 2, a case's
        // launches, and the launches per case as an input changed it on purpose: an entry of version 1 holds one
        // result per case, and a run of one launch is not a run of three.)
        Assert.Equal(
            "3c0543d85bcc55bf36ec9e49256b152c8735006f0cc787af868e4021dc5682b8",
            Key(source: "a\r\nb", filter: ["*Sum*", "*Max*"], env: new() { ["B"] = "2", ["A"] = "1" }));
    }

    [Fact]
    public void A_source_without_generators_keeps_the_key_it_had_before_generators_were_an_input()
    {
        // Only [GeneratedRegex] sources pass a generator; every other reader's cached result stays a hit.
        Assert.Equal(
            "3c0543d85bcc55bf36ec9e49256b152c8735006f0cc787af868e4021dc5682b8",
            Key(source: "a\r\nb", filter: ["*Sum*", "*Max*"], env: new() { ["B"] = "2", ["A"] = "1" }, generators: null));
    }

    [Fact]
    public void Stored_results_come_back()
    {
        using var folder = new TempFolder();
        var cache = new ResultCache(folder.Path);
        var launches = new CaseLaunches([Fake.Case("Sum", 12.5, 0), Fake.Case("Sum", 13.5, 0)]);
        cache.Put(Key(), Fake.Runtime("8.0.31"), [launches]);

        var hit = cache.TryGet(Key(), _ => Assert.Fail("no warning expected"));
        Assert.NotNull(hit);
        Assert.Equal("8.0.31", hit.Value.Runtime.Version);
        Assert.Equal([12.5, 13.5], hit.Value.Cases[0].Launches.Select(l => l.Statistics!.Mean));
    }

    [Fact]
    public void An_entry_file_holds_exactly_version_key_runtime_and_cases()
    {
        // The on-disk format of existing caches: a new field would be harmless to read, but a renamed one a miss.
        using var folder = new TempFolder();
        new ResultCache(folder.Path).Put(Key(), Fake.Runtime("8.0.31"), [new CaseLaunches([Fake.Case("Sum", 12.5, 0)])]);

        using var entry = System.Text.Json.JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, Key() + ".json")));
        Assert.Equal(["version", "key", "runtime", "cases"], entry.RootElement.EnumerateObject().Select(p => p.Name));
        Assert.Equal(2, entry.RootElement.GetProperty("version").GetInt32());
        Assert.Equal(["launches"], entry.RootElement.GetProperty("cases")[0].EnumerateObject().Select(p => p.Name));
        Assert.Equal(Key(), entry.RootElement.GetProperty("key").GetString());
    }

    [Fact]
    public void A_corrupt_entry_is_a_miss_with_a_warning()
    {
        using var folder = new TempFolder();
        var cache = new ResultCache(folder.Path);
        File.WriteAllText(Path.Combine(folder.Path, Key() + ".json"), "{ not json");
        var warnings = new List<string>();

        Assert.Null(cache.TryGet(Key(), warnings.Add));
        Assert.Single(warnings);
        Assert.StartsWith("Ignored a corrupt cached result", warnings[0], StringComparison.Ordinal);
    }

    [Fact]
    public void A_miss_is_silent()
    {
        using var folder = new TempFolder();
        Assert.Null(new ResultCache(folder.Path).TryGet(Key(), _ => Assert.Fail("no warning expected")));
    }
}
