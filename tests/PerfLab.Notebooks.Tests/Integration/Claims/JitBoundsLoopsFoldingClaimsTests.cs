using PerfLab.Disassembly;
using PerfLab.Notebooks.Tests.Support;
using static PerfLab.Notebooks.Tests.Support.NotebookClaims;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// What jit/04 (bounds checks), jit/05 (loops and inlining) and jit/06 (folding, branches, barriers) say each
/// listing holds, checked on the listings the notebook routes captured in this test run.
/// </summary>
[Collection(BothRoutes.Name)]
public class JitBoundsLoopsFoldingClaimsTests
{
    private const string BoundsChecks = "jit/04-bounds-checks.ipynb";
    private const string Loops = "jit/05-loops-and-inlining.ipynb";
    private const string Folding = "jit/06-folding-branches-barriers.ipynb";

    // The methods each notebook cell's Lab.AsmAsync<X>(...) names (none: the whole class); a claim reads that capture.
    private static readonly Dictionary<string, string[]> CellMethods = new()
    {
        ["class LoopConditions"] = ["AddWhile", "AddFor"],
        ["class EarlierFacts"] = ["FirstEqualsLast", "DotAfterPrefix", "NotAfterNewline", "StoreThenSkip"],
        ["class ShapeFacts"] = ["UnrolledSum", "AddByLength"],
        ["class DeadBranches"] = ["Implied", "Impossible", "Unreachable", "PinFresh", "FindSorted"],
        ["class Barriers"] = ["Record", "CopyFrame", "Tally.Add", "Slice", "Snapshot", "MarkDone"],
    };

    private static async Task<AsmListing> ListingAsync(string notebook, string marker, string method, string runtime) =>
        Method(await CellListingsAsync(notebook, marker), runtime, method);

    private static Task<AsmReport> CellListingsAsync(string notebook, string marker) =>
        marker == "class ProofTimings"
            // jit/04 times these and shows no listing; its text says what their listings hold, so the claim captures them.
            ? OwnListingsAsync(notebook, marker, [], "HighBits", "AddByLength")
            : RouteListingsAsync(notebook, marker, AsmVariant.SteadyState, null, CellMethods.GetValueOrDefault(marker, []));

    // (class, method, per runtime 8/9/10: bounds checks and size) as notebook jit/04's text states them.
    [Theory]
    [InlineData("class ThreeSlots", "FromField", 1, 25, 1, 25, 1, 25)]
    [InlineData("class ThreeSlots", "FromStaticReadonly", 1, 35, 1, 35, 0, 14)]
    [InlineData("class FieldLoop", "SumLocal", 0, 35, 0, 35, 0, 35)]
    [InlineData("class FieldLoop", "SumField", 1, 61, 1, 59, 1, 59)]
    [InlineData("class LoopConditions", "AddWhile", 0, 27, 0, 27, 0, 27, 1)] // .NET 10: 26 or 27 between runs
    [InlineData("class LoopConditions", "AddFor", 1, 36, 0, 26, 0, 26)]
    [InlineData("class TableLookups", "HighestBit", 1, 74, 1, 74, 0, 58)]
    [InlineData("class TableLookups", "DigitEstimate", 1, 45, 1, 45, 0, 29)]
    [InlineData("class EarlierFacts", "FirstEqualsLast", 2, 41, 2, 41, 1, 34)]
    [InlineData("class EarlierFacts", "DotAfterPrefix", 1, 42, 1, 42, 0, 26)]
    [InlineData("class EarlierFacts", "NotAfterNewline", 1, 55, 1, 55, 0, 45)]
    [InlineData("class EarlierFacts", "StoreThenSkip", 1, 48, 1, 48, 1, 31)]
    [InlineData("class ShapeFacts", "UnrolledSum", 1, 112, 1, 92, 0, 102)]
    [InlineData("class ShapeFacts", "AddByLength", 6, 103, 6, 103, 0, 70)]
    [InlineData("class ProofTimings", "HighBits", 1, 128, 1, 120, 0, 109)]
    [InlineData("class ProofTimings", "AddByLength", 6, 98, 6, 98, 0, 65)]
    public async Task Bounds_checks_each_listing_has_the_checks_and_size_the_notebook_states(string marker, string method, int checks8, int size8, int checks9, int size9, int checks10, int size10, int slack = 0)
    {
        foreach (var (runtime, checks, size) in new[] { ("net8.0", checks8, size8), ("net9.0", checks9, size9), ("net10.0", checks10, size10) })
        {
            var listing = await ListingAsync(BoundsChecks, marker, method, runtime);
            Assert.True(checks == listing.BoundsChecks, $"{method} on {runtime}: {listing.BoundsChecks} bounds checks, the notebook says {checks}\n{listing}");
            SizeIs(size, listing, $"{method} on {runtime}", slack);
        }
    }

    [Fact]
    public async Task Bounds_checks_net10_drops_the_throw_helper_call_of_Slice_after_a_store_N10_J15()
    {
        var report = await CellListingsAsync(BoundsChecks, "class EarlierFacts");

        Assert.Equal(2, Method(report, "net9.0", "StoreThenSkip").Calls);
        Assert.Equal(1, Method(report, "net10.0", "StoreThenSkip").Calls);
        Assert.Equal(0, Method(report, "net10.0", "StoreThenSkip").Loops);
    }

    // (class, method, per runtime 8/9/10: loops and size) as notebook jit/05's text states them.
    [Theory]
    [InlineData("class CountLoops", "CountUp", 1, 19, 1, 19, 1, 19)]
    [InlineData("class CountLoops", "CountDown", 1, 19, 1, 19, 1, 19)]
    [InlineData("class IndexWalks", "Total", 1, 35, 1, 35, 1, 35)]
    [InlineData("class CloneLoops", "FillSpan", 1, 61, 1, 59, 2, 75)]
    [InlineData("class CloneLoops", "FillArray", 2, 71, 2, 71, 2, 71)]
    [InlineData("class CloneLoops", "EightStores", 0, 114, 0, 114, 0, 179)]
    public async Task Loops_each_listing_has_the_loops_and_size_the_notebook_states(string marker, string method, int loops8, int size8, int loops9, int size9, int loops10, int size10)
    {
        foreach (var (runtime, loops, size) in new[] { ("net8.0", loops8, size8), ("net9.0", loops9, size9), ("net10.0", loops10, size10) })
        {
            var listing = await ListingAsync(Loops, marker, method, runtime);
            Assert.True(loops == listing.Loops, $"{method} on {runtime}: {listing.Loops} loops, the notebook says {loops}\n{listing}");
            SizeIs(size, listing, $"{method} on {runtime}");
        }
    }

    [Fact]
    public async Task Loops_net9_counts_down_and_walks_a_pointer_and_net10_steps_two_arrays_by_2_N9_J03_J05_N10_J31()
    {
        var count = await CellListingsAsync(Loops, "class CountLoops");
        var walks = await CellListingsAsync(Loops, "class IndexWalks");

        Assert.Contains("cmp      ecx, 100", Method(count, "net8.0", "CountUp").Instructions);
        Assert.DoesNotContain(Method(count, "net9.0", "CountUp").Instructions, l => l.StartsWith("cmp", StringComparison.Ordinal));
        Assert.Contains(Method(count, "net9.0", "CountUp").Instructions, l => l.StartsWith("dec", StringComparison.Ordinal));
        Assert.Contains(Method(walks, "net8.0", "Total").Instructions, l => l.StartsWith("add", StringComparison.Ordinal) && l.Contains("+4*r", StringComparison.Ordinal));
        Assert.Contains(Method(walks, "net9.0", "Total").Instructions, l => l.StartsWith("add      r", StringComparison.Ordinal) && l.EndsWith(", 4", StringComparison.Ordinal));
        Assert.Contains(Method(walks, "net9.0", "DigitValues").Instructions, l => l.StartsWith("mov      dword ptr [rax+4*r", StringComparison.Ordinal));
        Assert.Contains(Method(walks, "net10.0", "DigitValues").Instructions, l => l.StartsWith("mov      dword ptr [rax+2*r", StringComparison.Ordinal));
        Assert.Contains(Method(walks, "net10.0", "DigitValues").Instructions, l => l.StartsWith("add      r", StringComparison.Ordinal) && l.EndsWith(", 2", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Loops_net10_inlines_try_finally_and_generic_virtual_callers_and_drops_a_dead_try_catch_N10_J21_J22_J23()
    {
        var limits = await CellListingsAsync(Loops, "class InliningLimits");

        static bool Calls(AsmListing listing, string callee) => listing.Instructions.Any(l => l.StartsWith("call", StringComparison.Ordinal) && l.Contains(callee, StringComparison.Ordinal));
        foreach (var runtime in new[] { "net8.0", "net9.0" })
        {
            Assert.True(Calls(Method(limits, runtime, "Locked"), ":EnterAndLeave("), $"{runtime} inlined EnterAndLeave");
            Assert.True(Calls(Method(limits, runtime, "Generic"), ":Dispatch("), $"{runtime} inlined Dispatch");
            SizeIs(79, Method(limits, runtime, "NeverThrows"), $"NeverThrows on {runtime}");
        }

        var locked = Method(limits, "net10.0", "Locked");
        var generic = Method(limits, "net10.0", "Generic");
        Assert.False(Calls(locked, ":EnterAndLeave("), ".NET 10 still calls EnterAndLeave");
        Assert.True(Calls(locked, "Monitor"), ".NET 10's Locked calls no Monitor method");
        Assert.False(Calls(generic, ":Dispatch("), ".NET 10 still calls Dispatch");
        Assert.True(Calls(generic, "VIRTUAL_FUNC_PTR") || Calls(generic, "VirtualFunctionPointer"), ".NET 10's Generic does not look up the virtual target");
        Assert.Equal(4, Method(limits, "net10.0", "NeverThrows").CodeSize);
    }

    // (class, method, size on 8/9/10) as notebook jit/06's text states them.
    [Theory]
    [InlineData("class Folding", "Workers", 17, 12, 12)]
    [InlineData("class Folding", "LabelOrDefault", 41, 41, 25)]
    [InlineData("class Folding", "HasDayName", 57, 58, 6)]
    [InlineData("class Folding", "TooBigForUInt", 15, 15, 11)]
    [InlineData("class CompareTricks", "OfficeHoursIf", 25, 13, 13)]
    [InlineData("class CompareTricks", "OfficeHours", 17, 18, 13)]
    [InlineData("class CompareTricks", "IsBase32Digit", 44, 39, 39)]
    [InlineData("class CompareTricks", "IsSeparator", 36, 43, 43)]
    [InlineData("class CompareTricks", "BreakOrSemicolon", 56, 63, 44)]
    [InlineData("class CompareTricks", "IsPunctuation", 22, 22, 15)]
    [InlineData("class DeadBranches", "Implied", 33, 22, 22)]
    [InlineData("class DeadBranches", "Impossible", 33, 1, 1)]
    [InlineData("class DeadBranches", "Unreachable", 35, 33, 1)]
    [InlineData("class DeadBranches", "PinFresh", 91, 50, 50)]
    [InlineData("class DeadBranches", "FindSorted", 72, 75, 75)]
    [InlineData("class Barriers", "Record", 33, 33, 33)]
    [InlineData("class Barriers", "Add", 17, 7, 7)] // Tally.Add
    [InlineData("class Barriers", "Slice", 61, 61, 27)]
    [InlineData("class Barriers", "Snapshot", 80, 80, 34)]
    [InlineData("class Barriers", "MarkDone", 52, 52, 69)]
    public async Task Folding_branches_barriers_each_listing_has_the_size_the_notebook_states(string marker, string method, int size8, int size9, int size10)
    {
        foreach (var (runtime, size) in new[] { ("net8.0", size8), ("net9.0", size9), ("net10.0", size10) })
        {
            SizeIs(size, await ListingAsync(Folding, marker, method, runtime), $"{method} on {runtime}");
        }
    }

    [Fact]
    public async Task Folding_the_instructions_the_notebook_points_at_are_in_the_listings()
    {
        var folding = await CellListingsAsync(Folding, "class Folding");
        var tricks = await CellListingsAsync(Folding, "class CompareTricks");
        var barriers = await CellListingsAsync(Folding, "class Barriers");
        var deadBranches = await CellListingsAsync(Folding, "class DeadBranches");
        AsmListing Tricks(string method, string runtime) => Method(tricks, runtime, method);
        AsmListing Barrier(string method, string runtime) => Method(barriers, runtime, method);
        AsmListing Dead(string method, string runtime) => Method(deadBranches, runtime, method);

        // WorkerLimit() is 2 * Environment.ProcessorCount, folded into an immediate (decimal when small, hex when large).
        var workerLimit = 2 * Environment.ProcessorCount;
        var workers = Method(folding, "net10.0", "Workers").Instructions;
        Assert.True(workers.Any(l => l.StartsWith("cmp      esi, ", StringComparison.Ordinal) && (l.EndsWith($" {workerLimit}", StringComparison.Ordinal) || l.EndsWith($"0x{workerLimit:X}", StringComparison.Ordinal))),
            $"Workers does not compare with {workerLimit}: {string.Join(" | ", workers)}");
        Assert.Contains(Tricks("IsPunctuation", "net10.0").Instructions, l => l.StartsWith("bt ", StringComparison.Ordinal));
        Assert.Contains("mov      eax, 0x1FC0000", Tricks("IsPunctuation", "net10.0").Instructions);
        // shlx needs BMI2, as mulx below does.
        Assert.Equal(System.Runtime.Intrinsics.X86.Bmi2.IsSupported, Tricks("IsPunctuation", "net9.0").Instructions.Any(l => l.StartsWith("shlx", StringComparison.Ordinal)));
        Assert.Contains(Tricks("IsSeparator", "net9.0").Instructions, l => l.StartsWith("bt ", StringComparison.Ordinal));
        // The mask with the bits of ',' (44), ':' (58) and ';' (59) clear, as the notebook reads it.
        Assert.Contains("mov      rax, 0x3FFEFFFFFFFFFFF", Tricks("IsSeparator", "net9.0").Instructions);
        Assert.Contains("cmp      esi, 32", Tricks("IsSeparator", "net9.0").Instructions);
        Assert.DoesNotContain(Tricks("BreakOrSemicolon", "net9.0").Instructions, l => l.StartsWith("bt ", StringComparison.Ordinal));
        Assert.Contains(Tricks("BreakOrSemicolon", "net10.0").Instructions, l => l.StartsWith("bt ", StringComparison.Ordinal));
        // N9-J19: the fixed statement's empty-array test and bounds check go on .NET 9.
        Assert.Contains("CORINFO_HELP_RNGCHKFAIL", Dead("PinFresh", "net8.0").Helpers);
        Assert.DoesNotContain("CORINFO_HELP_RNGCHKFAIL", Dead("PinFresh", "net9.0").Helpers);
        Assert.True(Dead("PinFresh", "net9.0").CodeSize < Dead("PinFresh", "net8.0").CodeSize, $"PinFresh: {Dead("PinFresh", "net8.0").CodeSize} bytes on net8.0, {Dead("PinFresh", "net9.0").CodeSize} on net9.0");
        Assert.DoesNotContain(Tricks("IsSeparator", "net8.0").Instructions, l => l.StartsWith("bt ", StringComparison.Ordinal));
        // mulx needs BMI2: on a CPU without it .NET 10 keeps mul, as the notebook says.
        Assert.Equal(System.Runtime.Intrinsics.X86.Bmi2.X64.IsSupported, Tricks("Minutes", "net10.0").Instructions.Any(l => l.StartsWith("mulx", StringComparison.Ordinal)));
        Assert.Contains("CORINFO_HELP_CHECKED_ASSIGN_REF", Barrier("Record", "net8.0").Helpers);
        Assert.Contains("CORINFO_HELP_ASSIGN_REF", Barrier("Record", "net9.0").Helpers);
        Assert.DoesNotContain("CORINFO_HELP_CHECKED_ASSIGN_REF", Barrier("Record", "net9.0").Helpers);
        Assert.Equal(4, Barrier("CopyFrame", "net8.0").Helpers.Count(h => h == "CORINFO_HELP_ASSIGN_BYREF"));
        Assert.Equal(1, Barrier("CopyFrame", "net9.0").WriteBarriers);
        Assert.Equal(1, Barrier("Add", "net8.0").WriteBarriers);
        Assert.Equal(0, Barrier("Add", "net9.0").WriteBarriers);
        Assert.Equal(4, Barrier("Snapshot", "net9.0").WriteBarriers);
        Assert.Equal(0, Barrier("Snapshot", "net10.0").WriteBarriers);
        Assert.Contains("CORINFO_HELP_ARRADDR_ST", Barrier("MarkDone", "net9.0").Helpers);
        Assert.DoesNotContain("CORINFO_HELP_ARRADDR_ST", Barrier("MarkDone", "net10.0").Helpers);

        // .NET 10 enters the search loop with a jump to the middle computation placed below; .NET 9 does not.
        static bool JumpsBeforeShr(AsmListing listing) =>
            listing.Instructions.TakeWhile(l => !l.StartsWith("shr", StringComparison.Ordinal)).Any(l => l.StartsWith("jmp", StringComparison.Ordinal));
        Assert.False(JumpsBeforeShr(Dead("FindSorted", "net9.0")), Dead("FindSorted", "net9.0").ToString());
        Assert.True(JumpsBeforeShr(Dead("FindSorted", "net10.0")), Dead("FindSorted", "net10.0").ToString());
    }
}
