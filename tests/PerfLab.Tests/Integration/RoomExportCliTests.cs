using PerfLab.Course.Room;
using PerfLab.Course.Site;
using PerfLab.Disassembly;
using PerfLab.Results;
using PerfLab.Room;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>
/// `perflab room export`, then `perflab fidelity --room` and `perflab site --room` reading the export beside the
/// reference, from the real command; every bad input one message. The room's laptops post the reference machine's own
/// runs (real rows that name the posts' figures), so their ratios are known.
/// </summary>
public class RoomExportCliTests
{
    [Fact]
    public async Task Fidelity_reads_a_rooms_export_beside_the_reference_machines()
    {
        using var folder = new TempFolder();
        var room = await RoomOfReferenceRunsAsync(folder, "ana", "b|o");
        var export = Path.Combine(folder.Path, "export", "room.json");

        var exported = await CliProcess.RunAsync(["room", "export", room, "--out", export], TestHome.Environment);
        var report = await CliProcess.RunAsync(["fidelity", "--room", export, "--out", Path.Combine(folder.Path, "fidelity")], TestHome.Environment);

        Assert.True(exported.ExitCode == 0, exported.ToString());
        Assert.Matches(@"^Exported 2 laptops, \d+ runs: " + System.Text.RegularExpressions.Regex.Escape(export) + "\n$", exported.Output);
        Assert.True(report.ExitCode == 0, report.ToString());
        var markdown = File.ReadAllText(Path.Combine(folder.Path, "fidelity", "fidelity.md"));
        Assert.Contains("| Figure | Compared | Published | Reference | Agrees | Room | Room agrees |", markdown, StringComparison.Ordinal);
        Assert.Contains($"**Room**: {export}, 2 laptops (ana: ", markdown, StringComparison.Ordinal);
        // The laptops ran the reference machine's runs: N10-J01's row shows the same ratio for the machine and each laptop.
        var j01 = markdown.Split('\n').First(l => l.StartsWith("| N10-J01 |", StringComparison.Ordinal)).Split(" | ");
        var reference = j01[3].Split(' ')[1];
        Assert.StartsWith($"ana {reference}", j01[5], StringComparison.Ordinal);
        Assert.Contains($"; b\\|o {reference}", j01[5], StringComparison.Ordinal);
        Assert.Equal(j01[4], j01[6].TrimEnd(' ', '|'));
        Assert.Contains("\"room\": [", File.ReadAllText(Path.Combine(folder.Path, "fidelity", "fidelity.json")), StringComparison.Ordinal);

        // The site's note under a cell the room ran.
        var site = SiteRoom.Read(export)!;
        var code = ReferenceDocument.Read(ReferenceFile).Runs.First(r => r.Suite == "notebooks/00-start-here.ipynb").Code!;
        var note = PerfLab.Course.Site.Pages.SitePages.RoomNoteHtml(site.Note(code)!);
        Assert.StartsWith("In the room (room.json), 2 laptops ran this code: ", note, StringComparison.Ordinal);
        Assert.Contains(" on net10.0 / net8.0: ana ", note, StringComparison.Ordinal);
        Assert.Contains(", b|o ", note, StringComparison.Ordinal);
        Assert.Null(site.Note(new string('0', 64)));
    }

    [Fact]
    public async Task Each_bad_export_or_room_option_gets_one_message()
    {
        using var folder = new TempFolder();
        var missing = Path.Combine(folder.Path, "missing.json");
        var notRoom = Path.Combine(folder.Path, "not-a-room");
        Directory.CreateDirectory(notRoom);

        var noFolder = await CliProcess.RunAsync(["room", "export", notRoom, "--out", Path.Combine(folder.Path, "x.json")], TestHome.Environment);
        var noOut = await CliProcess.RunAsync(["fidelity", "--room", missing], TestHome.Environment);
        var fidelity = await CliProcess.RunAsync(["fidelity", "--room", missing, "--out", folder.Path], TestHome.Environment);
        var site = await CliProcess.RunAsync(["site", "--out", Path.Combine(folder.Path, "site"), "--room", ReferenceFile], TestHome.Environment);

        Assert.Equal((1, $"error: {notRoom} holds no room (no room.json).\nfix: Pass the folder `perflab room serve` printed when it made the room.\n"), (noFolder.ExitCode, noFolder.Error));
        Assert.Equal((1, "error: --room without --out would write a room's laptops into the committed docs/fidelity.md.\nfix: Add --out DIR, e.g. --room room.json --out room-fidelity.\n"), (noOut.ExitCode, noOut.Error));
        Assert.Equal(1, fidelity.ExitCode);
        Assert.StartsWith($"error: --room: there is no {missing}.\n", fidelity.Error, StringComparison.Ordinal);
        Assert.Equal(1, site.ExitCode);
        Assert.StartsWith($"error: --room: {ReferenceFile} is schema perflab-reference/1; this PerfLab reads a room's export, {RoomExport.Schema}.\n", site.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(folder.Path, "site", "assets")), "the site was started before its --room was read");
    }

    private static string ReferenceFile => RepoFiles.Path("data/reference/machines/course-machine-linux-x64.json");

    // A room whose laptops each posted every run of the reference file that names a figure.
    private static async Task<string> RoomOfReferenceRunsAsync(TempFolder folder, params string[] nicknames)
    {
        var room = Path.Combine(folder.Path, "room");
        var runs = ReferenceDocument.Read(ReferenceFile).Runs.Where(r => r.Code is not null && r.Run.Results.Any(x => x.Published is not null)).ToArray();
        using var ledger = RoomLedger.Create(room);
        foreach (var nickname in nicknames)
        {
            var laptop = RoomPost.NewId();
            var machine = new MachineDescription("", "linux-x64", "Linux", "Test CPU", 2, 1L << 30, "10.0.100", null);
            foreach (var run in runs)
            {
                var post = RoomPost.Of(run.Run with { Code = run.Code }, laptop, nickname, run.Suite.StartsWith("notebooks/", StringComparison.Ordinal) ? run.Suite : null, machine, InstructionSetProbe.OfThisProcess());
                Assert.Equal(AdmissionKind.Stored, (await ledger.AppendAsync(post, 1L << 30, CancellationToken.None)).Kind);
            }
        }

        return room;
    }
}
