using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>What readers see, pinned as reviewed files (Snapshots/).</summary>
public class ViewSnapshotTests
{
    private static BenchmarkRun SampleRun()
    {
        var n = new CaseParameter("N", "1000");
        var net8 = Fake.Outcome(
            "net8.0",
            "8.0.31",
            Fake.Case("Loop", 512.25, 0, baseline: false, errorNs: 3.5, parameters: n),
            Fake.Case("Linq", 2345.5, 4096, errorNs: 20, parameters: n),
            Fake.Case("Tiny", 0.0125, 0, errorNs: 0.001));
        var net10 = Fake.Outcome(
            "net10.0",
            "10.0.12",
            Fake.Case("Loop", 480.5, 0, errorNs: 80, parameters: n),
            Fake.Case("Linq", 600.75, 32, errorNs: 4, parameters: n),
            Fake.Case("Tiny", 0, 0, error: "System.InvalidOperationException: boom\n   at Demo.Bench.Tiny()"));
        return Fake.Run(BenchmarkMode.Quick, net8, net10) with
        {
            Environment = new Dictionary<string, string> { ["DOTNET_TieredPGO"] = "0" },
            Machine = new RunMachine("Linux 6.1", "X64", 2, "snapshot"),
        };
    }

    [Fact]
    public void Terminal_table() => Snapshot.Match("terminal-table", SampleRun().ToString());

    [Fact]
    public void Results_json() => Snapshot.Match("results-json", ResultJson.Serialize(SampleRun()));
}
