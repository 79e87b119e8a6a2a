using PerfLab.Disassembly;
using PerfLab.Notebooks.Tests.Support;
using static PerfLab.Notebooks.Tests.Support.NotebookClaims;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// What jit/01 (tiering and PGO), jit/02 (stack allocation) and jit/03 (devirtualization) tell the reader
/// about the code each runtime generates and the bytes it allocates, checked on the listings the notebook
/// routes captured in this test run. These facts do not depend on the machine (the times do, and are not asserted).
/// </summary>
[Collection(BothRoutes.Name)]
public class JitTieringAllocationClaimsTests(CourseRun course)
{
    private const string Tiering = "jit/01-tiering-and-pgo.ipynb";
    internal const string StackAllocation = "jit/02-stack-allocation.ipynb";
    private const string Devirtualization = "jit/03-devirtualization.ipynb";

    [Fact]
    public async Task Tiering_a_loop_method_is_instrumented_from_its_first_compile_and_tier1_drops_probes_patchpoint_and_range_check()
    {
        var first = await RouteListingsAsync(Tiering, "class Climb", AsmVariant.Tier0, null, "CountEven");
        var steady = await RouteListingsAsync(Tiering, "class Climb", AsmVariant.SteadyState, null, "CountEven");

        foreach (var runtime in AllRuntimes)
        {
            var tier0 = Only(first, runtime);
            var tier1 = Only(steady, runtime);
            Assert.Equal("Instrumented Tier0", tier0.Tier);
            Assert.Contains("CORINFO_HELP_COUNTPROFILE32", tier0.Helpers);
            Assert.Contains("CORINFO_HELP_PATCHPOINT", tier0.Helpers);
            Assert.Equal(1, tier0.BoundsChecks);
            Assert.Equal("Tier1", tier1.Tier);
            Assert.True(tier1.UsesPgo, $"{runtime}: Tier1 without PGO");
            Assert.Empty(tier1.Helpers);
            Assert.True(tier0.CodeSize > 3 * tier1.CodeSize, $"{runtime}: Tier0 {tier0.CodeSize} bytes, Tier1 {tier1.CodeSize} bytes");
        }
    }

    [X64Fact("the notebook states the sizes of x64 listings")]
    public async Task Tiering_the_type_test_gets_a_profiled_guess_from_net9_on_and_loses_it_without_pgo_N9_J01()
    {
        var steady = await RouteListingsAsync(Tiering, "class PetCheck", AsmVariant.SteadyState, null, "IsDog");
        var noPgo = await RouteListingsAsync(Tiering, "class PetCheck", AsmVariant.NoPgo, null, "IsDog");

        static bool Guesses(AsmListing listing) => listing.Instructions.Any(l => l.StartsWith("cmp", StringComparison.Ordinal) && l.Contains("qword ptr [r", StringComparison.Ordinal));
        Assert.False(Guesses(Only(steady, "net8.0")));
        Assert.Equal(35, Only(steady, "net8.0").CodeSize); // the post's .NET 8 listing: 35 bytes
        Assert.True(Guesses(Only(steady, "net9.0")));
        Assert.InRange(Only(steady, "net9.0").CodeSize, 55, 70); // the post's .NET 9 listing: 62 bytes
        Assert.True(Guesses(Only(steady, "net10.0")));
        foreach (var runtime in AllRuntimes)
        {
            Assert.Contains("CORINFO_HELP_ISINSTANCEOFCLASS", Only(steady, runtime).Helpers);
            Assert.False(Guesses(Only(noPgo, runtime)), $"{runtime}: a type guess without PGO");
        }
    }

    [Fact]
    public void Stack_allocation_bytes_go_to_zero_on_the_runtime_each_notebook_section_names()
    {
        var bytes = course.QuickRoute.BytesOf(StackAllocation);

        // (method, .NET 8, .NET 9, .NET 10): N9-J25, N9-J26 from .NET 9; N10-J02, J03, J20 from .NET 10.
        foreach (var (method, net8, net9, net10) in new[] { ("ShiftHours", 24, 0, 0), ("BothSpellings", 24, 0, 0), ("WidestHeader", 48, 48, 0), ("Paint", 32, 32, 0), ("LongestDay", 32, 32, 0) })
        {
            AllocatesAbout(net8, bytes[(method, "net8.0")], $"{method} on net8.0");
            AllocatesAbout(net9, bytes[(method, "net9.0")], $"{method} on net9.0");
            AllocatesAbout(net10, bytes[(method, "net10.0")], $"{method} on net10.0");
        }
    }

    [X64Fact("the notebook states the sizes of x64 listings")]
    public async Task Stack_allocation_listings_lose_their_allocation_helper_calls()
    {
        var shortLived = await RouteListingsAsync(StackAllocation, "class ShortLived", AsmVariant.SteadyState, null, "ShiftHours");
        var words = await RouteListingsAsync(StackAllocation, "class ThreeWords", AsmVariant.SteadyState, null, "WidestHeader");

        Assert.Equal((43, 6, 6), (Only(shortLived, "net8.0").CodeSize, Only(shortLived, "net9.0").CodeSize, Only(shortLived, "net10.0").CodeSize));
        Assert.Contains("CORINFO_HELP_NEWSFAST", Only(shortLived, "net8.0").Helpers);
        Assert.Contains("CORINFO_HELP_NEWARR_1_OBJ", Only(words, "net9.0").Helpers);
        Assert.Equal(0, Only(words, "net10.0").Allocations);
    }

    [X64Fact("the notebook states the sizes of x64 listings")]
    public async Task Devirtualization_a_static_readonly_field_folds_in_steady_state_but_not_in_fullopts_C30_JT02()
    {
        var steady = await RouteListingsAsync(Devirtualization, "class KnownType");
        var fullOpts = await RouteListingsAsync(Devirtualization, "class KnownType", AsmVariant.FullOpts, null);

        foreach (var runtime in AllRuntimes)
        {
            Assert.Equal(6, Method(steady, runtime, "ThroughStaticReadonly").CodeSize); // mov eax, 4; ret
            Assert.Contains(Method(steady, runtime, "ThroughField").Instructions, l => l.StartsWith("cmp", StringComparison.Ordinal) && l.Contains("qword ptr [r", StringComparison.Ordinal));
            Assert.Contains(Method(fullOpts, runtime, "ThroughStaticReadonly").Instructions, l => l.StartsWith("tail.jmp", StringComparison.Ordinal));
            Assert.DoesNotContain(Method(fullOpts, runtime, "ThroughField").Instructions, l => l.StartsWith("cmp", StringComparison.Ordinal));
        }
    }

    [Fact]
    public async Task Devirtualization_net9_inlines_the_generic_throw_helper_that_net8_calls_N9_J27()
    {
        var report = await RouteListingsAsync(Devirtualization, "class SharedThrowHelper", AsmVariant.SteadyState, null, "Unreserved");

        static bool CallsThrowIfEqual(AsmListing listing) => listing.Instructions.Any(l => l.StartsWith("call", StringComparison.Ordinal) && l.Contains("ThrowIfEqual", StringComparison.Ordinal));
        Assert.True(CallsThrowIfEqual(Only(report, "net8.0")), "no call to ThrowIfEqual on .NET 8");
        Assert.False(CallsThrowIfEqual(Only(report, "net9.0")), ".NET 9 still calls ThrowIfEqual");
        Assert.False(CallsThrowIfEqual(Only(report, "net10.0")), ".NET 10 still calls ThrowIfEqual");
    }
}
