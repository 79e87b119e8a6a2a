using PerfLab.Disassembly;
using PerfLab.Notebooks.Tests.Support;
using static PerfLab.Notebooks.Tests.Support.NotebookClaims;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// What jit/04 (bounds checks), jit/05 (loops and inlining) and jit/06 (folding, branches, barriers) say each
/// listing holds, checked on the listings the notebook routes captured in this test run.
/// </summary>
[Collection(BothRoutes.Name)]
public class JitBoundsLoopsFoldingClaimsTests(CourseRun course)
{
    private const string BoundsChecks = "jit/04-bounds-checks.ipynb";
    private const string Loops = "jit/05-loops-and-inlining.ipynb";
    private const string Folding = "jit/06-folding-branches-barriers.ipynb";

    // The methods each notebook cell's Lab.AsmAsync<X>(...) names (none: the whole class); a claim reads that capture.
    private static readonly Dictionary<string, string[]> CellMethods = new()
    {
        ["class ExitTests"] = ["HashTestInBody", "HashTestInHeader"],
        ["class ProvenBefore"] = ["Spread", "NextSuggested", "LastOfField", "LastOfFieldLowFirst", "WriteHeader"],
        ["class ShapeFacts"] = ["PairwiseTotal", "ParseOctet"],
        ["class DeadBranches"] = ["Implied", "Impossible", "Unreachable", "PinFresh", "FindSorted"],
        ["class Barriers"] = ["Record", "CopyFrame", "Tally.Add", "Slice", "Snapshot", "MarkDone"],
    };

    private static async Task<AsmListing> ListingAsync(string notebook, string marker, string method, string runtime) =>
        Method(await CellListingsAsync(notebook, marker), runtime, method);

    // Cells the notebooks time and show no listing of; their text says what the listings hold, so the claims capture them.
    private static readonly Dictionary<string, string[]> TimedOnly = new()
    {
        ["class ProofTimings"] = ["LowestBits", "ParseOctet"],
        ["class TrickTimings"] = ["CountOperators"],
        ["class BarrierTimings"] = ["MoveAt", "OpenReader"],
    };

    private static Task<AsmReport> CellListingsAsync(string notebook, string marker) =>
        TimedOnly.TryGetValue(marker, out var timed)
            ? OwnListingsAsync(notebook, marker, [], timed)
            : RouteListingsAsync(notebook, marker, AsmVariant.SteadyState, null, CellMethods.GetValueOrDefault(marker, []));

    // (class, method, per runtime 8/9/10: bounds checks and size) as notebook jit/04's text states them.
    [X64Theory("the notebook states the sizes of x64 listings")]
    [InlineData("class CalendarReads", "SundayVisits", 1, 25, 1, 25, 1, 25)]
    [InlineData("class CalendarReads", "DaysInFebruary", 0, 17, 0, 17, 0, 17)]
    [InlineData("class Ledger", "BalanceFromLocal", 0, 53, 0, 51, 0, 51)]
    [InlineData("class Ledger", "BalanceFromField", 1, 65, 1, 63, 1, 63)]
    [InlineData("class ExitTests", "HashTestInBody", 0, 46, 0, 42, 0, 42)]
    [InlineData("class ExitTests", "HashTestInHeader", 1, 54, 0, 42, 0, 42)]
    [InlineData("class BitTables", "LowestBit", 1, 45, 1, 45, 0, 29)]
    [InlineData("class BitTables", "VarintLength", 1, 45, 1, 45, 0, 29)]
    [InlineData("class ProvenBefore", "Spread", 2, 37, 2, 37, 1, 30)]
    [InlineData("class ProvenBefore", "NextSuggested", 1, 35, 1, 35, 0, 19)]
    [InlineData("class ProvenBefore", "LastOfField", 1, 43, 1, 43, 0, 33)]
    [InlineData("class ProvenBefore", "LastOfFieldLowFirst", 0, 33, 0, 33, 0, 33)]
    [InlineData("class ProvenBefore", "WriteHeader", 1, 46, 1, 46, 1, 29)]
    [InlineData("class ShapeFacts", "PairwiseTotal", 1, 110, 1, 88, 0, 100)]
    [InlineData("class ShapeFacts", "ParseOctet", 6, 141, 6, 141, 0, 107)]
    [InlineData("class ProofTimings", "LowestBits", 1, 84, 1, 76, 0, 65)]
    [InlineData("class ProofTimings", "ParseOctet", 6, 141, 6, 141, 0, 107)]
    public async Task Bounds_checks_each_listing_has_the_checks_and_size_the_notebook_states(string marker, string method, int checks8, int size8, int checks9, int size9, int checks10, int size10)
    {
        foreach (var (runtime, checks, size) in new[] { ("net8.0", checks8, size8), ("net9.0", checks9, size9), ("net10.0", checks10, size10) })
        {
            var listing = await ListingAsync(BoundsChecks, marker, method, runtime);
            Assert.True(checks == listing.BoundsChecks, $"{method} on {runtime}: {listing.BoundsChecks} bounds checks, the notebook says {checks}\n{listing}");
            SizeIs(size, listing, $"{method} on {runtime}");
        }
    }

    [Fact]
    public async Task Bounds_checks_net10_drops_the_throw_helper_call_of_Slice_after_a_store_N10_J15()
    {
        var report = await CellListingsAsync(BoundsChecks, "class ProvenBefore");

        Assert.Equal(2, Method(report, "net9.0", "WriteHeader").Calls);
        Assert.Equal(1, Method(report, "net10.0", "WriteHeader").Calls);
        Assert.Equal(0, Method(report, "net10.0", "WriteHeader").Loops);
    }

    [Fact]
    public async Task Bounds_checks_the_instructions_the_notebook_points_at_are_in_the_listings()
    {
        var reads = await CellListingsAsync(BoundsChecks, "class CalendarReads");
        var ledger = await CellListingsAsync(BoundsChecks, "class Ledger");
        var exits = await CellListingsAsync(BoundsChecks, "class ExitTests");
        var tables = await CellListingsAsync(BoundsChecks, "class BitTables");
        var proven = await CellListingsAsync(BoundsChecks, "class ProvenBefore");
        var shapes = await CellListingsAsync(BoundsChecks, "class ShapeFacts");

        // N10-J07/J08: the compare with index 6 and the loads at 0x28 and 0x14.
        Assert.Contains("cmp      dword ptr [rax+0x08], 6", Method(reads, "net10.0", "SundayVisits").Instructions);
        Assert.Contains("mov      eax, dword ptr [rax+0x28]", Method(reads, "net10.0", "SundayVisits").Instructions);
        Assert.Contains("mov      eax, dword ptr [rax+0x14]", Method(reads, "net8.0", "DaysInFebruary").Instructions);
        // N9-J06/J07: the field's loop compares the index with the length on every turn; each int is widened to long.
        Assert.Contains("cmp      ecx, dword ptr [rdi+0x08]", Method(ledger, "net8.0", "BalanceFromField").Instructions);
        Assert.Contains(Method(ledger, "net8.0", "BalanceFromLocal").Instructions, l => l.StartsWith("movsxd", StringComparison.Ordinal));
        // N9-J08/J09: from .NET 10 the test in the body and the test in the loop's condition compile alike.
        Assert.Equal(Method(exits, "net10.0", "HashTestInHeader").Instructions, Method(exits, "net10.0", "HashTestInBody").Instructions);
        Assert.NotEqual(Method(exits, "net8.0", "HashTestInHeader").Instructions, Method(exits, "net8.0", "HashTestInBody").Instructions);
        // N10-J09/J10: the compare with the table's length, and the frame set up only for the throw call.
        foreach (var (method, compare) in new[] { ("LowestBit", "cmp      eax, 32"), ("VarintLength", "cmp      eax, 64") })
        {
            Assert.Contains(compare, Method(tables, "net9.0", method).Instructions);
            Assert.Equal("push     rax", Method(tables, "net9.0", method).Instructions.First());
            Assert.DoesNotContain(compare, Method(tables, "net10.0", method).Instructions);
            Assert.DoesNotContain("push     rax", Method(tables, "net10.0", method).Instructions);
        }

        // blsi needs BMI1: the notebook explains LowestBit's size by it.
        Assert.Equal(System.Runtime.Intrinsics.X86.Bmi1.IsSupported, Method(tables, "net9.0", "LowestBit").Instructions.Any(l => l.StartsWith("blsi", StringComparison.Ordinal)));
        // N10-J11: ^1 becomes a dec once its check is gone.
        Assert.Contains(Method(proven, "net10.0", "Spread").Instructions, l => l.StartsWith("dec", StringComparison.Ordinal));
        Assert.DoesNotContain(Method(proven, "net9.0", "Spread").Instructions, l => l.StartsWith("dec", StringComparison.Ordinal));
        // N10-J12: .NET 9 compares the two lengths twice and sets up a frame; .NET 10 does neither.
        Assert.Equal(2, Method(proven, "net9.0", "NextSuggested").Instructions.Count(l => l == "cmp      eax, ecx"));
        Assert.Equal(1, Method(proven, "net10.0", "NextSuggested").Instructions.Count(l => l == "cmp      eax, ecx"));
        Assert.Contains("push     rbp", Method(proven, "net9.0", "NextSuggested").Instructions);
        Assert.DoesNotContain("push     rbp", Method(proven, "net10.0", "NextSuggested").Instructions);
        // N10-J14: .NET 10 emits the remainder loop twice.
        Assert.Equal(2, Method(shapes, "net9.0", "PairwiseTotal").Loops);
        Assert.Equal(3, Method(shapes, "net10.0", "PairwiseTotal").Loops);
        Assert.Equal(3, Method(shapes, "net8.0", "PairwiseTotal").Loops);
    }

    // (class, method, per runtime 8/9/10: loops and size) as notebook jit/05's text states them.
    [X64Theory("the notebook states the sizes of x64 listings")]
    [InlineData("class CountLoops", "LapsUp", 1, 19, 1, 19, 1, 19)]
    [InlineData("class CountLoops", "LapsDown", 1, 19, 1, 19, 1, 19)]
    [InlineData("class IndexWalks", "TotalRain", 1, 33, 1, 33, 1, 33)]
    [InlineData("class IndexWalks", "CellValues", 2, 108, 2, 108, 2, 124)]
    [InlineData("class CloneLoops", "RankSpan", 1, 68, 1, 63, 2, 86)]
    [InlineData("class CloneLoops", "RankArray", 2, 79, 2, 82, 2, 82)]
    [InlineData("class CloneLoops", "WriteHeader", 0, 112, 0, 112, 0, 171)]
    [InlineData("class InliningLimits", "CountVisit", 0, 18, 0, 18, 0, 165)]
    [InlineData("class InliningLimits", "ToPercent", 0, 81, 0, 81, 0, 20)]
    [InlineData("class InliningLimits", "LogReading", 0, 22, 0, 22, 0, 63)]
    public async Task Loops_each_listing_has_the_loops_and_size_the_notebook_states(string marker, string method, int loops8, int size8, int loops9, int size9, int loops10, int size10)
    {
        foreach (var (runtime, loops, size) in new[] { ("net8.0", loops8, size8), ("net9.0", loops9, size9), ("net10.0", loops10, size10) })
        {
            var listing = await ListingAsync(Loops, marker, method, runtime);
            Assert.True(loops == listing.Loops, $"{method} on {runtime}: {listing.Loops} loops, the notebook says {loops}\n{listing}");
            SizeIs(size, listing, $"{method} on {runtime}");
        }
    }

    // The listing each whole-class cell's text reads, which its view must open: another, open above it, hides the lesson.
    [Fact]
    public async Task Loops_each_asm_view_opens_the_listing_its_text_reads()
    {
        var problems = await OpenListingProblemsAsync(course.Reports, Loops, ("IndexWalks", "CellValues"), ("CloneLoops", "RankSpan"), ("InliningLimits", "CountVisit"));
        Assert.True(problems.Count == 0, string.Join("\n", problems));
    }

    [Fact]
    public async Task Loops_net9_counts_down_and_walks_a_pointer_and_net10_steps_two_arrays_by_2_N9_J03_J05_N10_J31()
    {
        var count = await CellListingsAsync(Loops, "class CountLoops");
        var walks = await CellListingsAsync(Loops, "class IndexWalks");
        static bool Compares(AsmListing listing) => listing.Instructions.Any(l => l.StartsWith("cmp", StringComparison.Ordinal));

        Assert.Contains("cmp      ecx, 100", Method(count, "net8.0", "LapsUp").Instructions);
        Assert.False(Compares(Method(count, "net9.0", "LapsUp")), Method(count, "net9.0", "LapsUp").ToString());
        Assert.Contains(Method(count, "net9.0", "LapsUp").Instructions, l => l.StartsWith("dec", StringComparison.Ordinal));
        Assert.False(Compares(Method(count, "net8.0", "LapsDown")), Method(count, "net8.0", "LapsDown").ToString());
        Assert.Contains(Method(walks, "net8.0", "TotalRain").Instructions, l => l.StartsWith("add", StringComparison.Ordinal) && l.Contains("+4*r", StringComparison.Ordinal));
        Assert.Contains(Method(walks, "net9.0", "TotalRain").Instructions, l => l.StartsWith("add      r", StringComparison.Ordinal) && l.EndsWith(", 4", StringComparison.Ordinal));
        Assert.Contains(Method(walks, "net9.0", "CellValues").Instructions, l => l.StartsWith("mov      dword ptr [rax+4*r", StringComparison.Ordinal));
        Assert.Contains(Method(walks, "net10.0", "CellValues").Instructions, l => l.StartsWith("mov      dword ptr [rax+2*r", StringComparison.Ordinal));
        Assert.Contains(Method(walks, "net10.0", "CellValues").Instructions, l => l.StartsWith("add      r", StringComparison.Ordinal) && l.EndsWith(", 2", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Loops_net10_inlines_try_finally_and_generic_virtual_callers_and_drops_a_dead_try_catch_N10_J21_J22_J23()
    {
        var limits = await CellListingsAsync(Loops, "class InliningLimits");

        static int Calls(AsmListing listing, string callee) => listing.Instructions.Count(l => l.StartsWith("call", StringComparison.Ordinal) && l.Contains(callee, StringComparison.Ordinal));
        foreach (var runtime in new[] { "net8.0", "net9.0" })
        {
            Assert.True(Calls(Method(limits, runtime, "CountVisit"), ":AddVisit(") == 1, $"{runtime} inlined AddVisit");
            Assert.True(Calls(Method(limits, runtime, "LogReading"), ":Log(") == 1, $"{runtime} inlined Log");
        }

        var visit = Method(limits, "net10.0", "CountVisit");
        var log = Method(limits, "net10.0", "LogReading");
        Assert.True(Calls(visit, ":AddVisit(") == 0, ".NET 10 still calls AddVisit");
        Assert.True(Calls(visit, "Monitor:TryEnter_FastPath(") == 1, $".NET 10's CountVisit does not take the lock through Monitor's fast path\n{visit}");
        // The finally twice: inline on the normal path, and as the handler.
        Assert.True(Calls(visit, "Monitor:Exit_FastPath(") == 2, $".NET 10's CountVisit does not release the lock through Monitor's fast path in both copies of the finally\n{visit}");
        Assert.True(Calls(visit, "Monitor:Enter_Slowpath(") >= 1 && Calls(visit, "Monitor:Exit_Slowpath(") >= 1, $".NET 10's CountVisit has no slow path\n{visit}");
        Assert.True(Calls(log, ":Log(") == 0, ".NET 10 still calls Log");
        Assert.True(Calls(log, "VIRTUAL_FUNC_PTR") + Calls(log, "VirtualFunctionPointer") == 1, $".NET 10's LogReading does not look up the virtual target\n{log}");
        Assert.Contains("call     rax", log.Instructions);
        // .NET 9 stores the result in its frame, where the catch handler writes 100; .NET 10 keeps neither frame nor handler.
        static bool Stores(AsmListing listing, string value) => listing.Instructions.Any(l => l.StartsWith("mov      dword ptr [rbp-", StringComparison.Ordinal) && l.EndsWith("], " + value, StringComparison.Ordinal));
        var percent9 = Method(limits, "net9.0", "ToPercent");
        Assert.True(Stores(percent9, "eax") && Stores(percent9, "100"), percent9.ToString());
        Assert.DoesNotContain(Method(limits, "net10.0", "ToPercent").Instructions, l => l.Contains("rbp", StringComparison.Ordinal));
    }

    // (class, method, size on 8/9/10) as notebook jit/06's text states them.
    [X64Theory("the notebook states the sizes of x64 listings")]
    [InlineData("class Folding", "Workers", 17, 12, 12)]
    [InlineData("class Folding", "LabelOrDefault", 41, 41, 25)]
    [InlineData("class Folding", "HasDayName", 57, 58, 6)]
    [InlineData("class Folding", "TooBigForUInt", 15, 15, 11)]
    [InlineData("class RangesAndSets", "OfficeHoursIf", 25, 13, 13)]
    [InlineData("class RangesAndSets", "OfficeHours", 17, 18, 13)]
    [InlineData("class RangesAndSets", "IsBase32Digit", 44, 39, 39)]
    [InlineData("class RangesAndSets", "IsSeparator", 36, 43, 43)]
    [InlineData("class RangesAndSets", "BreakOrSemicolon", 56, 63, 44)]
    [InlineData("class MasksAndDivision", "IsPunctuation", 22, 22, 15)]
    [InlineData("class DeadBranches", "Implied", 33, 22, 22)]
    [InlineData("class DeadBranches", "Impossible", 33, 1, 1)]
    [InlineData("class DeadBranches", "Unreachable", 35, 33, 1)]
    [InlineData("class DeadBranches", "PinFresh", 96, 55, 55)]
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
        var rangesAndSets = await CellListingsAsync(Folding, "class RangesAndSets");
        var masksAndDivision = await CellListingsAsync(Folding, "class MasksAndDivision");
        var barriers = await CellListingsAsync(Folding, "class Barriers");
        var deadBranches = await CellListingsAsync(Folding, "class DeadBranches");
        AsmListing Sets(string method, string runtime) => Method(rangesAndSets, runtime, method);
        AsmListing Masks(string method, string runtime) => Method(masksAndDivision, runtime, method);
        AsmListing Barrier(string method, string runtime) => Method(barriers, runtime, method);
        AsmListing Dead(string method, string runtime) => Method(deadBranches, runtime, method);

        // WorkerLimit() is 2 * Environment.ProcessorCount, folded into an immediate (decimal when small, hex when large).
        var workerLimit = 2 * Environment.ProcessorCount;
        var workers = Method(folding, "net10.0", "Workers").Instructions;
        Assert.True(workers.Any(l => l.StartsWith("cmp      esi, ", StringComparison.Ordinal) && (l.EndsWith($" {workerLimit}", StringComparison.Ordinal) || l.EndsWith($"0x{workerLimit:X}", StringComparison.Ordinal))),
            $"Workers does not compare with {workerLimit}: {string.Join(" | ", workers)}");
        Assert.Contains(Masks("IsPunctuation", "net10.0").Instructions, l => l.StartsWith("bt ", StringComparison.Ordinal));
        Assert.Contains("mov      eax, 0x1FC0000", Masks("IsPunctuation", "net10.0").Instructions);
        // shlx needs BMI2, as mulx below does.
        Assert.Equal(System.Runtime.Intrinsics.X86.Bmi2.IsSupported, Masks("IsPunctuation", "net9.0").Instructions.Any(l => l.StartsWith("shlx", StringComparison.Ordinal)));
        Assert.Contains(Sets("IsSeparator", "net9.0").Instructions, l => l.StartsWith("bt ", StringComparison.Ordinal));
        // The mask with the bits of ',' (44), ':' (58) and ';' (59) clear, as the notebook reads it.
        Assert.Contains("mov      rax, 0x3FFEFFFFFFFFFFF", Sets("IsSeparator", "net9.0").Instructions);
        Assert.Contains("cmp      esi, 32", Sets("IsSeparator", "net9.0").Instructions);
        Assert.DoesNotContain(Sets("BreakOrSemicolon", "net9.0").Instructions, l => l.StartsWith("bt ", StringComparison.Ordinal));
        Assert.Contains(Sets("BreakOrSemicolon", "net10.0").Instructions, l => l.StartsWith("bt ", StringComparison.Ordinal));
        // N9-J19: the fixed statement's empty-array test and bounds check go on .NET 9.
        Assert.Contains("CORINFO_HELP_RNGCHKFAIL", Dead("PinFresh", "net8.0").Helpers);
        Assert.DoesNotContain("CORINFO_HELP_RNGCHKFAIL", Dead("PinFresh", "net9.0").Helpers);
        Assert.True(Dead("PinFresh", "net9.0").CodeSize < Dead("PinFresh", "net8.0").CodeSize, $"PinFresh: {Dead("PinFresh", "net8.0").CodeSize} bytes on net8.0, {Dead("PinFresh", "net9.0").CodeSize} on net9.0");
        Assert.DoesNotContain(Sets("IsSeparator", "net8.0").Instructions, l => l.StartsWith("bt ", StringComparison.Ordinal));
        // mulx needs BMI2: on a CPU without it .NET 10 keeps mul, as the notebook says.
        Assert.Equal(System.Runtime.Intrinsics.X86.Bmi2.X64.IsSupported, Masks("Minutes", "net10.0").Instructions.Any(l => l.StartsWith("mulx", StringComparison.Ordinal)));
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

    [Fact]
    public async Task Folding_the_timed_methods_have_the_bit_test_and_lose_the_barriers_the_text_names_N10_J33_J28_J29()
    {
        var tricks = await CellListingsAsync(Folding, "class TrickTimings");
        var barriers = await CellListingsAsync(Folding, "class BarrierTimings");
        static bool BitTests(AsmListing listing) => listing.Instructions.Any(l => l.StartsWith("bt ", StringComparison.Ordinal));
        // A jump table ends in a jump to the address it loaded into a register.
        static bool JumpsThroughTable(AsmListing listing) => listing.Instructions.Any(l => l.StartsWith("jmp      r", StringComparison.Ordinal));

        // The operators' small switch: a jump table on .NET 9, a bit test on .NET 10.
        var operators9 = Method(tricks, "net9.0", "CountOperators");
        var operators10 = Method(tricks, "net10.0", "CountOperators");
        Assert.True(JumpsThroughTable(operators9) && !BitTests(operators9), operators9.ToString());
        Assert.True(BitTests(operators10) && !JumpsThroughTable(operators10), operators10.ToString());
        // The struct copied into the return buffer, and the ref struct built in it: barriers on .NET 9, none on .NET 10.
        Assert.True(Method(barriers, "net9.0", "MoveAt").WriteBarriers > 0, Method(barriers, "net9.0", "MoveAt").ToString());
        Assert.Equal(0, Method(barriers, "net10.0", "MoveAt").WriteBarriers);
        Assert.Equal(3, Method(barriers, "net9.0", "OpenReader").Helpers.Count(h => h == "CORINFO_HELP_CHECKED_ASSIGN_REF"));
        Assert.Equal(0, Method(barriers, "net10.0", "OpenReader").WriteBarriers);
    }
}
