using PerfLab.Disassembly;

namespace PerfLab.Tests.Unit;

public class AsmListingTests
{
    // Shaped like a .NET 8 listing: hex as 20H, a method hash in labels, a shared range-check block.
    internal const string Net8Style = """
        ; Assembly listing for method Demo.Bench:Work(int[]):int:this (Tier1)
        ; Emitting BLENDED_CODE for X64 with AVX512 - Unix
        ; Tier1 code
        ; optimized code
        ; optimized using Dynamic PGO

        G_M1234_IG01:        ;; offset=0000H
               push     rbp
               mov      rdi, 7F0011223344H
               call     CORINFO_HELP_NEWSFAST
               lea      rdi, bword ptr [rbx+08H]
               call     CORINFO_HELP_ASSIGN_REF
               xor      ecx, ecx
        G_M1234_IG02:        ;; offset=0010H
               cmp      ecx, dword ptr [rsi+08H]
               jae      SHORT G_M1234_IG04
               add      eax, dword ptr [rsi+4*rcx+10H]
               cmp      ecx, 20H
               jae      SHORT G_M1234_IG04
               inc      ecx
               jl       SHORT G_M1234_IG02
        G_M1234_IG03:
               pop      rbp
               ret
        G_M1234_IG04:
               call     CORINFO_HELP_RNGCHKFAIL
               int3
        ; Total bytes of code 77

        """;

    private static AsmListing Parse(string text = Net8Style) => Assert.Single(AsmListing.ParseAll(text));

    [Fact]
    public void The_header_gives_method_tier_pgo_and_size()
    {
        var listing = Parse();
        Assert.Equal("Demo.Bench:Work(int[]):int:this", listing.Method);
        Assert.Equal("Tier1", listing.Tier);
        Assert.True(listing.UsesPgo);
        Assert.True(listing.IsOptimized);
        Assert.Equal(77, listing.CodeSize);
    }

    [Fact]
    public void A_listing_of_labels_instructions_and_data_is_well_formed_as_steady_state()
    {
        var listing = Parse(Net8Style.Replace("; Total bytes", "       tail.jmp [Demo.Bench:Other():int]\nRWD00  \tdq\t3FF0000000000000h\t;         1\n; Total bytes", StringComparison.Ordinal));

        Assert.Null(listing.Problem(steadyState: true));
    }

    [Fact]
    public void A_tier0_request_the_jit_optimized_at_once_is_a_steady_state()
    {
        // A method with a loop and a stackalloc: on-stack replacement cannot leave it later, so its first code is optimized and final.
        var listing = Parse(Net8Style.Replace("(Tier1)", "(Tier0-FullOpts)", StringComparison.Ordinal));

        Assert.True(listing.IsOptimized);
        Assert.Null(listing.Problem(steadyState: true));
    }

    [Fact]
    public void An_instrumented_tier0_listing_is_malformed_as_steady_state_and_well_formed_otherwise()
    {
        var listing = Parse(Net8Style.Replace("(Tier1)", "(Instrumented Tier0)", StringComparison.Ordinal));

        Assert.Equal("Instrumented Tier0 code where the steady state (optimized code) belongs", listing.Problem(steadyState: true));
        Assert.Null(listing.Problem(steadyState: false));
    }

    [Fact]
    public void Header_text_spliced_among_the_instructions_makes_a_listing_malformed()
    {
        var listing = Parse(Net8Style.Replace("       inc      ecx\n", "       inc      ecx\nAssembly listing for method Demo.Bench:Other():int:this (Tier1)\n", StringComparison.Ordinal));

        Assert.Equal("'Assembly listing for method Demo.Bench:Other():int:this (Tier1)' where instructions belong", listing.Problem(steadyState: false));
    }

    [Fact]
    public void Net8_hex_is_written_the_way_net9_writes_it()
    {
        var listing = Parse();
        Assert.Contains("cmp      ecx, dword ptr [rsi+0x08]", listing.Lines);
        Assert.Contains("cmp      ecx, 0x20", listing.Lines);
        Assert.Contains("add      eax, dword ptr [rsi+4*rcx+0x10]", listing.Lines);
        Assert.Equal("mov x, 0x0F", AsmListing.NormalizeHex("mov x, 0FH"));
    }

    [Fact]
    public void Each_branch_into_the_shared_range_check_block_is_a_bounds_check()
    {
        var listing = Parse();
        Assert.Equal(2, listing.BoundsChecks);
        Assert.Equal(1, listing.Allocations);
        Assert.Equal(1, listing.WriteBarriers);
        Assert.Equal(3, listing.Calls);
        Assert.Equal(1, listing.Loops);
    }

    [Fact]
    public void A_jump_back_to_a_returning_block_is_not_a_loop()
    {
        var text = Net8Style.Replace("jl       SHORT G_M1234_IG02", "jl       SHORT G_M1234_IG05", StringComparison.Ordinal)
            .Replace("G_M1234_IG04:\n", "G_M1234_IG05:\n       jmp      SHORT G_M1234_IG03\nG_M1234_IG04:\n", StringComparison.Ordinal);
        var listing = Parse(text);
        Assert.Contains("jmp      SHORT G_M1234_IG03", listing.Lines);
        Assert.Equal(0, listing.Loops);
    }

    [Fact]
    public void A_cold_block_that_jumps_back_to_rejoin_the_method_is_not_a_loop()
    {
        // .NET 9's N10-J01 shape: the delegate-call fallback sits after the epilog and jumps back into it.
        var listing = Parse("""
            ; Assembly listing for method Demo.Bench:Sum(int):int:this (Tier1)
            G_M000_IG01:
                   push     rbx
            G_M000_IG02:
                   cmp      qword ptr [rbx+0x18], rax
                   jne      SHORT G_M000_IG05
                   add      r15d, dword ptr [rax+0x08]
            G_M000_IG03:
                   add      eax, ebx
            G_M000_IG04:
                   pop      rbx
                   ret
            G_M000_IG05:
                   call     [rbx+0x18]System.Func`2[int,int]:Invoke(int):int:this
                   jmp      SHORT G_M000_IG03
            ; Total bytes of code 40

            """);

        Assert.Equal(0, listing.Loops);
    }

    [Fact]
    public void A_rotated_loop_entered_in_its_middle_is_one_loop()
    {
        // Tier1's shape of a counting loop: two backward jumps and a fall-through back edge, one loop.
        var listing = Parse("""
            ; Assembly listing for method Demo.Bench:CountEven():int:this (Tier1)
            G_M000_IG01:
                   push     rbp
            G_M000_IG02:
                   cmp      dword ptr [rdx+0x08], 0
                   jg       SHORT G_M000_IG07
            G_M000_IG03:
                   pop      rbp
                   ret
            G_M000_IG04:
                   align    [12 bytes for IG05]
            G_M000_IG05:
                   inc      eax
            G_M000_IG06:
                   inc      ecx
                   cmp      dword ptr [rdx+0x08], ecx
                   jle      SHORT G_M000_IG03
            G_M000_IG07:
                   test     byte ptr [rdi+4*rcx+0x10], 1
                   jne      SHORT G_M000_IG06
                   jmp      SHORT G_M000_IG05
            ; Total bytes of code 64

            """);

        Assert.Equal(1, listing.Loops);
    }

    [Fact]
    public void Nested_loops_count_as_two()
    {
        var listing = Parse("""
            ; Assembly listing for method Demo.Bench:Grid():int:this (Tier1)
            G_M000_IG01:
                   xor      ecx, ecx
            G_M000_IG02:
                   xor      edx, edx
            G_M000_IG03:
                   inc      edx
                   cmp      edx, 10
                   jl       SHORT G_M000_IG03
            G_M000_IG04:
                   inc      ecx
                   cmp      ecx, 10
                   jl       SHORT G_M000_IG02
            G_M000_IG05:
                   ret
            ; Total bytes of code 30

            """);

        Assert.Equal(2, listing.Loops);
    }

    [Fact]
    public void A_bool_method_net9_prints_as_ubyte_is_matched_with_the_other_runtimes()
    {
        var report = new AsmReport("IsDog", "steady state", [
            new RuntimeAsm("net8.0", "8.0.31", [new AsmListing("TypeTest:IsDog():bool:this", "Tier1", false, 35, ["ret"])], []),
            new RuntimeAsm("net9.0", "9.0.20", [new AsmListing("TypeTest:IsDog():ubyte:this", "Tier1", true, 62, ["nop", "ret"])], []),
        ]);

        var view = Assert.Single(report.Methods());
        Assert.Equal("TypeTest:IsDog():bool:this", view.Method);
        Assert.Equal(["net8.0", "net9.0"], view.Groups.SelectMany(g => g.Runtimes));
        Assert.Equal("TypeTest:IsDog():bool:this: net8.0 -> net9.0: 35 -> 62 bytes", Assert.Single(report.Summaries()));
    }

    [Fact]
    public void A_char_method_net8_and_net9_print_as_ushort_is_matched_and_named_as_csharp_names_it()
    {
        var report = new AsmReport("HexLower", "steady state", [
            new RuntimeAsm("net8.0", "8.0.31", [new AsmListing("Branches:HexLower(ushort):bool:this", "Tier1", true, 44, ["ret"])], []),
            new RuntimeAsm("net9.0", "9.0.20", [new AsmListing("Branches:HexLower(ushort):ubyte:this", "Tier1", true, 39, ["ret"])], []),
            new RuntimeAsm("net10.0", "10.0.12", [new AsmListing("Branches:HexLower(char):bool:this", "Tier1", false, 39, ["ret"])], []),
        ]);

        var view = Assert.Single(report.Methods());
        Assert.Equal("Branches:HexLower(char):bool:this", view.Method);
        Assert.Equal(["net8.0", "net9.0", "net10.0"], view.Groups.SelectMany(g => g.Runtimes));
    }

    [Fact]
    public void A_byte_vector_net8_and_net9_print_as_ubyte_is_matched_and_named_as_net10_names_it()
    {
        var report = new AsmReport("Square", "steady state", [
            new RuntimeAsm("net8.0", "8.0.31", [new AsmListing("VecProbe:Square():System.Runtime.Intrinsics.Vector128`1[ubyte]:this", "Tier1", false, 168, ["ret"])], []),
            new RuntimeAsm("net9.0", "9.0.20", [new AsmListing("VecProbe:Square():System.Runtime.Intrinsics.Vector128`1[ubyte]:this", "Tier1", false, 23, ["ret"])], []),
            new RuntimeAsm("net10.0", "10.0.12", [new AsmListing("VecProbe:Square():System.Runtime.Intrinsics.Vector128`1[byte]:this", "Tier1", false, 23, ["ret"])], []),
        ]);

        var view = Assert.Single(report.Methods());
        Assert.Equal("VecProbe:Square():System.Runtime.Intrinsics.Vector128`1[byte]:this", view.Method);
        Assert.Equal(["net8.0", "net9.0", "net10.0"], view.Groups.SelectMany(g => g.Runtimes));
        Assert.Equal(2, report.Summaries().Count);
    }

    // Three methods: Same has one code everywhere, Small changes one line on .NET 10, Large three.
    private static AsmReport ThreeMethods() => new("Shapes", "steady state", [
        new RuntimeAsm("net8.0", "8.0.31", [
            new AsmListing("Shapes:Same():int:this", "Tier1", false, 3, ["xor      eax, eax", "ret"]),
            new AsmListing("Shapes:Small():int:this", "Tier1", false, 6, ["mov      eax, 1", "ret"]),
            new AsmListing("Shapes+Inner:Large(int):int:this", "Tier1", false, 9, ["mov      eax, esi", "add      eax, eax", "add      eax, eax", "ret"])], []),
        new RuntimeAsm("net10.0", "10.0.12", [
            new AsmListing("Shapes:Same():int:this", "Tier1", false, 3, ["xor      eax, eax", "ret"]),
            new AsmListing("Shapes:Small():int:this", "Tier1", false, 6, ["mov      eax, 2", "ret"]),
            new AsmListing("Shapes+Inner:Large(int):int:this", "Tier1", false, 4, ["lea      eax, [4*rsi]", "ret"])], []),
    ]);

    [Fact]
    public void A_report_of_several_methods_leads_with_the_one_whose_code_differs_most_and_opens_only_it()
    {
        var report = ThreeMethods();

        var html = PerfLab.Views.Html.AsmHtml.Fragment(report);
        var text = report.ToString();

        Assert.Equal(["Shapes+Inner:Large(int):int:this", "Shapes:Same():int:this", "Shapes:Small():int:this"], report.Methods().Select(v => v.Method));
        Assert.Equal(["Shapes+Inner:Large(int):int:this"], html.Split("<details open><summary><code>").Skip(1).Select(s => s[..s.IndexOf('<', StringComparison.Ordinal)]));
        Assert.Equal(3, html.Split("<details").Length - 1);
        Assert.StartsWith("── Shapes+Inner:Large(int):int:this  ◀ first: its code differs most between runtimes (3 lines changed)\n", text[text.IndexOf("── ", StringComparison.Ordinal)..], StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Small", "Shapes:Small():int:this")]
    [InlineData("Shapes.Small", "Shapes:Small():int:this")]
    [InlineData("Inner.Large", "Shapes+Inner:Large(int):int:this")]
    [InlineData("Shapes.Inner.Large", "Shapes+Inner:Large(int):int:this")]
    [InlineData("Shapes:Same():int:this", "Shapes:Same():int:this")]
    public void Opening_a_method_by_name_leads_with_it(string name, string opened)
    {
        var report = ThreeMethods().Opening(name);

        var views = report.Methods();

        Assert.Equal(opened, views[0].Method);
        Assert.Equal([true, false, false], views.Select(v => v.Lead));
        Assert.Contains($"── {opened}  ◀ first: named to open", report.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void Opening_a_name_no_listing_has_is_refused_naming_the_listings()
    {
        var error = Assert.Throws<PerfLabException>(() => ThreeMethods().Opening("Shapes.Large"));

        Assert.Equal("There is no listing of Shapes.Large to open: the listings are of Shapes.Same, Shapes.Small, Shapes.Inner.Large.", error.Message);
    }

    [Fact]
    public void Opening_a_name_several_overloads_share_is_refused_naming_them()
    {
        var report = new AsmReport("Add", "steady state", [
            new RuntimeAsm("net10.0", "10.0.12", [new AsmListing("Sums:Add(int):int:this", "Tier1", false, 3, ["ret"]), new AsmListing("Sums:Add(long):long:this", "Tier1", false, 4, ["ret"])], []),
        ]);

        var error = Assert.Throws<PerfLabException>(() => report.Opening("Add"));

        Assert.Equal("Add names 2 listings: Sums:Add(int):int:this; Sums:Add(long):long:this.", error.Message);
        Assert.Equal("Sums:Add(long):long:this", report.Opening("Sums:Add(long):long:this").Methods()[0].Method);
    }

    [Fact]
    public void Summary_names_size_and_every_count_that_changed()
    {
        var before = Parse();
        var after = Parse(Net8Style
            .Replace("       jae      SHORT G_M1234_IG04\n       add", "       add", StringComparison.Ordinal)
            .Replace("       call     CORINFO_HELP_NEWSFAST\n", "", StringComparison.Ordinal)
            .Replace("Total bytes of code 77", "Total bytes of code 60", StringComparison.Ordinal));

        Assert.Equal("net9.0 -> net10.0: 77 -> 60 bytes, bounds checks 2 -> 1, allocations 1 -> 0, calls 3 -> 2", AsmDiff.Summary("net9.0", before, "net10.0", after));
        Assert.Equal("net8.0 -> net9.0: same code", AsmDiff.Summary("net8.0", before, "net9.0", Parse(Net8Style.Replace("7F0011223344H", "7F9988776655H", StringComparison.Ordinal).Replace("G_M1234", "G_M000", StringComparison.Ordinal))));
    }

    [Fact]
    public void Alignment_pairs_equal_lines_and_marks_the_rest()
    {
        var before = Parse();
        var after = Parse(Net8Style.Replace("inc      ecx", "add      ecx, 2", StringComparison.Ordinal));
        var rows = AsmDiff.Align(before, after);

        Assert.Equal(2, rows.Count(r => r.Changed));
        Assert.Contains(rows, r => r is { Left: "inc      ecx", Right: null, Changed: true });
        Assert.Contains(rows, r => r is { Left: null, Right: "add      ecx, 2", Changed: true });
    }

    [Fact]
    public void Several_listings_come_back_in_order()
    {
        var text = Net8Style.Replace("(Tier1)", "(Instrumented Tier0)", StringComparison.Ordinal) + Net8Style;
        var listings = AsmListing.ParseAll(text);
        Assert.Equal(["Instrumented Tier0", "Tier1"], listings.Select(l => l.Tier));
        Assert.False(listings[0].IsOptimized);
    }
}
