using System.CommandLine;
using PerfLab.Course;
using PerfLab.Course.Reference;
using PerfLab.Course.Views;
using PerfLab.Course.Room;
using PerfLab.Results;

namespace PerfLab.Cli;

/// <summary>`perflab fidelity`: every published figure beside the ratios the committed reference machines measured.</summary>
internal static class FidelityCommand
{
    public static Command Create(TextWriter output, TextWriter error)
    {
        var outFolder = new Option<string?>("--out", "-o") { Description = "Where fidelity.md and fidelity.json go (default: the repository's docs/).", HelpName = "DIR" };
        var room = new Option<string?>("--room")
        {
            Description = "A room's export (`perflab room export`): every laptop's ratio in a Room column beside the reference machines, with whether the room agrees. Needs --out (docs/ keeps the reference machines' report).",
            HelpName = "FILE",
        };
        var command = new Command("fidelity", "Compare every published figure (data/published) with the committed reference machines (data/reference/machines): ratios, direction agreement, summary.")
        {
            outFolder, room,
        };
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var roomFile = parse.GetValue(room);
            if (roomFile is not null && parse.GetValue(outFolder) is null)
            {
                throw new PerfLabException("--room without --out would write a room's laptops into the committed docs/fidelity.md.", "Add --out DIR, e.g. --room room.json --out room-fidelity.");
            }

            var laptops = roomFile is null ? null : RoomExport.Read(roomFile).Select(m => m.Machine).ToArray();
            var catalog = PublishedFigures.Load(CourseRepository.PathOf(CourseRepository.PublishedFolder), CourseRepository.PathOf(CourseRepository.OutlineFile));
            var (machines, referenceProblems) = ReferenceRuns.Load(CourseRepository.PathOf(CourseRepository.ReferenceMachinesFolder));
            foreach (var problem in catalog.Problems.Concat(referenceProblems))
            {
                error.WriteLine("warning: " + problem);
            }

            var rows = FidelityReport.Rows(catalog, machines, laptops);
            var folder = parse.GetValue(outFolder) ?? CourseRepository.PathOf(CourseRepository.DocsFolder);
            var markdown = FidelityMarkdown.Write(rows, machines, laptops is null ? null : (Path.GetFullPath(roomFile!), laptops), FidelityReport.WithoutRatio(catalog));
            var markdownFile = await OutputFiles.WriteAsync(Path.Combine(folder, FidelityReport.MarkdownFile), markdown, cancellationToken).ConfigureAwait(false);
            var jsonFile = await OutputFiles.WriteAsync(Path.Combine(folder, FidelityReport.JsonFile), FidelityJson.Write(rows), cancellationToken).ConfigureAwait(false);
            output.WriteLine(markdown.Split('\n').First(l => l.StartsWith("**Summary**", StringComparison.Ordinal)));
            output.WriteLine($"Written: {markdownFile}, {jsonFile}");
            return 0;
        }).ConfigureAwait(false));
        return command;
    }
}
