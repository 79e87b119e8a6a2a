using System.CommandLine;
using System.Diagnostics;
using PerfLab.Course.Site;

namespace PerfLab.Cli;

/// <summary>`perflab site`: every notebook as a page of one static site, answered from the reference run.</summary>
internal static class SiteCommand
{
    public static Command Create(TextWriter output, TextWriter error)
    {
        var outFolder = new Option<string>("--out", "-o") { Description = "The site's folder (created; pages written before are replaced).", HelpName = "DIR", Required = true };
        var repository = new Option<string?>("--repository")
        {
            Description = "The course's GitHub repository, OWNER/NAME: pages link to Codespaces and to the repository's files outside the site. Without it, those links keep their words only.",
            HelpName = "OWNER/NAME",
        };
        var machine = new Option<string?>("--machine")
        {
            Description = "The reference file whose runs answer the benchmark cells (default: the one file in data/reference/machines).",
            HelpName = "FILE",
        };
        var room = new Option<string?>("--room")
        {
            Description = "A room's export (`perflab room export`): under each benchmark cell the room ran, a note with every laptop's ratios beside the reference run's results.",
            HelpName = "FILE",
        };
        var command = new Command("site", "Write the course as a static site: every notebook of notebooks/README.md as a page, its benchmark cells answered from the reference run (never measured), its listings captured here, one shared stylesheet and plotly.js.")
        {
            outFolder, repository, machine, room,
        };
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var clock = Stopwatch.StartNew();
            var result = await CourseSite.BuildAsync(parse.GetValue(outFolder)!, parse.GetValue(repository), parse.GetValue(machine), line => error.WriteLine($"  [{clock.Elapsed.TotalSeconds,6:F1}s] {line}"), cancellationToken, parse.GetValue(room)).ConfigureAwait(false);
            foreach (var missing in result.Missing)
            {
                output.WriteLine($"no reference result: {missing}");
            }

            // Never shown (no cell asks for its code), but fidelity still reads it: say so, so it gets removed.
            foreach (var stale in result.Stale)
            {
                output.WriteLine($"stale reference result: {stale}");
            }

            foreach (var problem in result.Problems)
            {
                error.WriteLine($"error: {problem}");
            }

            output.WriteLine($"Site: {Path.Combine(result.Folder, "index.html")} ({result.Pages.Count} files in {clock.Elapsed.TotalSeconds:F0} s; {result.Answered} benchmark calls answered from the reference run, {result.Missing.Count} without one, {result.Stale.Count} stale{(parse.GetValue(room) is null ? "" : $"; {result.RoomNoted} with the room's results")})");
            return result.Problems.Count == 0 ? 0 : PerfLabCommand.Failure;
        }).ConfigureAwait(false));
        return command;
    }
}
