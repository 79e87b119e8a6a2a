using PerfLab.Contract;
using PerfLab.Course.Room;
using PerfLab.Disassembly;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>What the room page shows: cells most recent first, each laptop's latest run, who has not run it, machines grouped.</summary>
public class RoomSummaryTests
{
    [Fact]
    public void Cells_come_most_recent_first_with_each_laptops_latest_run_and_the_laptops_missing()
    {
        var ana = Fake.Post(nickname: "ana", code: 'a', net10Ns: 80);
        var bo = Fake.Post(nickname: "bo", code: 'a', net10Ns: 50);
        var anaAgain = Fake.Post(laptop: ana.Laptop, nickname: "ana", code: 'a', net10Ns: 40);
        var cy = Fake.Post(nickname: "cy", code: 'b', mode: BenchmarkMode.Smoke);

        var summary = RoomSummary.Of([ana, bo, anaAgain, cy]);

        Assert.Equal(["ana", "bo", "cy"], summary.Laptops);
        Assert.Equal([new string('b', 64), new string('a', 64)], summary.Cells.Select(c => c.Code));
        var first = summary.Cells[1];
        Assert.Equal(["ana", "bo"], first.Results.Select(r => r.Nickname));
        Assert.Equal(["cy"], first.Missing);
        var anaRatio = Assert.Single(first.Results[0].Ratios);
        Assert.Equal(("Bench.Sum", "net10.0", "net8.0"), (anaRatio.Case, anaRatio.Runtime, anaRatio.Baseline));
        Assert.Equal(0.4, anaRatio.Ratio, 3);
        var smoke = Assert.Single(summary.Cells[0].Results);
        Assert.Equal(("cy", "smoke"), (smoke.Nickname, smoke.Mode));
        Assert.Empty(smoke.Ratios);
        Assert.Equal(["ana", "bo"], summary.Cells[0].Missing);
    }

    [Fact]
    public void Machines_are_grouped_by_architecture_and_AVX_512()
    {
        static InstructionSets Sets(params (string Feature, int Value)[] rows) =>
            new(["net10.0 10.0.12"], [], rows.Select(r => new InstructionSetRow(r.Feature, false, [r.Value])).ToArray());

        Assert.Equal("x64 with AVX-512", RoomSummary.Group(Sets(("AVX2", 1), ("AVX-512F", 1)), "linux-x64"));
        Assert.Equal("x64 with AVX2, no AVX-512", RoomSummary.Group(Sets(("AVX2", 1), ("AVX-512F", 0)), "win-x64"));
        Assert.Equal("x64 without AVX2", RoomSummary.Group(Sets(("AVX2", 0)), "linux-x64"));
        Assert.Equal("Arm64", RoomSummary.Group(Sets(("AdvSimd (Neon)", 1)), "osx-arm64"));
    }
}
