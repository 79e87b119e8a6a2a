using PerfLab.Contract;
using PerfLab.Disassembly;
using PerfLab.GeneratedRegexSource;
using PerfLab.Results;
using PerfLab.Tests.Support;
using PerfLab.Views.Charts;
using PerfLab.Views.Html;
using PerfLab.Views.Json;

namespace PerfLab.Tests.Unit;

/// <summary>What readers see, pinned as reviewed files (Snapshots/).</summary>
public class ViewSnapshotTests
{
    private static BenchmarkRun SampleRun()
    {
        var n = new CaseParameter("N", "1000");
        CaseLaunches Launches(string method, long allocated, params double[][] launches) =>
            new(launches.Select(m => Fake.Launch(method, m, allocated: allocated, parameters: [n])).ToArray());
        var net8 = Fake.Launched(
            "net8.0",
            "8.0.31",
            Launches("Loop", 0, [510, 514.5], [509, 513], [515, 516]),
            Launches("Linq", 4096, [2340, 2351], [2330, 2361], [2349, 2342]),
            new CaseLaunches([Fake.Case("Tiny", 0.0125, 0, errorNs: 0.001)]));
        var net10 = Fake.Launched(
            "net10.0",
            "10.0.12",
            Launches("Loop", 0, [470, 491], [520, 560], [455, 470]),
            Launches("Linq", 32, [600, 601.5], [598, 603], [601, 600]),
            new CaseLaunches([Fake.Case("Tiny", 0, 0, error: "System.InvalidOperationException: boom\n   at Demo.Bench.Tiny()")]));
        return Fake.Run(BenchmarkMode.Quick, net8, net10) with
        {
            Environment = new Dictionary<string, string> { ["DOTNET_TieredPGO"] = "0" },
            Machine = new RunMachine("Linux 6.1", "X64", 2, "snapshot", "Snapshot CPU"),
        };
    }

    internal static AsmReport SampleAsm()
    {
        var old = AsmListing.ParseAll(AsmListingTests.Net8Style)[0];
        var same = AsmListing.ParseAll(AsmListingTests.Net8Style.Replace("7F0011223344H", "7F5566778899H", StringComparison.Ordinal))[0];
        var improved = AsmListing.ParseAll(AsmListingTests.Net8Style
            .Replace("       jae      SHORT G_M1234_IG04\n       add", "       add", StringComparison.Ordinal)
            .Replace("       call     CORINFO_HELP_NEWSFAST\n", "", StringComparison.Ordinal)
            .Replace("Total bytes of code 77", "Total bytes of code 60", StringComparison.Ordinal))[0];
        return new AsmReport("Work", "steady state (Tier1 with dynamic PGO)",
        [
            new RuntimeAsm("net8.0", "8.0.31", [old], []),
            new RuntimeAsm("net9.0", "9.0.20", [same], []),
            new RuntimeAsm("net10.0", "10.0.12", [improved], ["Work › lambda"]),
        ]);
    }

    private static InstructionSets SampleInstructionSets() => new(
        ["net8.0 8.0.31", "net10.0 10.0.12"],
        ["DOTNET_EnableAVX512F=0"],
        [
            new InstructionSetRow("Vector512.IsHardwareAccelerated", false, [0, 0]),
            new InstructionSetRow("Vector<T> width in bits", true, [256, 256]),
            new InstructionSetRow("AVX-512BW (byte and word lanes)", false, [1, 0]),
        ]);

    private static BreakEven SampleBreakEven()
    {
        static RuntimeOutcome Outcome(string moniker, string version, double buildFrozen, double readFrozen, bool failing = false) => Fake.Outcome(moniker, version,
            Fake.Case("BuildPlain", 1000, 0, error: failing ? "boom" : null), Fake.Case("ReadPlain", 500, 0), Fake.Case("BuildFrozen", buildFrozen, 0), Fake.Case("ReadFrozen", readFrozen, 0));
        var run = Fake.Run(BenchmarkMode.Quick, Outcome("net8.0", "8.0.31", 5000, 300, failing: true), Outcome("net9.0", "9.0.20", 5000, 500), Outcome("net10.0", "10.0.12", 900, 400));
        return BreakEven.From(run, new BreakEvenSide("Dictionary", "BuildPlain", "ReadPlain"), new BreakEvenSide("Frozen", "BuildFrozen", "ReadFrozen"), readsPerCall: 100);
    }

    [Fact]
    public void Instruction_sets_terminal_view() => Snapshot.Match("instruction-sets-terminal", SampleInstructionSets().ToString());

    [Fact]
    public void Instruction_sets_html_view() => Snapshot.Match("instruction-sets-html", InstructionSetsHtml.Fragment(SampleInstructionSets()));

    [Fact]
    public void Break_even_terminal_view() => Snapshot.Match("break-even-terminal", SampleBreakEven().ToString());

    [Fact]
    public void Asm_terminal_view() => Snapshot.Match("asm-terminal", SampleAsm().ToString());

    [Fact]
    public void Asm_html_view() => Snapshot.Match("asm-html", AsmHtml.Page(SampleAsm()));

    [Fact]
    public void Regex_source_terminal_view() => Snapshot.Match("regex-source-terminal", new RegexSourceReport(@"\w*\p{Sm}", System.Text.RegularExpressions.RegexOptions.None,
    [
        RegexSourceTests.Runtime("net8.0", RegexSourceTests.Net9Like(GeneratedRegexFiles.WordThenMathSymbol)),
        RegexSourceTests.Runtime("net9.0", RegexSourceTests.Net9Like(GeneratedRegexFiles.WordThenMathSymbol)),
        RegexSourceTests.Runtime("net10.0", GeneratedRegexFiles.WordThenMathSymbol),
    ]).ToString());

    [Fact]
    public void Results_html_table() => Snapshot.Match("results-table-html", ResultsHtml.Table(SampleRun()));

    [Fact]
    public void Chart_json() => Snapshot.Match("charts-json", string.Join("\n", BenchmarkCharts.For(SampleRun()).Select(c => $"{c.Id}: {c.Title}\n{c.Figure.ToJsonString(JsonFormats.Indented)}")));

    [Fact]
    public void Terminal_table() => Snapshot.Match("terminal-table", SampleRun().ToString());

    [Fact]
    public void Results_json() => Snapshot.Match("results-json", ResultJson.Serialize(SampleRun()));
}
