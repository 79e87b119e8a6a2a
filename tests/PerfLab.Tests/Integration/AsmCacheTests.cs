using System.Collections.Concurrent;
using PerfLab.Benchmarks;
using PerfLab.Disassembly;
using PerfLab.Processes;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;
using PerfLab.Views.Html;

namespace PerfLab.Tests.Integration;

/// <summary>Asm captures answered from the cache: real captures first, then what the cache does with them.</summary>
public class AsmCacheTests
{
    private const string Capturing = "capturing the JIT's code";

    private readonly AsmEngine _engine = new(TestHome.Shared);

    // Unique per test run: the first capture of each test is a real one.
    private static readonly string Facts = Sources.AsmFacts();

    private static AsmRequest Request(string method = "UnknownIndex", string? source = null, params string[] runtimes) => new()
    {
        Source = source ?? Facts,
        SourcePath = "Facts.cs",
        Methods = [method],
        Runtimes = RuntimeCatalog.FindAll(runtimes.Length == 0 ? ["net10.0"] : runtimes),
    };

    private static string Cached(string runtime) => $"{runtime}: cached listing (use --force to capture again)";

    private static async Task<(AsmReport Report, string[] Log)> CaptureAsync(AsmEngine engine, AsmRequest request)
    {
        var log = new ConcurrentQueue<string>();
        var report = await engine.CaptureAsync(request, log.Enqueue);
        return (report, log.ToArray());
    }

    private Task<(AsmReport Report, string[] Log)> CaptureAsync(AsmRequest request) => CaptureAsync(_engine, request);

    private static string EntryPath(PerfLabHome home, AsmRequest request, PinnedRuntime runtime) =>
        Path.Combine(home.AsmCache, ListingCache.Key(request, runtime.Version, new HostLayout().VersionOf(runtime)) + ".json");

    private static AsmListing Listing(AsmReport report, string runtime = "net10.0", string prefix = "Lookups:UnknownIndex")
    {
        var listing = report.Find(runtime, prefix);
        Assert.True(listing is not null, $"no listing of {prefix} on {runtime}:\n{report}");
        return listing;
    }

    [Fact]
    public async Task A_second_identical_capture_is_answered_from_the_cache_on_every_runtime()
    {
        var request = Request(source: Sources.AsmFacts(), runtimes: [.. RuntimeCatalog.Monikers]);

        var (first, firstLog) = await CaptureAsync(request);
        var (second, secondLog) = await CaptureAsync(request);

        Assert.Contains(firstLog, l => l.StartsWith(Capturing, StringComparison.Ordinal));
        Assert.DoesNotContain(firstLog, l => l.Contains("cached listing", StringComparison.Ordinal));

        // Nothing but the hits: no compile, no provisioning, no lock, no process.
        Assert.Equal(RuntimeCatalog.Monikers.Select(Cached), secondLog);
        Assert.Equal(first.ToString(), second.ToString());
        Assert.Equal(AsmHtml.Page(first), AsmHtml.Page(second));
        Assert.Equal(first.Runtimes.Select(r => r.Runtime), second.Runtimes.Select(r => r.Runtime));
    }

    [Fact]
    public async Task A_full_hit_neither_compiles_nor_waits_for_a_measuring_run()
    {
        // Its own home (net10.0 is the SDK's runtime: nothing to provision) so the test can hold the lock.
        using var folder = new TempFolder();
        var home = new PerfLabHome(folder.Path);
        var engine = new AsmEngine(home);
        var request = Request();
        var (first, _) = await CaptureAsync(engine, request);
        Directory.Delete(Path.Combine(folder.Path, "builds"), recursive: true);

        using (await FileLock.AcquireAsync(Path.Combine(home.Locks, "measure.lock"), shared: false, null, CancellationToken.None))
        {
            // A capture would wait for this lock before starting any process: the hit must not.
            var hit = CaptureAsync(engine, request);
            Assert.True(await Task.WhenAny(hit, Task.Delay(TimeSpan.FromSeconds(30))) == hit, "the second capture waited 30 s for the measuring lock instead of answering from the cache");
            var (second, log) = await hit;

            Assert.Equal([Cached("net10.0")], log);
            Assert.Equal(first.ToString(), second.ToString());
        }

        Assert.False(Directory.Exists(Path.Combine(folder.Path, "builds")), "a full hit compiled the source");
    }

    [Theory]
    [InlineData("source")]
    [InlineData("method")]
    [InlineData("fullopts")]
    [InlineData("nopgo")]
    [InlineData("tier0")]
    [InlineData("env")]
    public async Task A_change_in_source_method_variant_or_environment_is_a_miss(string change)
    {
        var request = Request();
        await CaptureAsync(request);
        var (_, again) = await CaptureAsync(request);
        Assert.Equal([Cached("net10.0")], again);

        var changed = change switch
        {
            "source" => request with { Source = request.Source + "\n// changed\n" },
            "method" => request with { Methods = ["Lookups.UnknownIndex"] },
            "fullopts" => request with { FullOpts = true },
            "nopgo" => request with { NoPgo = true },
            "tier0" => request with { Tier0 = true },
            _ => request with { Environment = new Dictionary<string, string> { ["PERFLAB_TEST_VALUE"] = "1" } },
        };
        var (report, log) = await CaptureAsync(changed);

        Assert.DoesNotContain(log, l => l.Contains("cached listing", StringComparison.Ordinal));
        Assert.Contains(log, l => l.StartsWith(Capturing, StringComparison.Ordinal));
        Assert.Equal(change switch { "fullopts" => "FullOpts", "tier0" => "Tier0", _ => "Tier1" }, Listing(report).Tier);
    }

    [Fact]
    public async Task Line_endings_source_path_and_timeouts_do_not_make_a_miss()
    {
        var request = Request(source: Sources.AsmFacts());
        await CaptureAsync(request);

        var (_, log) = await CaptureAsync(request with
        {
            Source = request.Source.ReplaceLineEndings("\r\n"),
            SourcePath = "Other.cs",
            DriveTimeout = TimeSpan.FromSeconds(3),
            ProcessTimeout = TimeSpan.FromSeconds(30),
        });

        Assert.Equal([Cached("net10.0")], log);
    }

    [Fact]
    public async Task Force_captures_again_and_replaces_the_entry()
    {
        var request = Request(source: Sources.AsmFacts());
        await CaptureAsync(request);

        // Mark the stored listing: a hit shows the mark, a capture cannot.
        var entry = EntryPath(TestHome.Shared, request, RuntimeCatalog.Find("net10.0"));
        var stored = File.ReadAllText(entry);
        Assert.Contains("\"tier\":\"Tier1\"", stored, StringComparison.Ordinal);
        File.WriteAllText(entry, stored.Replace("\"tier\":\"Tier1\"", "\"tier\":\"Marked\"", StringComparison.Ordinal));
        Assert.Equal("Marked", Listing((await CaptureAsync(request)).Report).Tier);

        var (forced, forcedLog) = await CaptureAsync(request with { Force = true });
        Assert.DoesNotContain(forcedLog, l => l.Contains("cached listing", StringComparison.Ordinal));
        Assert.Contains(forcedLog, l => l.StartsWith(Capturing, StringComparison.Ordinal));
        Assert.Equal("Tier1", Listing(forced).Tier);

        var (after, afterLog) = await CaptureAsync(request);
        Assert.Equal([Cached("net10.0")], afterLog);
        Assert.Equal("Tier1", Listing(after).Tier);
    }

    [Fact]
    public async Task A_corrupt_entry_is_a_warning_and_a_fresh_capture()
    {
        var request = Request(source: Sources.AsmFacts());
        var (first, _) = await CaptureAsync(request);
        var entry = EntryPath(TestHome.Shared, request, RuntimeCatalog.Find("net10.0"));
        File.WriteAllText(entry, "{ \"version\": 1, \"key\": ");

        var (report, log) = await CaptureAsync(request);

        Assert.StartsWith($"Ignored a corrupt cached listing ({entry}: ", log[0], StringComparison.Ordinal);
        Assert.EndsWith("; capturing again.", log[0], StringComparison.Ordinal);
        Assert.Contains(log, l => l.StartsWith(Capturing, StringComparison.Ordinal));
        Assert.Equal(Listing(first).Lines, Listing(report).Lines);
        Assert.Equal([Cached("net10.0")], (await CaptureAsync(request)).Log);
    }

    [Fact]
    public async Task A_partial_hit_captures_only_the_missing_runtimes_and_keeps_the_order()
    {
        var source = Sources.AsmFacts();
        var (alone, _) = await CaptureAsync(Request(source: source, runtimes: "net10.0"));

        var (both, log) = await CaptureAsync(Request(source: source, runtimes: ["net9.0", "net10.0"]));

        Assert.Contains(Cached("net10.0"), log);
        Assert.DoesNotContain(Cached("net9.0"), log);
        Assert.Contains("capturing the JIT's code for UnknownIndex on net9.0", log);
        Assert.Equal(["net9.0", "net10.0"], both.Runtimes.Select(r => r.Runtime));
        Assert.Equal(Listing(alone).Lines, Listing(both).Lines);
        Assert.NotNull(Listing(both, "net9.0"));
    }

    [Fact]
    public async Task Without_a_name_each_runtime_shows_its_own_benchmark_methods_cached_or_not()
    {
        var source = $$"""
            // {{Guid.NewGuid()}}
            public class Versions
            {
                [Benchmark] public int Common() => 1;
            #if NET10_0_OR_GREATER
                [Benchmark] public int Newer() => 2;
            #endif
            }
            """;
        var request = new AsmRequest { Source = source, SourcePath = "Versions.cs", Runtimes = [RuntimeCatalog.Find("net10.0")] };
        await CaptureAsync(request);

        var (report, log) = await CaptureAsync(request with { Runtimes = RuntimeCatalog.FindAll(["net9.0", "net10.0"]) });

        Assert.Contains(Cached("net10.0"), log);
        Assert.Equal("Versions.Common, Versions.Newer", report.Method);
        Assert.NotNull(Listing(report, "net10.0", "Versions:Newer"));
        Assert.Null(report.Find("net9.0", "Versions:Newer"));
        Assert.NotNull(Listing(report, "net9.0", "Versions:Common"));
    }
}
