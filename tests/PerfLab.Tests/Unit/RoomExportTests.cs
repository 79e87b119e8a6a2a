using System.Text.Json.Nodes;
using PerfLab.Contract;
using PerfLab.Course.Room;
using PerfLab.Results;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>
/// `perflab room export`: the room's results in the reference machine file's format, one machine per laptop, each cell's
/// latest run; read back by fidelity and the site; every bad input one message.
/// </summary>
public class RoomExportTests
{
    private const long Plenty = 1L << 30;

    [Fact]
    public async Task The_export_holds_one_reference_format_machine_per_laptop_with_each_cells_latest_run()
    {
        using var folder = new TempFolder();
        var room = Path.Combine(folder.Path, "room");
        var ana = Fake.Post(nickname: "ana", code: 'a', net10Ns: 80);
        var bo = Fake.Post(nickname: "bo", code: 'a', net10Ns: 50);
        var anaAgain = Fake.Post(laptop: ana.Laptop, nickname: "ana", code: 'a', net10Ns: 40);
        var cy = Fake.Post(nickname: "cy", code: 'b', mode: BenchmarkMode.Smoke);
        var anaB = Fake.Post(laptop: ana.Laptop, nickname: "ana", code: 'b', net10Ns: 70);
        using (var ledger = RoomLedger.Create(room))
        {
            foreach (var post in new[] { ana, bo, anaAgain, cy, anaB })
            {
                Assert.Equal(AdmissionKind.Stored, (await ledger.AppendAsync(post, Plenty, CancellationToken.None)).Kind);
            }
        }

        var (json, laptops, runs) = RoomExport.Of(room);

        Assert.Equal((3, 4), (laptops, runs));
        var document = JsonNode.Parse(json)!.AsObject();
        Assert.Equal(RoomExport.Schema, (string?)document["schema"]);
        var machines = document["machines"]!.AsArray().Select(m => m!.AsObject()).ToArray();
        Assert.Equal(["ana", "bo", "cy"], machines.Select(m => (string?)m["machine"]!["name"]));
        Assert.All(machines, m => Assert.Equal(ReferenceDocument.Schema, (string?)m["schema"]));
        Assert.Equal(["quick", "quick", "smoke"], machines.Select(m => (string?)m["mode"]));
        Assert.Equal("Test CPU", (string?)machines[0]["machine"]!["processor"]);
        Assert.NotNull(machines[0]["machine"]!["instructionSets"]);
        Assert.Equal(RoomSummary.Group(ana.InstructionSets, "linux-x64"), (string?)machines[0]["machine"]!["group"]);
        var anaRuns = machines[0]["runs"]!.AsArray();
        Assert.Equal([new string('a', 64), new string('b', 64)], anaRuns.Select(r => (string?)r!["code"]));
        // The cell's latest run: 40 ns on .NET 10, not the first post's 80.
        Assert.Equal(0.4, (double)anaRuns[0]!["run"]!["results"]!.AsArray().Single(r => (string?)r!["runtime"] == "net10.0")!["ratio"]!, 3);

        // Each machine is a reference machine file as data/reference/machines holds them.
        using var reference = new TempFolder();
        foreach (var machine in machines)
        {
            reference.Write((string?)machine["machine"]!["name"] + ".json", machine.ToJsonString());
        }

        var (loaded, problems) = ReferenceRuns.Load(reference.Path);
        Assert.Empty(problems);
        Assert.Equal(["ana", "bo", "cy"], loaded.Select(m => m.Name));
        var exported = folder.Write("room.json", json);
        var read = RoomExport.Read(exported);
        Assert.Equal([2, 1, 1], read.Select(m => m.Runs.Count));
        Assert.Equal(BenchmarkMode.Smoke, read[2].Runs[0].Run.Mode);
        Assert.Null(read[2].Runs[0].Run.Results[0].Statistics);
    }

    [Fact]
    public async Task Export_and_its_reader_refuse_each_bad_input_with_one_message()
    {
        using var folder = new TempFolder();
        var empty = Path.Combine(folder.Path, "empty-room");
        RoomLedger.Create(empty).Dispose();
        var room = Path.Combine(folder.Path, "room");
        using (var ledger = RoomLedger.Create(room))
        {
            await ledger.AppendAsync(Fake.Post(), Plenty, CancellationToken.None);
        }

        var good = JsonNode.Parse(RoomExport.Of(room).Json)!.AsObject();
        good["machines"]![0]!["schema"] = "perflab-reference/0";
        var cases = new (Action Act, string Message, string Fix)[]
        {
            (() => RoomExport.Of(folder.Path), $"{folder.Path} holds no room (no room.json).", "Pass the folder `perflab room serve` printed"),
            (() => RoomExport.Of(empty), $"The room in {empty} holds no result yet.", "once laptops have run a cell"),
            (() => RoomExport.Read(Path.Combine(folder.Path, "none.json")), $"--room: there is no {Path.Combine(folder.Path, "none.json")}.", "perflab room export FOLDER --out FILE"),
            (() => RoomExport.Read(folder.Write("torn.json", "{\"schema\": ")), "--room: " + Path.Combine(folder.Path, "torn.json") + " is not valid JSON (", "perflab room export FOLDER --out FILE"),
            (() => RoomExport.Read(RepoFiles.Path("data/reference/machines/course-machine-linux-x64.json")), $"--room: {RepoFiles.Path("data/reference/machines/course-machine-linux-x64.json")} is schema perflab-reference/1; this PerfLab reads a room's export, {RoomExport.Schema}.", "export the room again"),
            (() => RoomExport.Read(folder.Write("old.json", good.ToJsonString())), $"--room: machine 1 of {Path.Combine(folder.Path, "old.json")} cannot be read (it is not a perflab-reference/1 document).", "export the room again"),
        };

        foreach (var (act, message, fix) in cases)
        {
            var refused = Assert.Throws<PerfLabException>(act);
            Assert.StartsWith(message, refused.Message, StringComparison.Ordinal);
            Assert.Contains(fix, refused.Fix, StringComparison.Ordinal);
        }
    }
}
