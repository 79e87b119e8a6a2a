using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>`perflab asm`, as a process: the listings side by side, the cache, and a method that is not there.</summary>
[Collection(BusyCliRuns.Name)]
public class AsmCommandTests
{
    [X64Fact("the summary states the sizes of x64 listings")]
    public async Task Asm_prints_each_runtimes_listing_and_the_summary()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Facts.cs", Sources.AsmFacts());

        var result = await CliProcess.RunAsync(["asm", file, "--method", "LengthSwitch.Pack", "--runtimes", "net9.0", "net10.0"], TestHome.Environment);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("asm of LengthSwitch.Pack · steady state (Tier1 with dynamic PGO) · net9.0 9.0.20, net10.0 10.0.12", result.Output, StringComparison.Ordinal);
        Assert.Contains("net9.0 -> net10.0: 118 -> 84 bytes, bounds checks 6 -> 0", result.Output, StringComparison.Ordinal);
        Assert.Contains("   net9.0: Tier1", result.Output, StringComparison.Ordinal);
        Assert.Contains("│ net10.0", result.Output, StringComparison.Ordinal);
        Assert.Contains("call     CORINFO_HELP_RNGCHKFAIL", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Asm_answers_an_unchanged_command_from_the_cache_and_force_captures_again()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Facts.cs", Sources.AsmFacts());
        string[] args = ["asm", file, "--method", "UnknownIndex", "--runtimes", "net10.0"];

        var first = await CliProcess.RunAsync(args, TestHome.Environment);
        var second = await CliProcess.RunAsync(args, TestHome.Environment);
        var forced = await CliProcess.RunAsync([.. args, "--force"], TestHome.Environment);

        Assert.All(new[] { first, second, forced }, r => Assert.True(r.ExitCode == 0, r.ToString()));
        Assert.Contains("capturing the JIT's code for UnknownIndex on net10.0", first.Error, StringComparison.Ordinal);
        Assert.Equal("net10.0: cached listing (use --force to capture again)", second.Error.Trim());
        Assert.Equal(first.Output, second.Output);
        Assert.Contains("capturing the JIT's code for UnknownIndex on net10.0", forced.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("cached listing", forced.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Asm_of_an_unknown_method_gets_one_message_with_close_matches()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Facts.cs", Sources.AsmFacts());

        var result = await CliProcess.RunAsync(["asm", file, "--method", "ConstantIdx"], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("error: No method named 'ConstantIdx' in the benchmark source.", result.Error, StringComparison.Ordinal);
        Assert.Contains("fix: Did you mean: Lookups.ConstantIndex", result.Error, StringComparison.Ordinal);
    }
}
