using PerfLab.Notebooks.Tests.Support;
using static PerfLab.Notebooks.Tests.Support.NotebookClaims;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// What the collections track says of listings (the notebook routes' captures in this test run) and of bytes
/// per call: exact bytes from the quick route (<see cref="SteadyStateRuns"/>), kilobytes and more from the
/// routes' smoke runs.
/// </summary>
[Collection(BothRoutes.Name)]
public class CollectionsClaimsTests(CourseRun course)
{
    internal const string Enumeration = "collections/01-enumeration.ipynb";
    internal const string Linq = "collections/02-linq.ipynb";
    internal const string Dictionaries = "collections/03-dictionaries-and-frozen.ipynb";
    internal const string Specialized = "collections/04-specialized.ipynb";

    /// <summary>collections/03's lookups (and read-only tables) that the text says allocate nothing per call.</summary>
    internal static readonly string[] LookupsThatAllocateNothing = ["StartingMaterial", "TwelveSlices", "TenReasons", "Immutable", "Mutable", "Frozen", "ReadDictionary", "ReadFrozen"];

    [Fact]
    public void Enumeration_boxed_enumerators_cost_40_and_56_bytes_on_net8_and_net9_and_nothing_on_net10_N10_C02_C04()
    {
        var bytes = course.QuickRoute.BytesOf(Enumeration);

        foreach (var runtime in AllRuntimes)
        {
            AllocatesAbout(0, bytes[("WalkStack", runtime)], $"WalkStack on {runtime}");
        }

        AllocatesAbout(40, bytes[("WalkStackAsSequence", "net8.0")], "WalkStackAsSequence on net8.0");
        AllocatesAbout(40, bytes[("WalkStackAsSequence", "net9.0")], "WalkStackAsSequence on net9.0");
        AllocatesAbout(0, bytes[("WalkStackAsSequence", "net10.0")], "WalkStackAsSequence on net10.0");
        AllocatesAbout(56, bytes[("UnitsInStock", "net8.0")], "UnitsInStock on net8.0");
        AllocatesAbout(56, bytes[("UnitsInStock", "net9.0")], "UnitsInStock on net9.0");
        AllocatesAbout(0, bytes[("UnitsInStock", "net10.0")], "UnitsInStock on net10.0");
    }

    [X64Fact("the notebook states the sizes of x64 listings")]
    public async Task Enumeration_the_stack_loop_shrinks_to_about_55_bytes_without_calls_on_net10_N10_C02()
    {
        var report = await RouteListingsAsync(Enumeration, "class UndoHistory", AsmVariant.SteadyState, null, "WalkStack");

        // .NET 9's size comes from a PGO-shaped layout and moves by a byte between runs (331 or 332): a range.
        Assert.InRange(Only(report, "net9.0").CodeSize, 300, 360);
        Assert.InRange(Only(report, "net10.0").CodeSize, 40, 60);
        Assert.Contains("CORINFO_HELP_NEWSFAST", Only(report, "net9.0").Helpers); // the exception on the version-check path
        Assert.Equal(0, Only(report, "net10.0").Calls);
        Assert.Equal(0, Only(report, "net10.0").BoundsChecks);
    }

    [Fact]
    public void Linq_predicate_overloads_drop_the_boxed_list_enumerator_on_net9_N9_C01()
    {
        var methods = new[] { "AnyNegative", "AllNonNegative", "CountEven", "FirstFromTheEnd", "SingleMatch" };
        var bytes = course.QuickRoute.BytesOf(Linq);

        foreach (var method in methods)
        {
            AllocatesAbout(40, bytes[(method, "net8.0")], $"{method} on net8.0");
            AllocatesAbout(0, bytes[(method, "net9.0")], $"{method} on net9.0");
        }
    }

    [Fact]
    public void Linq_contains_after_distinct_union_and_orderby_stops_building_sets_and_buffers_on_net10_N10_C05()
    {
        var bytes = course.QuickRoute.BytesOf(Linq);

        foreach (var method in new[] { "AfterDistinct", "AfterUnion", "AfterOrderBy" })
        {
            Assert.True(bytes[(method, "net9.0")] > 10_000, $"{method} on net9.0: {bytes[(method, "net9.0")]} B per call; the notebook says tens of kilobytes");
            Assert.True(bytes[(method, "net10.0")] < 200, $"{method} on net10.0: {bytes[(method, "net10.0")]} B per call; the notebook says only the iterator is left");
        }
    }

    [Fact]
    public async Task Dictionaries_lookups_allocate_nothing_and_a_frozen_build_allocates_more_than_a_dictionary_N10_C11_C12_C17_C30_CO03()
    {
        var lookups = course.QuickRoute.BytesOf(Dictionaries);
        // Builds allocate kilobytes: the routes' smoke runs tell them apart.
        var builds = await RouteAllocationsAsync(Dictionaries, ("class BuildOrRead", null));

        foreach (var runtime in new[] { "net9.0", "net10.0" })
        {
            foreach (var method in LookupsThatAllocateNothing)
            {
                AllocatesAbout(0, lookups[(method, runtime)], $"{method} on {runtime}");
            }

            Assert.True(builds[("BuildFrozen", runtime)] > builds[("BuildDictionary", runtime)], $"on {runtime} BuildFrozen allocated {builds[("BuildFrozen", runtime)]} B and BuildDictionary {builds[("BuildDictionary", runtime)]} B; the notebook says the frozen build allocates more");
        }
    }

    [Fact]
    public async Task Dictionaries_span_lookups_allocate_a_string_per_distinct_word_instead_of_one_per_word_N9_C02_C03()
    {
        var bytes = await RouteAllocationsAsync(Dictionaries, ("class WordCounts", ["net9.0", "net10.0"]));

        foreach (var runtime in new[] { "net9.0", "net10.0" })
        {
            var strings = bytes[("WithStrings", runtime)];
            var spans = bytes[("WithSpans", runtime)];
            var once = bytes[("WithOneLookup", runtime)];

            // 200,000 words, each a string of at least 24 bytes.
            Assert.True(strings > 200_000 * 24, $"WithStrings on {runtime}: {strings} B per call; one string per word is at least 4.8 MB");
            Assert.True(spans < strings / 4, $"WithSpans on {runtime}: {spans} B per call against {strings} B with strings; the notebook says only distinct words and the table remain");
            Assert.True(Math.Abs(once!.Value - spans!.Value) < spans / 20, $"WithOneLookup on {runtime}: {once} B per call against {spans} B for WithSpans; the notebook says they allocate the same");
        }
    }

    [Fact]
    public async Task Specialized_bitarray_get_and_set_inline_and_the_enum_comparer_folds_to_a_constant_C30_CO05_CO08()
    {
        var flip = await RouteListingsAsync(Specialized, "class FlipEveryBit", AsmVariant.SteadyState, null, "Flip");
        var compare = await RouteListingsAsync(Specialized, "class TicketTriage", AsmVariant.SteadyState, null, "UrgentOutranksLow");

        foreach (var runtime in AllRuntimes)
        {
            // The only calls left in the loop method are the throw helpers, out of the hot path.
            var calls = Only(flip, runtime).Instructions.Where(i => i.StartsWith("call", StringComparison.Ordinal)).ToArray();
            Assert.True(calls.All(c => c.Contains("Throw", StringComparison.Ordinal) || c.Contains("RNGCHKFAIL", StringComparison.Ordinal)), $"Flip on {runtime} calls: {string.Join("; ", calls)}; the notebook says Get and Set are inlined");

            var folded = Only(compare, runtime);
            Assert.Equal(0, folded.Calls);
            Assert.Equal(1, folded.Loops);
            // outranked++ is all that is left of the comparison.
            Assert.Contains(folded.Instructions, i => i.StartsWith("inc", StringComparison.Ordinal) && i.EndsWith("eax", StringComparison.Ordinal));
        }
    }

    [Fact]
    public async Task Specialized_insertrange_allocates_the_same_and_clear_stops_regrowing_the_table_on_net10_N10_C15_C16()
    {
        var inserts = course.QuickRoute.BytesOf(Specialized);
        // Tens of kilobytes: the routes' smoke runs tell them apart.
        var refills = await RouteAllocationsAsync(Specialized, ("class SensorSnapshot", ["net9.0", "net10.0"]));

        var inserted = inserts[("PriorityFirst", "net9.0")]!.Value;
        AllocatesAbout((int)inserted, inserts[("PriorityFirst", "net10.0")], "PriorityFirst on net10.0 (the notebook says the bytes are the same as on net9.0)");

        // The post: 134.36 KB on .NET 9, 48.73 KB on .NET 10.
        var refill9 = refills[("Reload", "net9.0")];
        var refill10 = refills[("Reload", "net10.0")];
        Assert.True(refill9 > 2 * refill10 && refill10 < 64 * 1024, $"Reload: {refill9} B on net9.0, {refill10} B on net10.0; the notebook says .NET 10 stops allocating the growth steps' bucket arrays");
    }
}
