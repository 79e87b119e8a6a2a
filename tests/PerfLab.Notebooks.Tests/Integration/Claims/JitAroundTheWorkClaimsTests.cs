using PerfLab.Disassembly;
using PerfLab.Notebooks.Tests.Support;
using static PerfLab.Notebooks.Tests.Support.NotebookClaims;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// What jit/08 says each listing holds, checked on the listings the notebook routes captured in this test run (the
/// collection's fixture ran them; the claims only read the cache).
/// </summary>
[Collection(BothRoutes.Name)]
public class JitAroundTheWorkClaimsTests
{
    internal const string AroundTheWork = "jit/08-tier0-inlining-and-stores.ipynb";

    /// <summary>N9-J02: .NET 8's Tier0 code boxes the int and calls ThrowIfNull; .NET 9 and 10 do neither.</summary>
    [X64Fact("the notebook reads x64 listings")]
    public async Task Tier0_checked_int_boxes_and_calls_throw_if_null_only_on_net8()
    {
        var report = await RouteListingsAsync(AroundTheWork, "class OrderLines", AsmVariant.Tier0, null, "Checked");

        var net8 = Only(report, "net8.0");
        Assert.True(net8.Tier == "Tier0" && net8.Helpers.Contains("CORINFO_HELP_NEWSFAST") && Calls(net8, "ThrowIfNull"), $"net8.0: the notebook says Tier0 allocates the box and calls ThrowIfNull:\n{net8}");
        foreach (var runtime in new[] { "net9.0", "net10.0" })
        {
            var listing = Only(report, runtime);
            Assert.True(listing.Tier == "Tier0" && listing.Allocations == 0 && listing.Calls == 0, $"{runtime}: the notebook says Tier0 has neither the box nor a call:\n{listing}");
        }
    }

    /// <summary>.NET 8 and 9 call Steps four times; .NET 10 inlines all four, with no call, allocation or bounds check left, at about 500 bytes.</summary>
    [X64Fact("the notebook reads x64 listings")]
    public async Task Window_is_four_calls_before_net10_and_inlined_without_allocation_on_net10()
    {
        var report = await RouteListingsAsync(AroundTheWork, "class Window", AsmVariant.SteadyState, null, "CountSteps");

        foreach (var runtime in new[] { "net8.0", "net9.0" })
        {
            var listing = Only(report, runtime);
            Assert.True(listing.Calls == 4 && listing.Instructions.Count(l => l.StartsWith("call", StringComparison.Ordinal) && l.Contains(":Steps(", StringComparison.Ordinal)) == 4 && listing.CodeSize == 96,
                $"{runtime}: the notebook says CountSteps is four calls of Steps in 96 bytes:\n{listing}");
        }

        var net10 = Only(report, "net10.0");
        Assert.True(net10.Calls == 0 && net10.Allocations == 0 && net10.BoundsChecks == 0 && net10.CodeSize is > 450 and < 550 && net10.Instructions.Count(l => l.StartsWith("idiv", StringComparison.Ordinal)) == 4,
            $"net10.0: the notebook says everything is inlined (about 500 bytes), with no call, allocation or bounds check, and one idiv per range:\n{net10}");
    }

    /// <summary>
    /// .NET 8 and 9: one loop with the bounds check and the finally's decrement; .NET 10: one test before the loop, a fast
    /// copy that walks a pointer with no check, and the slow copy that keeps it.
    /// </summary>
    [X64Fact("the notebook reads x64 registers")]
    public async Task Turnstile_loop_is_cloned_with_its_try_only_on_net10()
    {
        var report = await RouteListingsAsync(AroundTheWork, "class Turnstile", AsmVariant.SteadyState, null, "CountPasses");

        foreach (var runtime in new[] { "net8.0", "net9.0" })
        {
            var listing = Only(report, runtime);
            var instructions = listing.Instructions.Select(Spaced).ToList();
            Assert.True(listing.Loops == 1 && listing.BoundsChecks == 1 && instructions.Contains("cmp esi, dword ptr [rax+0x08]"),
                $"{runtime}: the notebook says one loop compares the index with the length (cmp esi, dword ptr [rax+0x08]) on every pass:\n{listing}");
        }

        var net10 = Only(report, "net10.0");
        var spaced = net10.Instructions.Select(Spaced).ToList();
        var test = spaced.IndexOf("cmp dword ptr [rax+0x08], ecx");
        Assert.True(net10.Loops == 2 && test >= 0 && spaced[test + 1].StartsWith("jl ", StringComparison.Ordinal) && spaced.Contains("add rax, 4"),
            $"net10.0: the notebook says a test before the loop (cmp dword ptr [rax+0x08], ecx; jl) picks a fast copy that walks a pointer (add rax, 4), beside the slow copy:\n{net10}");
    }

    /// <summary>
    /// N9-J10 with AVX-512: .NET 8 zeroes the 256-byte scratch in a loop of three 16-byte stores; .NET 9 with three 64-byte
    /// and three 16-byte stores; .NET 10 with four 64-byte stores, the last at rsp+0xC0.
    /// </summary>
    [X64Fact("the notebook reads x64 listings")]
    public async Task Digit_scratch_zeroing_is_a_loop_on_net8_and_64_byte_stores_on_net9_and_net10()
    {
        var report = await RouteListingsAsync(AroundTheWork, "class DigitScratch", AsmVariant.SteadyState, null, "DigitsZeroed");
        if (!System.Runtime.Intrinsics.X86.Avx512F.IsSupported)
        {
            return; // The notebook describes the AVX-512 listings and says a machine without it uses narrower stores.
        }

        var net8 = Only(report, "net8.0").Instructions.Select(Spaced).ToList();
        Assert.True(net8.Contains("mov rax, -240") && net8.Contains("add rax, 48") && net8.Count(i => i.StartsWith("vmovdqa xmmword ptr [rsp+rax", StringComparison.Ordinal)) == 3,
            $"net8.0: the notebook says a loop (mov rax, -240 ... add rax, 48) of three 16-byte stores:\n{string.Join("\n", net8)}");
        var net9 = Only(report, "net9.0").Instructions.Select(Spaced).ToList();
        Assert.True(net9.Count(i => i.StartsWith("vmovdqu32 zmmword ptr", StringComparison.Ordinal)) == 3 && net9.Count(i => i.StartsWith("vmovdqa xmmword ptr", StringComparison.Ordinal)) == 3 && !net9.Contains("add rax, 48"),
            $"net9.0: the notebook says three 64-byte and three 16-byte stores, no loop:\n{string.Join("\n", net9)}");
        var net10 = Only(report, "net10.0").Instructions.Select(Spaced).ToList();
        Assert.True(net10.Count(i => i.StartsWith("vmovdqu32 zmmword ptr", StringComparison.Ordinal)) == 4 && net10.Contains("vmovdqu32 zmmword ptr [rsp+0xC0], zmm8"),
            $"net10.0: the notebook says four 64-byte stores, the last at rsp+0xC0:\n{string.Join("\n", net10)}");
    }

    /// <summary>
    /// N9-J13: in WriteLabels (Write inlined), .NET 8 writes a char per store into the array; .NET 9 and 10 merge CRITICAL into
    /// two 8-byte stores and ERROR into one and a 2-byte store, and .NET 10 reads _line inside the loop where .NET 9 reads it
    /// before; through a span, a store per char everywhere.
    /// </summary>
    [X64Fact("the notebook reads x64 listings")]
    public async Task Constant_stores_merge_into_arrays_on_net9_and_net10_but_not_through_spans()
    {
        var array = await RouteListingsAsync(AroundTheWork, "class SeverityLabel", AsmVariant.SteadyState, null, "WriteLabels");
        var span = await RouteListingsAsync(AroundTheWork, "class SpanLabel", AsmVariant.SteadyState, null, "Write");
        static int WordStores(AsmListing listing) => listing.Instructions.Count(l => l.StartsWith("mov", StringComparison.Ordinal) && l.Contains("word ptr [", StringComparison.Ordinal) && !l.Contains("qword", StringComparison.Ordinal) && !l.Contains("dword", StringComparison.Ordinal) && !l.Contains("gword", StringComparison.Ordinal));

        var net8 = Only(array, "net8.0");
        Assert.True(net8.Calls == 0 && WordStores(net8) == 13, $"net8.0: the notebook says Write is inlined and writes a char per store (8 + 5):\n{net8}");
        foreach (var runtime in new[] { "net9.0", "net10.0" })
        {
            var listing = Only(array, runtime);
            Assert.True(listing.Calls == 0 && WordStores(listing) == 1 && listing.Instructions.Any(l => l.EndsWith(", 0x54004900520043", StringComparison.Ordinal)) && listing.Instructions.Any(l => l.EndsWith(", 0x4F005200520045", StringComparison.Ordinal)),
                $"{runtime}: the notebook says CRITICAL is two 8-byte stores (the first of C, R, I, T) and ERROR one 8-byte and one 2-byte store:\n{listing}");
        }

        var net9 = Only(array, "net9.0").Instructions.Select(Spaced).ToList();
        var net10 = Only(array, "net10.0").Instructions.Select(Spaced).ToList();
        Assert.True(net10.Contains("mov r9, gword ptr [rdi+0x08]") && !net9.Contains("mov r9, gword ptr [rdi+0x08]") && net9.Contains("mov rdi, gword ptr [rdi+0x08]"),
            $"the notebook says .NET 10 reads _line in the loop (mov r9, gword ptr [rdi+0x08]) and .NET 9 once before it:\nnet9.0:\n{string.Join("\n", net9)}\nnet10.0:\n{string.Join("\n", net10)}");
        Assert.All(AllRuntimes, runtime => Assert.Equal(8, WordStores(Only(span, runtime))));
    }

    private static bool Calls(AsmListing listing, string name) =>
        listing.Instructions.Any(l => l.StartsWith("call", StringComparison.Ordinal) && l.Contains(name, StringComparison.Ordinal));
}
