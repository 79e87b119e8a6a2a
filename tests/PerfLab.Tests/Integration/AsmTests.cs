using PerfLab.Disassembly;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>Real JIT output of .NET 8, 9 and 10, captured in the steady state; facts that do not depend on the machine.</summary>
public class AsmTests
{
    private readonly AsmEngine _engine = new(TestHome.Shared);

    private static readonly string Facts = Sources.AsmFacts();

    private Task<AsmReport> Capture(string method, string? source = null, params string[] runtimes) => _engine.CaptureAsync(new AsmRequest
    {
        Source = source ?? Facts,
        SourcePath = "Facts.cs",
        Methods = [method],
        Runtimes = RuntimeCatalog.FindAll(runtimes),
    });

    private static AsmListing Listing(AsmReport report, string runtime, string prefix)
    {
        var listing = report.Find(runtime, prefix);
        Assert.True(listing is not null, $"no listing of {prefix} on {runtime}:\n{report}");
        return listing;
    }

    [Fact]
    public async Task A_static_readonly_array_read_at_a_constant_index_has_no_bounds_check()
    {
        var report = await Capture("ConstantIndex");
        foreach (var runtime in RuntimeCatalog.Monikers)
        {
            var listing = Listing(report, runtime, "Lookups:ConstantIndex");
            Assert.Equal("Tier1", listing.Tier);
            Assert.Equal(0, listing.BoundsChecks);
        }
    }

    [Fact]
    public async Task An_instance_array_read_at_an_unknown_index_keeps_its_bounds_check()
    {
        var report = await Capture("UnknownIndex");
        Assert.All(RuntimeCatalog.Monikers, runtime => Assert.Equal(1, Listing(report, runtime, "Lookups:UnknownIndex").BoundsChecks));
    }

    [Fact]
    public async Task Switch_on_span_length_loses_its_six_bounds_checks_on_net10_N10_J16()
    {
        var report = await Capture("LengthSwitch.Pack", null, "net9.0", "net10.0");

        Assert.Equal(6, Listing(report, "net9.0", "LengthSwitch:Pack(").BoundsChecks);
        Assert.Equal(0, Listing(report, "net10.0", "LengthSwitch:Pack(").BoundsChecks);
        Assert.Contains(report.Summaries(), s => s.Contains("net9.0 -> net10.0: ", StringComparison.Ordinal) && s.Contains("bounds checks 6 -> 0", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_captured_lambda_allocates_twice_on_net9_and_once_on_net10_N10_J01()
    {
        var report = await Capture("Closures.Scaled", null, "net9.0", "net10.0");

        Assert.Equal(2, Listing(report, "net9.0", "Closures:Scaled").Allocations);
        Assert.Equal(1, Listing(report, "net10.0", "Closures:Scaled").Allocations);
        Assert.Contains(report.Summaries(), s => s.StartsWith("Closures:Scaled(int):int:this: net9.0 -> net10.0:", StringComparison.Ordinal) && s.Contains("allocations 2 -> 1", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("Largest", "Shapes:Largest[")]
    [InlineData("Helper", "Shapes:Helper(")]
    [InlineData("Twice", "Shapes:<Run>g__Twice|")]
    [InlineData("Count", "Shapes:get_Count(")]
    [InlineData("Scale(double)", "Shapes:Scale(double)")]
    public async Task Generic_methods_noinline_callees_local_functions_getters_and_overloads_are_found(string name, string jitPrefix)
    {
        var report = await Capture(name, Sources.AsmNames(), "net10.0");
        Assert.NotNull(Listing(report, "net10.0", jitPrefix));
    }

    [Fact]
    public async Task A_capture_ends_once_its_listing_shows_optimized_code_not_at_its_time_limit()
    {
        // The JIT buffers its listing file (4 KB) until exit: unflushed, the drive never saw the Tier1 listing it waits
        // for and ran to its limit on every capture. With a limit far past the process timeout, such a drive is killed.
        var request = new AsmRequest
        {
            Source = Sources.AsmLoop(),
            SourcePath = "Loop.cs",
            Methods = ["Weighted"],
            Runtimes = [RuntimeCatalog.Find("net10.0")],
            Force = true,
            DriveTimeout = TimeSpan.FromMinutes(10),
            ProcessTimeout = TimeSpan.FromSeconds(90),
        };
        try
        {
            var report = await _engine.CaptureAsync(request);
            Assert.Equal("Tier1", Listing(report, "net10.0", "Readings:Weighted(").Tier);
        }
        catch (PerfLabException ex) when (ex.Message.Contains("did not return", StringComparison.Ordinal))
        {
            Assert.Fail($"The drive did not end when the JIT wrote Tier1 code; it waited for its limit until the process was killed: {ex.Message}");
        }
    }

    [Fact]
    public async Task Lambdas_come_along_with_the_method_that_declares_them()
    {
        var report = await Capture("Closures.Scaled", null, "net10.0");
        Assert.Contains(report.Runtimes[0].Listings.Select(l => l.Method).Concat(report.Runtimes[0].NotCompiled), m => m.Contains("lambda", StringComparison.Ordinal) || m.Contains(">b__", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Fullopts_shows_the_first_fully_optimized_compile_as_sharplab_does()
    {
        var report = await _engine.CaptureAsync(new AsmRequest { Source = Facts, SourcePath = "Facts.cs", Methods = ["UnknownIndex"], Runtimes = [RuntimeCatalog.Find("net10.0")], FullOpts = true });

        var listing = Listing(report, "net10.0", "Lookups:UnknownIndex");
        Assert.Equal("FullOpts", listing.Tier);
        Assert.False(listing.UsesPgo);
        Assert.StartsWith("FullOpts", report.Variant, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Tier0_shows_the_first_unoptimized_compile_larger_than_the_steady_state()
    {
        var request = new AsmRequest { Source = Facts, SourcePath = "Facts.cs", Methods = ["UnknownIndex"], Runtimes = [RuntimeCatalog.Find("net10.0")] };
        var steady = Listing(await _engine.CaptureAsync(request), "net10.0", "Lookups:UnknownIndex");
        var report = await _engine.CaptureAsync(request with { Tier0 = true });

        var first = Listing(report, "net10.0", "Lookups:UnknownIndex");
        Assert.Equal("Tier0", first.Tier);
        Assert.Equal("Tier1", steady.Tier);
        Assert.True(first.CodeSize > steady.CodeSize, $"Tier0 {first.CodeSize} bytes, Tier1 {steady.CodeSize} bytes: unoptimized code should be the larger");
        Assert.StartsWith("Tier0", report.Variant, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Tier0_and_fullopts_together_are_refused_before_anything_runs()
    {
        var ex = await Assert.ThrowsAsync<PerfLabException>(() => _engine.CaptureAsync(new AsmRequest { Source = Facts, SourcePath = "Facts.cs", Tier0 = true, FullOpts = true }));
        Assert.Contains("exclude each other", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task No_pgo_gives_tier1_code_without_profile_data()
    {
        var request = new AsmRequest { Source = Facts, SourcePath = "Facts.cs", Methods = ["LengthSwitch.Pack"], Runtimes = [RuntimeCatalog.Find("net9.0")] };
        var withPgo = await _engine.CaptureAsync(request);
        var withoutPgo = await _engine.CaptureAsync(request with { NoPgo = true });

        Assert.True(Listing(withPgo, "net9.0", "LengthSwitch:Pack(").UsesPgo);
        var listing = Listing(withoutPgo, "net9.0", "LengthSwitch:Pack(");
        Assert.Equal("Tier1", listing.Tier);
        Assert.False(listing.UsesPgo);
    }

    [Fact]
    public async Task Without_a_name_every_benchmark_method_is_shown()
    {
        var report = await _engine.CaptureAsync(new AsmRequest { Source = Facts, SourcePath = "Facts.cs", Runtimes = [RuntimeCatalog.Find("net10.0")] });

        Assert.Equal("Lookups.ConstantIndex, Lookups.UnknownIndex, LengthSwitch.PackVersion, Closures.Scaled", report.Method);
        Assert.NotNull(Listing(report, "net10.0", "Lookups:UnknownIndex"));
        Assert.NotNull(Listing(report, "net10.0", "LengthSwitch:PackVersion"));
    }

    [Fact]
    public async Task A_name_that_matches_nothing_lists_close_matches()
    {
        var ex = await Assert.ThrowsAsync<PerfLabException>(() => Capture("UnknownIdx"));
        Assert.Equal("No method named 'UnknownIdx' in the benchmark source.", ex.Message);
        Assert.Contains("Lookups.UnknownIndex", ex.Fix, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Overloads_without_a_signature_are_listed_to_pick_from()
    {
        var ex = await Assert.ThrowsAsync<PerfLabException>(() => Capture("Scale", Sources.AsmNames(), "net10.0"));
        Assert.Equal("'Scale' is ambiguous: 2 overloads.", ex.Message);
        Assert.Contains("--method 'Shapes.Scale(int)'", ex.Fix, StringComparison.Ordinal);
        Assert.Contains("--method 'Shapes.Scale(double)'", ex.Fix, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_benchmark_returning_a_ref_struct_is_driven_and_shown_with_csharp_type_names()
    {
        const string source = """
            using BenchmarkDotNet.Attributes;

            public class SpanReturn
            {
                [Benchmark]
                [Arguments("ticket 4711 open")]
                public ReadOnlySpan<char> FirstWord(string line)
                {
                    var end = line.IndexOf(' ');
                    return end < 0 ? line.AsSpan() : line.AsSpan(0, end);
                }
            }
            """;

        var report = await Capture("FirstWord", source);

        // Reflection cannot call it; a stub that does not inline it lets tiering reach Tier1 on every runtime.
        var view = Assert.Single(report.Methods());
        Assert.Equal("SpanReturn:FirstWord(System.String):System.ReadOnlySpan`1[char]:this", view.Method);
        Assert.All(RuntimeCatalog.Monikers, runtime => Assert.StartsWith("Tier1", Listing(report, runtime, "SpanReturn:FirstWord").Tier, StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_benchmark_that_throws_says_so()
    {
        var ex = await Assert.ThrowsAsync<PerfLabException>(() => Capture("Explode", Sources.Throws(), "net10.0"));
        Assert.StartsWith("The benchmark threw on net10.0: System.InvalidOperationException: the reader's benchmark failed on purpose", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_benchmark_that_never_returns_is_killed_at_the_timeout()
    {
        using var home = new TempFolder();
        var engine = new AsmEngine(new PerfLabHome(home.Path));
        var request = new AsmRequest { Source = Sources.EndlessLoop(), SourcePath = "Endless.cs", Methods = ["Spin"], Runtimes = [RuntimeCatalog.Find("net10.0")], ProcessTimeout = TimeSpan.FromSeconds(4) };

        var ex = await Assert.ThrowsAsync<PerfLabException>(() => engine.CaptureAsync(request));

        Assert.Equal("The benchmark did not return within 4 s on net10.0; its process tree was killed.", ex.Message);
        Assert.Empty(CliProcess.ProcessesMentioning(home.Path));
    }
}
