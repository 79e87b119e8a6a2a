using PerfLab.Disassembly;
using PerfLab.Tests.Support;
using PerfLab.Views.Html;

namespace PerfLab.Tests.Unit;

public class ListingCacheTests
{
    private static readonly AsmRequest Request = new() { Source = "src", SourcePath = "Facts.cs", Methods = ["Sum"] };

    private static string Key(AsmRequest? request = null, string runtime = "10.0.12", string host = "h1", string? generators = null) =>
        ListingCache.Key(request ?? Request, runtime, host, generators);

    [Fact]
    public void Every_input_changes_the_key()
    {
        var keys = new[]
        {
            Key(),
            Key(Request with { Source = "src2" }),
            Key(Request with { Methods = ["Max"] }),
            Key(Request with { Methods = ["Sum", "Max"] }),
            Key(Request with { Methods = ["Max", "Sum"] }),
            Key(Request with { Methods = [] }),
            Key(Request with { FullOpts = true }),
            Key(Request with { NoPgo = true }),
            Key(Request with { Tier0 = true }),
            Key(Request with { Environment = new Dictionary<string, string> { ["DOTNET_EnableAVX512F"] = "0" } }),
            Key(runtime: "10.0.13"),
            Key(host: "h2"),
            Key(generators: "regex:1"),
            Key(generators: "regex:2"),
        };
        Assert.Equal(keys.Length, keys.Distinct().Count());
    }

    [Fact]
    public void Line_endings_environment_order_path_timeouts_and_force_do_not_change_the_key()
    {
        Assert.Equal(Key(Request with { Source = "a\nb" }), Key(Request with { Source = "a\r\nb" }));
        Assert.Equal(
            Key(Request with { Environment = new Dictionary<string, string> { ["A"] = "1", ["B"] = "2" } }),
            Key(Request with { Environment = new Dictionary<string, string> { ["B"] = "2", ["A"] = "1" } }));
        Assert.Equal(Key(), Key(Request with { SourcePath = "cell 7", DriveTimeout = TimeSpan.FromSeconds(1), ProcessTimeout = TimeSpan.FromSeconds(9), Force = true }));
    }

    [Fact]
    public void A_stored_capture_reads_back_equal_in_everything_the_views_use()
    {
        using var folder = new TempFolder();
        var cache = new ListingCache(folder.Path);
        var original = ViewSnapshotTests.SampleAsm();
        for (var i = 0; i < original.Runtimes.Count; i++)
        {
            cache.Put(Key(runtime: original.Runtimes[i].Version), new CapturedAsm(["Work"], original.Runtimes[i]));
        }

        var read = original.Runtimes.Select(r => cache.TryGet(Key(runtime: r.Version), w => Assert.Fail(w))).ToArray();
        var copy = original with { Runtimes = read.Select(c => Assert.IsType<CapturedAsm>(c).Runtime).ToArray() };

        Assert.All(read, c => Assert.Equal(["Work"], c!.Methods));
        foreach (var (before, after) in original.Runtimes.Zip(copy.Runtimes))
        {
            Assert.Equal((before.Runtime, before.Version), (after.Runtime, after.Version));
            Assert.Equal(before.NotCompiled, after.NotCompiled);
            Assert.Equal(before.Listings.Count, after.Listings.Count);
            foreach (var (a, b) in before.Listings.Zip(after.Listings))
            {
                Assert.Equal((a.Method, a.Tier, a.UsesPgo, a.CodeSize), (b.Method, b.Tier, b.UsesPgo, b.CodeSize));
                Assert.Equal(a.Lines, b.Lines);
                Assert.Equal((a.BoundsChecks, a.Allocations, a.WriteBarriers, a.Calls, a.Loops), (b.BoundsChecks, b.Allocations, b.WriteBarriers, b.Calls, b.Loops));
                Assert.Equal((a.SameMethodKey, a.PrintsCSharpNames, a.IsOptimized, a.ToString()), (b.SameMethodKey, b.PrintsCSharpNames, b.IsOptimized, b.ToString()));
            }
        }

        // The sample has something to lose: counts, a changed runtime, a method not compiled.
        Assert.Contains(original.Runtimes.SelectMany(r => r.Listings), l => l.BoundsChecks > 0 && l.Allocations > 0 && l.Loops > 0);
        Assert.Equal(original.Summaries(), copy.Summaries());
        Assert.Equal(original.ToString(), copy.ToString());
        Assert.Equal(AsmHtml.Page(original), AsmHtml.Page(copy));
    }

    [Fact]
    public void The_counts_are_not_stored_but_computed_from_the_lines()
    {
        using var folder = new TempFolder();
        new ListingCache(folder.Path).Put(Key(), new CapturedAsm(["Work"], ViewSnapshotTests.SampleAsm().Runtimes[0]));

        using var entry = System.Text.Json.JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, Key() + ".json")));
        var listing = entry.RootElement.GetProperty("runtime").GetProperty("listings")[0];
        Assert.Equal(["method", "tier", "usesPgo", "codeSize", "lines"], listing.EnumerateObject().Select(p => p.Name));
    }

    [Theory]
    [InlineData("{ not json")]
    [InlineData("""{"version":1,"key":"KEY","methods":["Work"]}""")]
    [InlineData("""{"version":1,"key":"KEY","methods":["Work"],"runtime":{"runtime":"net10.0","version":"10.0.12","listings":[null],"notCompiled":[]}}""")]
    [InlineData("""{"version":1,"key":"KEY","methods":["Work"],"runtime":{"runtime":"net10.0","version":"10.0.12","listings":[{"method":"M","tier":"Tier1","usesPgo":false,"codeSize":1,"lines":null}],"notCompiled":[]}}""")]
    [InlineData("""{"version":2,"key":"KEY","methods":["Work"],"runtime":{"runtime":"net10.0","version":"10.0.12","listings":[],"notCompiled":[]}}""")]
    [InlineData("""{"version":1,"key":"another","methods":["Work"],"runtime":{"runtime":"net10.0","version":"10.0.12","listings":[],"notCompiled":[]}}""")]
    public void A_corrupt_or_incomplete_entry_is_a_miss_with_a_warning(string content)
    {
        using var folder = new TempFolder();
        var cache = new ListingCache(folder.Path);
        File.WriteAllText(Path.Combine(folder.Path, Key() + ".json"), content.Replace("KEY", Key(), StringComparison.Ordinal));
        var warnings = new List<string>();

        Assert.Null(cache.TryGet(Key(), warnings.Add));
        var warning = Assert.Single(warnings);
        Assert.StartsWith("Ignored a corrupt cached listing (", warning, StringComparison.Ordinal);
        Assert.EndsWith("; capturing again.", warning, StringComparison.Ordinal);
    }

    [Fact]
    public void A_complete_entry_written_by_hand_is_a_hit()
    {
        // The incomplete entries above fail for what they lack, not for their shape.
        using var folder = new TempFolder();
        File.WriteAllText(Path.Combine(folder.Path, Key() + ".json"), $$$"""{"version":1,"key":"{{{Key()}}}","methods":["Work"],"runtime":{"runtime":"net10.0","version":"10.0.12","listings":[{"method":"M","tier":"Tier1","usesPgo":false,"codeSize":1,"lines":["ret"]}],"notCompiled":[]}}""");

        var hit = new ListingCache(folder.Path).TryGet(Key(), w => Assert.Fail(w));
        Assert.Equal("ret", Assert.Single(Assert.Single(hit!.Runtime.Listings).Lines));
    }

    [Fact]
    public void A_miss_is_silent()
    {
        using var folder = new TempFolder();
        Assert.Null(new ListingCache(folder.Path).TryGet(Key(), _ => Assert.Fail("no warning expected")));
    }
}
