using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Disassembly;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;
using PerfLab.Notebooks.Tests.Support;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// What the notebooks tell the reader about the code each runtime generates and the bytes it allocates,
/// checked on the notebooks' own classes with real listings and real runs on .NET 8, 9 and 10. These
/// facts do not depend on the machine (the times do, and are not asserted).
/// </summary>
public class NotebookClaimsTests
{
    private static readonly AsmEngine Engine = new();

    private static readonly BenchmarkEngine Runner = new();

    // The compilable part of the notebook cell that declares "class X" (its usings and types, without the
    // cell's statements), as Lab extracts it when the cell runs.
    private static string CellClasses(string notebook, string marker)
    {
        var document = NotebookDocument.Load(Path.Combine(Repo.Notebooks, notebook));
        var cell = document.Cells.First(c => c.Kind == CellKind.Code && c.Source.Contains(marker, StringComparison.Ordinal)).Source;
        return BenchmarkCell.Extract(cell, marker["class ".Length..], marker);
    }

    // The method is named as Lab names it (Class.Method) when the source declares one class, so a capture the
    // notebook routes already made for the same cell and method is answered from the test home's asm cache.
    private static Task<AsmReport> Capture(string source, string method, bool tier0 = false, bool noPgo = false, string[]? env = null)
    {
        var classes = System.Text.RegularExpressions.Regex.Matches(source, @"\bclass\s+(\w+)").Select(m => m.Groups[1].Value).Distinct().ToArray();
        var name = method.Contains('.', StringComparison.Ordinal) || classes.Length != 1 ? method : classes[0] + "." + method;
        return Engine.CaptureAsync(new AsmRequest { Source = source, SourcePath = "notebook-cell.cs", Methods = [name], Tier0 = tier0, NoPgo = noPgo, Environment = BenchmarkRequest.ParseEnvironment(env ?? []) });
    }

    // What jit/07 sets to show a CPU without AVX-512 (.NET 10 reads the second name).
    private static readonly string[] NoAvx512 = ["DOTNET_EnableAVX512F=0", "DOTNET_EnableAVX512=0"];

    private static AsmListing Only(AsmReport report, string runtime) => Assert.Single(report.Runtimes.Single(r => r.Runtime == runtime).Listings);

    [Fact]
    public async Task Tiering_a_loop_method_is_instrumented_from_its_first_compile_and_tier1_drops_probes_patchpoint_and_range_check()
    {
        var climb = CellClasses("jit/01-tiering-and-pgo.ipynb", "class Climb");

        var first = await Capture(climb, "CountEven", tier0: true);
        var steady = await Capture(climb, "CountEven");

        foreach (var runtime in new[] { "net8.0", "net9.0", "net10.0" })
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

    [Fact]
    public async Task Tiering_the_type_test_gets_a_profiled_guess_from_net9_on_and_loses_it_without_pgo_N9_J01()
    {
        var pets = CellClasses("jit/01-tiering-and-pgo.ipynb", "class PetCheck");

        var steady = await Capture(pets, "IsDog");
        var noPgo = await Capture(pets, "IsDog", noPgo: true);

        static bool Guesses(AsmListing listing) => listing.Instructions.Any(l => l.StartsWith("cmp", StringComparison.Ordinal) && l.Contains("qword ptr [r", StringComparison.Ordinal));
        Assert.False(Guesses(Only(steady, "net8.0")));
        Assert.Equal(35, Only(steady, "net8.0").CodeSize); // the post's .NET 8 listing: 35 bytes
        Assert.True(Guesses(Only(steady, "net9.0")));
        Assert.InRange(Only(steady, "net9.0").CodeSize, 55, 70); // the post's .NET 9 listing: 62 bytes
        Assert.True(Guesses(Only(steady, "net10.0")));
        foreach (var runtime in new[] { "net8.0", "net9.0", "net10.0" })
        {
            Assert.Contains("CORINFO_HELP_ISINSTANCEOFCLASS", Only(steady, runtime).Helpers);
            Assert.False(Guesses(Only(noPgo, runtime)), $"{runtime}: a type guess without PGO");
        }
    }

    // Bytes per call of each (method, runtime) after tiering settled: quick mode, since a smoke run's
    // single cold call runs Tier0 code, which allocates what Tier1 keeps on the stack.
    private static async Task<Dictionary<(string Method, string Runtime), long?>> AllocatedAsync(string source, string[]? runtimes = null, string[]? filter = null) =>
        (await Runner.RunAsync(new BenchmarkRequest
        {
            Source = source,
            SourcePath = "notebook-cell.cs",
            Mode = BenchmarkMode.Quick,
            Runtimes = PerfLab.Runtimes.RuntimeCatalog.FindAll(runtimes),
            Filter = filter ?? [],
        }))
            .Results.ToDictionary(r => (r.Method, r.Runtime), r => r.AllocatedBytes);

    [Fact]
    public async Task Enumeration_boxed_enumerators_cost_40_and_56_bytes_on_net8_and_net9_and_nothing_on_net10_N10_C02_C04()
    {
        var stack = await AllocatedAsync(CellClasses("collections/01-enumeration.ipynb", "class StackWalk"));
        var concurrent = await AllocatedAsync(CellClasses("collections/01-enumeration.ipynb", "class ConcurrentWalk"));

        foreach (var runtime in new[] { "net8.0", "net9.0", "net10.0" })
        {
            AllocatesAbout(0, stack[("AsStack", runtime)], $"AsStack on {runtime}");
        }

        AllocatesAbout(40, stack[("AsSequence", "net8.0")], "AsSequence on net8.0");
        AllocatesAbout(40, stack[("AsSequence", "net9.0")], "AsSequence on net9.0");
        AllocatesAbout(0, stack[("AsSequence", "net10.0")], "AsSequence on net10.0");
        AllocatesAbout(56, concurrent[("SumValues", "net8.0")], "SumValues on net8.0");
        AllocatesAbout(56, concurrent[("SumValues", "net9.0")], "SumValues on net9.0");
        AllocatesAbout(0, concurrent[("SumValues", "net10.0")], "SumValues on net10.0");
    }

    // Bytes per call are averaged over the measured calls, and BenchmarkDotNet counts the whole process:
    // on a busy machine a background tier-1 compile landing during the measurement adds a byte or two.
    // An object the code allocates is 24 bytes or more, so a margin of 8 keeps every claim meaningful.
    private static void AllocatesAbout(int expected, long? actual, string what) =>
        Assert.True(actual >= expected && actual < expected + 8, $"{what}: {actual} B per call, the notebook says {expected}");

    [Fact]
    public async Task Enumeration_the_stack_loop_shrinks_to_about_55_bytes_without_calls_on_net10_N10_C02()
    {
        var report = await Capture(CellClasses("collections/01-enumeration.ipynb", "class StackWalk"), "AsStack");

        // .NET 9's size comes from a PGO-shaped layout and moves by a byte between runs (331 or 332): a range.
        Assert.InRange(Only(report, "net9.0").CodeSize, 300, 360);
        Assert.InRange(Only(report, "net10.0").CodeSize, 40, 60);
        Assert.Contains("CORINFO_HELP_NEWSFAST", Only(report, "net9.0").Helpers); // the exception on the version-check path
        Assert.Equal(0, Only(report, "net10.0").Calls);
        Assert.Equal(0, Only(report, "net10.0").BoundsChecks);
    }

    [Fact]
    public async Task Stack_allocation_bytes_go_to_zero_on_the_runtime_each_notebook_section_names()
    {
        var classes = new[] { "class ShortLived", "class DisposeStruct", "class ThreeWords", "class LowBytes", "class StaticSequence" }
            .Select(marker => CellClasses("jit/02-stack-allocation.ipynb", marker));
        var usings = "using System.Runtime.CompilerServices;\n";
        var bytes = await AllocatedAsync(usings + string.Join("\n", classes.Select(c => c.Replace(usings.Trim(), "", StringComparison.Ordinal))));

        // (method, .NET 8, .NET 9, .NET 10): N9-J25, N9-J26 from .NET 9; N10-J02, J03, J20 from .NET 10.
        foreach (var (method, net8, net9, net10) in new[] { ("ReadBack", 24, 0, 0), ("BothSpellings", 24, 0, 0), ("Letters", 48, 48, 0), ("Copy", 32, 32, 0), ("Total", 32, 32, 0) })
        {
            AllocatesAbout(net8, bytes[(method, "net8.0")], $"{method} on net8.0");
            AllocatesAbout(net9, bytes[(method, "net9.0")], $"{method} on net9.0");
            AllocatesAbout(net10, bytes[(method, "net10.0")], $"{method} on net10.0");
        }
    }

    [Fact]
    public async Task Stack_allocation_listings_lose_their_allocation_helper_calls()
    {
        var shortLived = await Capture(CellClasses("jit/02-stack-allocation.ipynb", "class ShortLived"), "ReadBack");
        var words = await Capture(CellClasses("jit/02-stack-allocation.ipynb", "class ThreeWords"), "Letters");

        Assert.Equal((31, 6, 6), (Only(shortLived, "net8.0").CodeSize, Only(shortLived, "net9.0").CodeSize, Only(shortLived, "net10.0").CodeSize));
        Assert.Contains("CORINFO_HELP_NEWSFAST", Only(shortLived, "net8.0").Helpers);
        Assert.Contains("CORINFO_HELP_NEWARR_1_OBJ", Only(words, "net9.0").Helpers);
        Assert.Equal(0, Only(words, "net10.0").Allocations);
    }

    [Fact]
    public async Task Devirtualization_a_static_readonly_field_folds_in_steady_state_but_not_in_fullopts_C30_JT02()
    {
        var known = CellClasses("jit/03-devirtualization.ipynb", "class KnownType");

        var steady = await Engine.CaptureAsync(new AsmRequest { Source = known, SourcePath = "notebook-cell.cs" });
        var fullOpts = await Engine.CaptureAsync(new AsmRequest { Source = known, SourcePath = "notebook-cell.cs", FullOpts = true });

        AsmListing Method(AsmReport report, string runtime, string name) =>
            report.Runtimes.Single(r => r.Runtime == runtime).Listings.Single(l => l.Method.Contains(":" + name + "(", StringComparison.Ordinal));
        foreach (var runtime in new[] { "net8.0", "net9.0", "net10.0" })
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
        var report = await Capture(CellClasses("jit/03-devirtualization.ipynb", "class GenericGuard"), "RejectOrRelease");

        static bool CallsThrowIfEqual(AsmListing listing) => listing.Instructions.Any(l => l.StartsWith("call", StringComparison.Ordinal) && l.Contains("ThrowIfEqual", StringComparison.Ordinal));
        Assert.True(CallsThrowIfEqual(Only(report, "net8.0")), "no call to ThrowIfEqual on .NET 8");
        Assert.False(CallsThrowIfEqual(Only(report, "net9.0")), ".NET 9 still calls ThrowIfEqual");
        Assert.False(CallsThrowIfEqual(Only(report, "net10.0")), ".NET 10 still calls ThrowIfEqual");
    }

    // A PGO-shaped listing's size follows the profile and can move by a byte or two between runs.
    private static void SizeIs(int expected, AsmListing listing, string what, int slack = 0)
    {
        if (listing.UsesPgo || slack > 0)
        {
            Assert.True(Math.Abs(listing.CodeSize - expected) <= Math.Max(slack, 3), $"{what}: {listing.CodeSize} bytes, expected about {expected}");
        }
        else
        {
            Assert.True(listing.CodeSize == expected, $"{what}: {listing.CodeSize} bytes, expected {expected}");
        }
    }

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
        var report = await Capture(CellClasses("jit/04-bounds-checks.ipynb", marker), method);

        foreach (var (runtime, checks, size) in new[] { ("net8.0", checks8, size8), ("net9.0", checks9, size9), ("net10.0", checks10, size10) })
        {
            var listing = Only(report, runtime);
            Assert.True(checks == listing.BoundsChecks, $"{method} on {runtime}: {listing.BoundsChecks} bounds checks, the notebook says {checks}\n{listing}");
            SizeIs(size, listing, $"{method} on {runtime}", slack);
        }
    }

    [Fact]
    public async Task Bounds_checks_net10_drops_the_throw_helper_call_of_Slice_after_a_store_N10_J15()
    {
        var report = await Capture(CellClasses("jit/04-bounds-checks.ipynb", "class EarlierFacts"), "StoreThenSkip");

        Assert.Equal(2, Only(report, "net9.0").Calls);
        Assert.Equal(1, Only(report, "net10.0").Calls);
        Assert.Equal(0, Only(report, "net10.0").Loops);
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
        var report = await Capture(CellClasses("jit/05-loops-and-inlining.ipynb", marker), method);

        foreach (var (runtime, loops, size) in new[] { ("net8.0", loops8, size8), ("net9.0", loops9, size9), ("net10.0", loops10, size10) })
        {
            var listing = Only(report, runtime);
            Assert.True(loops == listing.Loops, $"{method} on {runtime}: {listing.Loops} loops, the notebook says {loops}\n{listing}");
            SizeIs(size, listing, $"{method} on {runtime}");
        }
    }

    [Fact]
    public async Task Loops_net9_counts_down_and_walks_a_pointer_and_net10_steps_two_arrays_by_2_N9_J03_J05_N10_J31()
    {
        var count = await Capture(CellClasses("jit/05-loops-and-inlining.ipynb", "class CountLoops"), "CountUp");
        var walks = CellClasses("jit/05-loops-and-inlining.ipynb", "class IndexWalks");
        var total = await Capture(walks, "Total");
        var digits = await Capture(walks, "DigitValues");

        Assert.Contains("cmp      ecx, 100", Only(count, "net8.0").Instructions);
        Assert.DoesNotContain(Only(count, "net9.0").Instructions, l => l.StartsWith("cmp", StringComparison.Ordinal));
        Assert.Contains(Only(count, "net9.0").Instructions, l => l.StartsWith("dec", StringComparison.Ordinal));
        Assert.Contains(Only(total, "net8.0").Instructions, l => l.StartsWith("add", StringComparison.Ordinal) && l.Contains("+4*r", StringComparison.Ordinal));
        Assert.Contains(Only(total, "net9.0").Instructions, l => l.StartsWith("add      r", StringComparison.Ordinal) && l.EndsWith(", 4", StringComparison.Ordinal));
        Assert.Contains(Only(digits, "net9.0").Instructions, l => l.StartsWith("mov      dword ptr [rax+4*r", StringComparison.Ordinal));
        Assert.Contains(Only(digits, "net10.0").Instructions, l => l.StartsWith("mov      dword ptr [rax+2*r", StringComparison.Ordinal));
        Assert.Contains(Only(digits, "net10.0").Instructions, l => l.StartsWith("add      r", StringComparison.Ordinal) && l.EndsWith(", 2", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Loops_net10_inlines_try_finally_and_generic_virtual_callers_and_drops_a_dead_try_catch_N10_J21_J22_J23()
    {
        var limits = CellClasses("jit/05-loops-and-inlining.ipynb", "class InliningLimits");
        var locked = await Capture(limits, "Locked");
        var neverThrows = await Capture(limits, "NeverThrows");
        var generic = await Capture(limits, "Generic");

        static bool Calls(AsmListing listing, string callee) => listing.Instructions.Any(l => l.StartsWith("call", StringComparison.Ordinal) && l.Contains(callee, StringComparison.Ordinal));
        foreach (var runtime in new[] { "net8.0", "net9.0" })
        {
            Assert.True(Calls(Only(locked, runtime), ":EnterAndLeave("), $"{runtime} inlined EnterAndLeave");
            Assert.True(Calls(Only(generic, runtime), ":Dispatch("), $"{runtime} inlined Dispatch");
            SizeIs(79, Only(neverThrows, runtime), $"NeverThrows on {runtime}");
        }

        Assert.False(Calls(Only(locked, "net10.0"), ":EnterAndLeave("), ".NET 10 still calls EnterAndLeave");
        Assert.True(Calls(Only(locked, "net10.0"), "Monitor"), ".NET 10's Locked calls no Monitor method");
        Assert.False(Calls(Only(generic, "net10.0"), ":Dispatch("), ".NET 10 still calls Dispatch");
        Assert.True(Calls(Only(generic, "net10.0"), "VIRTUAL_FUNC_PTR") || Calls(Only(generic, "net10.0"), "VirtualFunctionPointer"), ".NET 10's Generic does not look up the virtual target");
        Assert.Equal(4, Only(neverThrows, "net10.0").CodeSize);
    }

    // (class, method, size on 8/9/10) as notebook jit/06's text states them.
    [Theory]
    [InlineData("class Folding", "PlusCores", 4, 4, 4)]
    [InlineData("class Folding", "OrEmpty", 41, 41, 25)]
    [InlineData("class Folding", "PickedOne", 42, 37, 6)]
    [InlineData("class Folding", "Fits32", 15, 15, 11)]
    [InlineData("class CompareTricks", "TeenWithIf", 25, 13, 13)]
    [InlineData("class CompareTricks", "TeenAsExpression", 17, 18, 13)]
    [InlineData("class CompareTricks", "BlankOrDot", 56, 63, 44)]
    [InlineData("class CompareTricks", "InWord", 22, 22, 15)]
    [InlineData("class DeadBranches", "Implied", 33, 22, 22)]
    [InlineData("class DeadBranches", "Impossible", 33, 1, 1)]
    [InlineData("class DeadBranches", "Unreachable", 35, 33, 1)]
    [InlineData("class DeadBranches", "Locate", 104, 83, 83)]
    [InlineData("class Barriers", "Link", 34, 8, 8)]
    [InlineData("class Barriers", "MakeTrio", 59, 59, 25)]
    [InlineData("class Barriers", "MakeContact", 81, 81, 35)]
    [InlineData("class Barriers", "Rename", 44, 44, 58)]
    public async Task Folding_branches_barriers_each_listing_has_the_size_the_notebook_states(string marker, string method, int size8, int size9, int size10)
    {
        var report = await Capture(CellClasses("jit/06-folding-branches-barriers.ipynb", marker), method);

        foreach (var (runtime, size) in new[] { ("net8.0", size8), ("net9.0", size9), ("net10.0", size10) })
        {
            SizeIs(size, Only(report, runtime), $"{method} on {runtime}");
        }
    }

    [Fact]
    public async Task Folding_the_instructions_the_notebook_points_at_are_in_the_listings()
    {
        var tricks = CellClasses("jit/06-folding-branches-barriers.ipynb", "class CompareTricks");
        var barriers = CellClasses("jit/06-folding-branches-barriers.ipynb", "class Barriers");
        var plusCores = await Capture(CellClasses("jit/06-folding-branches-barriers.ipynb", "class Folding"), "PlusCores");
        var inWord = await Capture(tricks, "InWord");
        var tenth = await Capture(tricks, "Tenth");
        var blanks = await Capture(tricks, "BlankWithOrs");
        var store = await Capture(barriers, "Store");
        var copy = await Capture(barriers, "CopyQuad");
        var rename = await Capture(barriers, "Rename");
        var deadBranches = CellClasses("jit/06-folding-branches-barriers.ipynb", "class DeadBranches");
        var locate = await Capture(deadBranches, "Locate");
        var pinFresh = await Capture(deadBranches, "PinFresh");

        Assert.Contains($"lea      eax, [rsi+0x{6 * Environment.ProcessorCount:X2}]", Only(plusCores, "net10.0").Instructions);
        Assert.Contains(Only(inWord, "net10.0").Instructions, l => l.StartsWith("bt ", StringComparison.Ordinal));
        Assert.Contains(Only(inWord, "net9.0").Instructions, l => l.StartsWith("shlx", StringComparison.Ordinal));
        Assert.Contains(Only(blanks, "net9.0").Instructions, l => l.StartsWith("bt ", StringComparison.Ordinal));
        Assert.Contains("mov      eax, 0xFFFFDDFF", Only(blanks, "net9.0").Instructions);
        // N9-J19: the fixed statement's empty-array test and bounds check go on .NET 9.
        Assert.Contains("CORINFO_HELP_RNGCHKFAIL", Only(pinFresh, "net8.0").Helpers);
        Assert.DoesNotContain("CORINFO_HELP_RNGCHKFAIL", Only(pinFresh, "net9.0").Helpers);
        Assert.True(Only(pinFresh, "net9.0").CodeSize < Only(pinFresh, "net8.0").CodeSize, $"PinFresh: {Only(pinFresh, "net8.0").CodeSize} bytes on net8.0, {Only(pinFresh, "net9.0").CodeSize} on net9.0");
        Assert.Contains("cmp      esi, 10", Only(blanks, "net9.0").Instructions);
        Assert.DoesNotContain(Only(blanks, "net8.0").Instructions, l => l.StartsWith("bt ", StringComparison.Ordinal));
        // mulx needs BMI2: on a CPU without it .NET 10 keeps mul, as the notebook says.
        Assert.Equal(System.Runtime.Intrinsics.X86.Bmi2.X64.IsSupported, Only(tenth, "net10.0").Instructions.Any(l => l.StartsWith("mulx", StringComparison.Ordinal)));
        Assert.Contains("CORINFO_HELP_CHECKED_ASSIGN_REF", Only(store, "net8.0").Helpers);
        Assert.Contains("CORINFO_HELP_ASSIGN_REF", Only(store, "net9.0").Helpers);
        Assert.Equal(4, Only(copy, "net8.0").Helpers.Count(h => h == "CORINFO_HELP_ASSIGN_BYREF"));
        Assert.Equal(1, Only(copy, "net9.0").WriteBarriers);
        Assert.Contains("CORINFO_HELP_ARRADDR_ST", Only(rename, "net9.0").Helpers);
        Assert.DoesNotContain("CORINFO_HELP_ARRADDR_ST", Only(rename, "net10.0").Helpers);

        // .NET 10 enters the search loop with a jump to the middle computation placed below; .NET 9 does not.
        static bool JumpsBeforeShr(AsmListing listing) =>
            listing.Instructions.TakeWhile(l => !l.StartsWith("shr", StringComparison.Ordinal)).Any(l => l.StartsWith("jmp", StringComparison.Ordinal));
        Assert.False(JumpsBeforeShr(Only(locate, "net9.0")), Only(locate, "net9.0").ToString());
        Assert.True(JumpsBeforeShr(Only(locate, "net10.0")), Only(locate, "net10.0").ToString());
    }

    [Fact]
    public async Task Vectorization_the_probe_agrees_with_this_process_and_the_notebooks_settings_turn_avx512_off_everywhere()
    {
        static async Task<InstructionSets> Probe(string[] env) => InstructionSetProbe.Read(
            await Engine.CaptureAsync(new AsmRequest { Source = InstructionSetProbe.Source, SourcePath = "probe.cs", Environment = BenchmarkRequest.ParseEnvironment(env) }),
            env,
            System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture);
        var plain = await Probe([]);
        var off = await Probe(NoAvx512);

        // This test runs on .NET 10, on the same CPU: its own answers are what the net10.0 column must say.
        Assert.Equal(System.Runtime.Intrinsics.Vector256.IsHardwareAccelerated, plain.Uses("Vector256", "net10.0"));
        Assert.Equal(System.Runtime.Intrinsics.Vector512.IsHardwareAccelerated, plain.Uses("Vector512", "net10.0"));
        Assert.Equal(System.Numerics.Vector<byte>.Count * 8, plain.Value("Vector<T>", "net10.0"));
        foreach (var runtime in new[] { "net8.0", "net9.0", "net10.0" })
        {
            Assert.False(off.Uses("Vector512", runtime), $"Vector512 still accelerated on {runtime} with {string.Join(", ", NoAvx512)}");
            Assert.Equal(plain.Uses("Vector256", runtime), off.Uses("Vector256", runtime));
        }

        if (System.Runtime.Intrinsics.X86.X86Base.IsSupported)
        {
            Assert.Equal(System.Runtime.Intrinsics.X86.Avx2.IsSupported, plain.Uses("AVX2", "net10.0"));
            Assert.Equal(System.Runtime.Intrinsics.X86.Avx512F.IsSupported, plain.Uses("AVX-512F", "net10.0"));
            Assert.Equal(System.Runtime.Intrinsics.X86.Bmi2.IsSupported, plain.Uses("BMI2", "net10.0"));
            Assert.All(new[] { "net8.0", "net9.0", "net10.0" }, r => Assert.False(off.Uses("AVX-512F", r), $"AVX-512F still used on {r}"));
        }
    }

    [Fact]
    public async Task Vectorization_listings_show_the_lane_math_conversion_and_fill_the_notebook_describes_N9_J14_J15_N10_J39_J40()
    {
        const string notebook = "jit/07-vectorization.ipynb";
        var lanes = CellClasses(notebook, "class LaneMath");
        var conversions = CellClasses(notebook, "class SmallConversions");
        var square = await Capture(lanes, "SquareBytes");
        var multiply = await Capture(lanes, "MultiplyLongs");
        var multiplyOff = await Capture(lanes, "MultiplyLongs", env: NoAvx512);
        var toFloat = await Capture(conversions, "ToFloat");
        var toFloatOff = await Capture(conversions, "ToFloat", env: NoAvx512);
        var fill = await Capture(conversions, "FillSixteen");
        static bool Has(AsmListing listing, string op) => listing.Instructions.Any(l => l.StartsWith(op + " ", StringComparison.Ordinal));
        bool avx512 = System.Runtime.Intrinsics.X86.Avx512BW.IsSupported && System.Runtime.Intrinsics.X86.Avx512DQ.IsSupported;

        // N9-J14: .NET 8's byte multiply is a loop over the lanes; .NET 9 and 10 have none.
        Assert.Equal(2, Only(square, "net8.0").Loops);
        SizeIs(168, Only(square, "net8.0"), "SquareBytes on net8.0");
        Assert.All(new[] { "net9.0", "net10.0" }, r => Assert.Equal(0, Only(square, r).Loops));
        if (avx512)
        {
            Assert.All(new[] { "net9.0", "net10.0" }, r => Assert.True(Has(Only(square, r), "vpmullw") && Only(square, r).CodeSize == 23, Only(square, r).ToString()));
            Assert.All(new[] { "net8.0", "net9.0", "net10.0" }, r => Assert.True(Has(Only(multiply, r), "vpmullq"), Only(multiply, r).ToString()));
        }

        // N9-J15 without AVX-512: .NET 8 multiplies lane by lane with imul, .NET 9 and 10 stay in vector registers.
        Assert.True(Has(Only(multiplyOff, "net8.0"), "imul"), Only(multiplyOff, "net8.0").ToString());
        SizeIs(293, Only(multiplyOff, "net8.0"), "MultiplyLongs without AVX-512 on net8.0");
        foreach (var (runtime, size) in new[] { ("net9.0", 53), ("net10.0", 56) })
        {
            Assert.True(Has(Only(multiplyOff, runtime), "vpmuludq") && !Has(Only(multiplyOff, runtime), "imul"), Only(multiplyOff, runtime).ToString());
            SizeIs(size, Only(multiplyOff, runtime), $"MultiplyLongs without AVX-512 on {runtime}");
        }

        // N10-J39: two conversions on .NET 9; one on .NET 10, unsigned with AVX-512, from the widened register without.
        Assert.True(Has(Only(toFloat, "net9.0"), "vcvtsi2sd") && Has(Only(toFloat, "net9.0"), "vcvtsd2ss"), Only(toFloat, "net9.0").ToString());
        SizeIs(16, Only(toFloat, "net9.0"), "ToFloat on net9.0");
        if (avx512)
        {
            Assert.True(Has(Only(toFloat, "net10.0"), "vcvtusi2ss"), Only(toFloat, "net10.0").ToString());
            SizeIs(11, Only(toFloat, "net10.0"), "ToFloat on net10.0");
        }

        Assert.True(Has(Only(toFloatOff, "net10.0"), "vcvtsi2ss") && !Has(Only(toFloatOff, "net10.0"), "vcvtsd2ss"), Only(toFloatOff, "net10.0").ToString());
        SizeIs(12, Only(toFloatOff, "net10.0"), "ToFloat without AVX-512 on net10.0");

        // N10-J40: .NET 9 calls SpanHelpers.Fill; .NET 10 broadcasts and stores once.
        Assert.Contains(Only(fill, "net9.0").Instructions, l => l.StartsWith("call", StringComparison.Ordinal) && l.Contains("SpanHelpers:Fill", StringComparison.Ordinal));
        Assert.DoesNotContain(Only(fill, "net10.0").Instructions, l => l.Contains("SpanHelpers:Fill", StringComparison.Ordinal));
        Assert.True(Has(Only(fill, "net10.0"), "vbroadcastss"), Only(fill, "net10.0").ToString());
        SizeIs(49, Only(fill, "net9.0"), "FillSixteen on net9.0");
        SizeIs(48, Only(fill, "net10.0"), "FillSixteen on net10.0");
    }

    [Fact]
    public async Task Vectorization_the_widest_vector_loop_is_the_only_one_left_in_the_listing()
    {
        var source = CellClasses("jit/07-vectorization.ipynb", "class FirstNonZero");
        var plain = await Capture(source, "WidestVector");
        var off = await Capture(source, "WidestVector", env: NoAvx512);
        static bool Uses(AsmListing listing, string register) => listing.Lines.Any(l => l.Contains(register, StringComparison.Ordinal));

        foreach (var runtime in new[] { "net8.0", "net9.0", "net10.0" })
        {
            if (System.Runtime.Intrinsics.Vector512.IsHardwareAccelerated)
            {
                Assert.True(Uses(Only(plain, runtime), "zmm") && !Uses(Only(plain, runtime), "ymm"), Only(plain, runtime).ToString());
                Assert.Contains(Only(plain, runtime).Instructions, l => l.StartsWith("vptestmb", StringComparison.Ordinal));
            }

            Assert.True(Uses(Only(off, runtime), "ymm") && !Uses(Only(off, runtime), "zmm"), Only(off, runtime).ToString());
        }
    }

    [Fact]
    public async Task Linq_predicate_overloads_drop_the_boxed_list_enumerator_on_net9_N9_C01()
    {
        var bytes = await AllocatedAsync(CellClasses("collections/02-linq.ipynb", "class WithACondition"), ["net8.0", "net9.0"]);

        foreach (var method in new[] { "AnyNegative", "AllNonNegative", "CountEven", "FirstFromTheEnd", "SingleMatch" })
        {
            AllocatesAbout(40, bytes[(method, "net8.0")], $"{method} on net8.0");
            AllocatesAbout(0, bytes[(method, "net9.0")], $"{method} on net9.0");
        }
    }

    [Fact]
    public async Task Linq_contains_after_distinct_union_and_orderby_stops_building_sets_and_buffers_on_net10_N10_C05()
    {
        var bytes = await AllocatedAsync(CellClasses("collections/02-linq.ipynb", "class ContainsAfter"), ["net9.0", "net10.0"], ["*AfterDistinct", "*AfterUnion", "*AfterOrderBy"]);

        foreach (var method in new[] { "AfterDistinct", "AfterUnion", "AfterOrderBy" })
        {
            Assert.True(bytes[(method, "net9.0")] > 10_000, $"{method} on net9.0: {bytes[(method, "net9.0")]} B per call; the notebook says tens of kilobytes");
            Assert.True(bytes[(method, "net10.0")] < 200, $"{method} on net10.0: {bytes[(method, "net10.0")]} B per call; the notebook says only the iterator is left");
        }
    }

    // Several cells' classes as one source: their usings, deduplicated, on top (one run measures them all).
    private static string CellsTogether(string notebook, params string[] markers)
    {
        var parts = markers.Select(marker => CellClasses(notebook, marker).Split('\n')).ToArray();
        var usings = parts.SelectMany(lines => lines.Where(l => l.StartsWith("using ", StringComparison.Ordinal))).Distinct();
        return string.Join("\n", usings.Concat(parts.SelectMany(lines => lines.Where(l => !l.StartsWith("using ", StringComparison.Ordinal)))));
    }

    [Fact]
    public async Task Dictionaries_lookups_allocate_nothing_and_a_frozen_build_allocates_more_than_a_dictionary_N10_C11_C12_C17_C30_CO03()
    {
        var source = CellsTogether("collections/03-dictionaries-and-frozen.ipynb", "class LiteralKeys", "class NumberWords", "class StatusReasons", "class ReadOnlyTables", "class BuildOrRead");
        var bytes = await AllocatedAsync(source, ["net9.0", "net10.0"]);

        foreach (var runtime in new[] { "net9.0", "net10.0" })
        {
            foreach (var method in new[] { "FiveLookups", "TwelveBySpan", "TenReasons", "Immutable", "Mutable", "Frozen", "ReadDictionary", "ReadFrozen" })
            {
                AllocatesAbout(0, bytes[(method, runtime)], $"{method} on {runtime}");
            }

            Assert.True(bytes[("BuildFrozen", runtime)] > bytes[("BuildDictionary", runtime)], $"on {runtime} BuildFrozen allocated {bytes[("BuildFrozen", runtime)]} B and BuildDictionary {bytes[("BuildDictionary", runtime)]} B; the notebook says the frozen build allocates more");
        }
    }

    [Fact]
    public async Task Dictionaries_span_lookups_allocate_a_string_per_distinct_word_instead_of_one_per_word_N9_C02_C03()
    {
        var bytes = await AllocatedAsync(CellClasses("collections/03-dictionaries-and-frozen.ipynb", "class WordCounts"), ["net9.0", "net10.0"]);

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
        var flip = await Capture(CellClasses("collections/04-specialized.ipynb", "class FlipEveryBit"), "Flip");
        var compare = await Capture(CellClasses("collections/04-specialized.ipynb", "class EnumOrder"), "CompareMany");

        foreach (var runtime in new[] { "net8.0", "net9.0", "net10.0" })
        {
            // The only calls left in the loop method are the throw helpers, out of the hot path.
            var calls = Only(flip, runtime).Instructions.Where(i => i.StartsWith("call", StringComparison.Ordinal)).ToArray();
            Assert.True(calls.All(c => c.Contains("Throw", StringComparison.Ordinal) || c.Contains("RNGCHKFAIL", StringComparison.Ordinal)), $"Flip on {runtime} calls: {string.Join("; ", calls)}; the notebook says Get and Set are inlined");

            var folded = Only(compare, runtime);
            Assert.Equal(0, folded.Calls);
            Assert.Equal(1, folded.Loops);
            Assert.Contains(folded.Instructions, i => i.StartsWith("dec", StringComparison.Ordinal) && i.EndsWith("eax", StringComparison.Ordinal));
        }
    }

    [Fact]
    public async Task Specialized_insertrange_allocates_the_same_and_clear_stops_regrowing_the_table_on_net10_N10_C15_C16()
    {
        var bytes = await AllocatedAsync(CellsTogether("collections/04-specialized.ipynb", "class GrowWhileInserting", "class RefillAfterClear"), ["net9.0", "net10.0"]);

        var inserted = bytes[("PrependFour", "net9.0")]!.Value;
        AllocatesAbout((int)inserted, bytes[("PrependFour", "net10.0")], "PrependFour on net10.0 (the notebook says the bytes are the same as on net9.0)");

        // The post: 134.36 KB on .NET 9, 48.73 KB on .NET 10.
        var refill9 = bytes[("ClearThenRefill", "net9.0")];
        var refill10 = bytes[("ClearThenRefill", "net10.0")];
        Assert.True(refill9 > 2 * refill10 && refill10 < 64 * 1024, $"ClearThenRefill: {refill9} B on net9.0, {refill10} B on net10.0; the notebook says .NET 10 stops allocating the growth steps' bucket arrays");
    }

    [Fact]
    public async Task Engines_compiled_creation_allocates_more_than_the_interpreters()
    {
        var bytes = await AllocatedAsync(CellClasses("regex/01-engines.ipynb", "class EngineCosts"), ["net10.0"], ["*Create*"]);

        var interpreter = bytes[("CreateInterpreter", "net10.0")];
        var compiled = bytes[("CreateCompiled", "net10.0")];
        Assert.True(compiled > interpreter, $"CreateCompiled allocated {compiled} B per call, CreateInterpreter {interpreter} B; the notebook says Compiled allocates more");
    }

    [Fact]
    public async Task Backtracking_count_allocates_nothing_where_matches_count_allocates_per_match_N10_R09()
    {
        var bytes = await AllocatedAsync(CellClasses("regex/02-backtracking-and-atomicity.ipynb", "class CountingWords"), ["net10.0"]);

        // Quick mode spreads the engine's one-time allocations (its automaton grows lazily) over a few long
        // calls: about a kilobyte per call here, where a full run shows nothing.
        var count = bytes[("Count", "net10.0")];
        Assert.True(count < 4096, $"Count on net10.0: {count} B per call; the notebook says at most a kilobyte or so");
        // 212,958 words in the pinned corpus (tests/PerfLab.Tests/Support/CorpusFacts.cs), a Match of at least 48 B each.
        var matches = bytes[("MatchesCount", "net10.0")];
        Assert.True(matches > 212_958L * 48, $"MatchesCount on net10.0: {matches} B per call; the notebook says it allocates a Match per word (megabytes)");
    }

    [Fact]
    public async Task Backtracking_explosive_pattern_is_stopped_by_the_case_timeout_and_the_two_ways_out_answer()
    {
        async Task<PerfLab.Results.BenchmarkRun> Smoke(string marker, TimeSpan? caseTimeout) => await Runner.RunAsync(new BenchmarkRequest
        {
            Source = CellClasses("regex/02-backtracking-and-atomicity.ipynb", marker),
            SourcePath = "notebook-cell.cs",
            Mode = BenchmarkMode.Smoke,
            Runtimes = PerfLab.Runtimes.RuntimeCatalog.FindAll(["net10.0"]),
            CaseTimeout = caseTimeout,
        });

        var explosive = await Smoke("class Explosive", TimeSpan.FromSeconds(5));
        var waysOut = await Smoke("class WaysOut", null);

        Assert.Contains("Timed out", Assert.Single(explosive.Results).Error ?? "(no error)", StringComparison.Ordinal);
        Assert.Equal(["AtomicGroup", "NonBacktracking"], waysOut.Results.Where(r => r.Error is null).Select(r => r.Method).Order());
    }

    // What the generator writes does not depend on the machine: every sentence regex/01 and 02 says about an
    // explanation or a matcher method, checked on the generators the notebooks run.
    private static (string Nine, string Ten) Explained(string pattern, System.Text.RegularExpressions.RegexOptions options = default)
    {
        var report = PerfLab.GeneratedSource.RegexSource.Generate(pattern, options, PerfLab.Runtimes.RuntimeCatalog.FindAll(["net9.0", "net10.0"]));
        return (string.Join("\n", report.Find("net9.0")!.Parts.Explanation), string.Join("\n", report.Find("net10.0")!.Parts.Explanation));
    }

    [Fact]
    public void Backtracking_generator_explanations_and_matchers_say_what_the_notebook_says_N10_R01_to_R08()
    {
        var spaces = Explained(@"\s+\S+");
        Assert.Contains("Match a whitespace character greedily at least once.", spaces.Nine, StringComparison.Ordinal);
        Assert.Contains("Match a whitespace character atomically at least once.", spaces.Ten, StringComparison.Ordinal);

        var word = Explained(@"^[A-Za-z]+\b");
        Assert.Contains("greedily at least once", word.Nine, StringComparison.Ordinal);
        Assert.Contains("atomically at least once", word.Ten, StringComparison.Ordinal);

        var words = Explained(@"([a-z]+ )+[A-Z]");
        Assert.Contains("Loop greedily at least once.", words.Nine, StringComparison.Ordinal);
        Assert.Contains("Loop atomically at least once.", words.Ten, StringComparison.Ordinal);

        var optional = Explained("ab|a");
        Assert.Contains("Match with 2 alternative expressions, atomically.", optional.Nine, StringComparison.Ordinal);
        Assert.Contains("Match 'b' atomically, optionally.", optional.Ten, StringComparison.Ordinal);

        // dotnet/runtime#118109 was reverted for .NET 10 (#121822): the two branches are still there.
        var comments = Explained(@"/\*(?:.|\n)*?\*/");
        Assert.Equal(comments.Nine, comments.Ten);
        Assert.Contains("Match with 2 alternative expressions.", comments.Ten, StringComparison.Ordinal);

        var lookaheadLoop = Explained(@"(?=.*\bTwain\b.*\bConnecticut\b)*.*Mark");
        Assert.Contains("Zero-width positive lookahead.", lookaheadLoop.Nine, StringComparison.Ordinal);
        Assert.DoesNotContain("lookahead", lookaheadLoop.Ten, StringComparison.Ordinal);

        var hello = PerfLab.GeneratedSource.RegexSource.Generate("(?=^)hello", default, PerfLab.Runtimes.RuntimeCatalog.FindAll(["net9.0", "net10.0"]));
        Assert.Contains("IndexOfAny(Utilities.s_indexOfString_hello", hello.Find("net9.0")!.Parts.FindStart, StringComparison.Ordinal);
        Assert.Contains("if (pos == 0)", hello.Find("net10.0")!.Parts.FindStart, StringComparison.Ordinal);

        var standalone = PerfLab.GeneratedSource.RegexSource.Generate(@"\ba\b", System.Text.RegularExpressions.RegexOptions.IgnoreCase, PerfLab.Runtimes.RuntimeCatalog.FindAll(["net9.0", "net10.0"]));
        Assert.Equal(standalone.Find("net9.0")!.Parts.Explanation, standalone.Find("net10.0")!.Parts.Explanation);
        Assert.Contains("Utilities.IsBoundary(", standalone.Find("net9.0")!.Parts.Match, StringComparison.Ordinal);
        Assert.Contains("Utilities.IsPreWordCharBoundary(", standalone.Find("net10.0")!.Parts.Match, StringComparison.Ordinal);
        Assert.Contains("Utilities.IsPostWordCharBoundary(", standalone.Find("net10.0")!.Parts.Match, StringComparison.Ordinal);

        // .NET 9's helpers carry the match timeout a backtracking loop polls; .NET 10's have none left.
        var helpers = PerfLab.GeneratedSource.RegexSource.Generate(@"\s+\S+", default, PerfLab.Runtimes.RuntimeCatalog.FindAll(["net9.0", "net10.0"]));
        Assert.Contains(helpers.Find("net9.0")!.Parts.Helpers, h => h.Text.Contains("REGEX_DEFAULT_MATCH_TIMEOUT", StringComparison.Ordinal));
        Assert.DoesNotContain(helpers.Find("net10.0")!.Parts.Helpers, h => h.Text.Contains("REGEX_DEFAULT_MATCH_TIMEOUT", StringComparison.Ordinal));
    }

    [Fact]
    public void Engines_the_date_matcher_skips_with_one_vectorized_search_and_checks_non_ascii_one_by_one()
    {
        const string dates = @"\b(?:\d{4}-\d{2}-\d{2}|(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4})\b";
        var notebook = CellClasses("regex/01-engines.ipynb", "class EngineCosts");
        Assert.Contains(dates, notebook, StringComparison.Ordinal);

        var ten = PerfLab.GeneratedSource.RegexSource.Generate(dates, default, PerfLab.Runtimes.RuntimeCatalog.FindAll(["net10.0"])).Find("net10.0")!.Parts;
        var skip = Assert.Single(ten.Helpers, h => h.Name.StartsWith("IndexOfNonAsciiOrAny", StringComparison.Ordinal));
        Assert.Contains(".IndexOfAnyExcept(Utilities.s_ascii_", skip.Text, StringComparison.Ordinal);
        Assert.Contains("char.IsAscii", skip.Text, StringComparison.Ordinal);
    }

    // What a notebook's own classes compute (positions, counts, answers), evaluated in a notebook session as the
    // reader's kernel runs them: the setup cell, then each class, then the expression; its displayed text.
    private static async Task<string> EvaluateAsync(string notebook, string[] markers, string expression)
    {
        var path = Path.Combine(Repo.Notebooks, notebook);
        using var cells = new CellRecorder(Path.GetDirectoryName(path));
        var setup = await cells.RunAsync(SetupCell.For(path, Repo.Root));
        Assert.True(setup.Outcome.Succeeded, setup.ToString());
        foreach (var marker in markers)
        {
            var declared = await cells.RunAsync(CellClasses(notebook, marker));
            Assert.True(declared.Outcome.Succeeded, $"{marker}: {declared}");
        }

        var value = await cells.RunAsync(expression);
        Assert.True(value.Outcome.Succeeded, value.ToString());
        return value.ResultText ?? "";
    }

    private const string Searching = "regex/03-searching.ipynb";

    [Fact]
    public async Task Searching_the_day_names_sit_where_war_and_peace_has_them_and_each_version_finds_one_N9_S01_S05()
    {
        var text = await EvaluateAsync(Searching, ["class DayNames"], """
            var book = (string)typeof(DayNames).GetField("Book", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static)!.GetValue(null)!;
            var days = new[] { "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday" };
            var names = new DayNames();
            var initials = book.Count(c => "MmTtWwFfSs".Contains(c)) * 100.0 / book.Length;
            var allAtOnce = book.AsSpan().ContainsAny(System.Buffers.SearchValues.Create(days, StringComparison.OrdinalIgnoreCase));
            $"{book.Length} | " + string.Join(" ", days.Select(d => $"{d}:{book.IndexOf(d, StringComparison.OrdinalIgnoreCase)}"))
                + $" | {names.EveryPositionEveryDay()} {names.EveryPositionByLetter()} {names.OneSearchPerDay()} {names.JumpBetweenFirstLetters()} {allAtOnce} | {initials.ToString("F1", System.Globalization.CultureInfo.InvariantCulture)}"
            """);

        // The post's positions (found with IndexOf(day, OrdinalIgnoreCase) in War and Peace), Monday absent; every
        // version answers true (AllDaysAtOnce is inside #if NET9_0_OR_GREATER, which the kernel does not define:
        // the same SearchValues<string> stands in for it); the notebook says 17.1 % of the text are day initials.
        Assert.Equal(
            "3293614 | Monday:-1 Tuesday:971396 Wednesday:10652 Thursday:107470 Friday:640801 Saturday:1529549 Sunday:891753 | True True True True True | 17.1",
            text);
    }

    [Fact]
    public async Task Searching_the_inputs_hold_what_the_notebook_says_C30_AS05_SP07_N9_S07_S08_S14_S16_N10_S01_S02_S04()
    {
        var text = await EvaluateAsync(Searching, ["class FindThePeriod", "class OneBitApart", "class ShortCounts", "class VectorWidth", "class NewerSearchValues"], """
            var period = new FindThePeriod();
            var symbols = new OneBitApart();
            var width = new VectorWidth();
            var newer = new NewerSearchValues();
            var twain = (byte[])typeof(NewerSearchValues).GetField("TwainBytes", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static)!.GetValue(null)!;
            var plays = PerfLab.Inputs.Corpus.Prose(1_000_000, seed: 100);
            var poem = (string)typeof(VectorWidth).GetField("_poem", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Instance)!.GetValue(width)!;
            $"{period.CharByChar()} {period.StringIndexOf()} {period.BytesIndexOfAny()} | {symbols.FindPair()} {symbols.FindTwoPairs()} {plays.Count(c => c == '@')} {plays.IndexOf('@')} | {new ShortCounts().CountLetterA()}"
                + $" | {poem.Length} {width.EqualIgnoringCase()} {width.FindGermanLetter()} | {newer.CountStopBytes()} {twain.Count(b => b == (byte)'\r')} {newer.FindDetective()}"
            """);

        // Period at index 72 and 48; no '@', '`', '^' or '~' left once the 28 e-mail '@'s (the first at 95,132) are replaced; 16 'a's in the random arrays; a 600-char poem that
        // differs from its copy; no German letter in 10,000 newlines; every stop byte a line's '\r' (19,400); no detective.
        Assert.Equal("72 72 48 | False False 28 95132 | 16 | 600 False -1 | 19400 19400 False", text);
    }

    [Fact]
    public async Task Searching_library_calls_allocate_nothing_and_span_split_drops_the_208_bytes_of_string_split_C30_AS05_SP07_N9_S15_N10_M01()
    {
        var period = await AllocatedAsync(CellClasses(Searching, "class FindThePeriod"));
        var split = await AllocatedAsync(CellClasses(Searching, "class ListHasItem"), ["net9.0", "net10.0"]);
        var contains = await AllocatedAsync(CellClasses(Searching, "class SpanPathsInTheLibrary"), ["net9.0", "net10.0"], ["*ContainsWithComparer"]);

        foreach (var runtime in new[] { "net8.0", "net9.0", "net10.0" })
        {
            foreach (var method in new[] { "CharByChar", "StringIndexOf", "BytesIndexOfAny" })
            {
                AllocatesAbout(0, period[(method, runtime)], $"{method} on {runtime}");
            }
        }

        foreach (var runtime in new[] { "net9.0", "net10.0" })
        {
            AllocatesAbout(208, split[("WithStringSplit", runtime)], $"WithStringSplit on {runtime}");
            AllocatesAbout(0, split[("WithSpanSplit", runtime)], $"WithSpanSplit on {runtime}");
        }

        // .NET 9 walks the array as a span (no enumerator), .NET 10 hands it to the vectorized search: neither allocates.
        AllocatesAbout(0, contains[("ContainsWithComparer", "net9.0")], "ContainsWithComparer on net9.0");
        AllocatesAbout(0, contains[("ContainsWithComparer", "net10.0")], "ContainsWithComparer on net10.0");
    }

    [Fact]
    public async Task Searching_endswith_with_a_constant_suffix_is_a_jump_on_net8_and_one_masked_compare_without_a_call_from_net9_N9_S17()
    {
        var report = await Capture(CellClasses(Searching, "class TextFiles"), "IsTextFile");

        // The post's sizes: 26 bytes on .NET 8, 61 on .NET 9.
        var net8 = Only(report, "net8.0");
        Assert.Equal(26, net8.CodeSize);
        Assert.Contains(net8.Instructions, i => i.Contains("String:EndsWith", StringComparison.Ordinal));
        foreach (var runtime in new[] { "net9.0", "net10.0" })
        {
            var inline = Only(report, runtime);
            Assert.Equal(61, inline.CodeSize);
            Assert.Equal(0, inline.Calls);
            Assert.DoesNotContain(inline.Instructions, i => i.Contains("EndsWith", StringComparison.Ordinal));
            Assert.Contains(inline.Instructions, i => i.StartsWith("or", StringComparison.Ordinal));
            Assert.Contains(inline.Lines, l => l.Contains("0x20002000200000", StringComparison.Ordinal));
            Assert.Contains(inline.Lines, l => l.Contains("0x7400780074002E", StringComparison.Ordinal));
        }
    }
}
