using System.CommandLine;
using PerfLab.GeneratedRegexSource;
using PerfLab.Runtimes;
using PerfLab.Views.Html;
using PerfLab.Views.Terminal;

namespace PerfLab.Cli;

/// <summary>`perflab regex`: the C# that [GeneratedRegex] emits for a pattern with each runtime's own generator.</summary>
internal static class RegexCommand
{
    public static Command Create(TextWriter output, TextWriter error)
    {
        var pattern = new Argument<string>("PATTERN") { Description = "The regular expression, as in [GeneratedRegex(PATTERN)]; quote it for the shell, and put one that starts with - after --: perflab regex -- '-?\\d+'." };
        var options = new Option<string[]>("--options", "-o")
        {
            Description = "RegexOptions names, separated by commas: IgnoreCase,Compiled (as in the attribute's second argument).",
            HelpName = "NAMES",
        };
        var runtimes = SharedOptions.Runtimes(SharedOptions.ComparedRuntimes);
        var full = new Option<bool>("--full") { Description = "Also print the whole file each runtime's generator wrote (once per group of identical files)." };
        var html = SharedOptions.OutputFile("--html", "Also write the side-by-side view as a standalone HTML page.");
        var command = new Command("regex", "Show the C# that [GeneratedRegex] emits for a pattern on each runtime: the explanation, the matcher's two methods and their helpers, with what changed between runtimes.")
        {
            pattern, options, runtimes, full, html,
        };
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            // Both checked before the generators load: a typo gets its message at once.
            var chosen = RegexSource.ParseOptions(parse.GetValue(options));
            var pinned = RuntimeCatalog.FindAll(parse.GetValue(runtimes));
            var report = RegexSource.Generate(parse.GetValue(pattern)!, chosen, pinned, cancellationToken);
            output.Write(RegexSourceTerminalView.Render(report, parse.GetValue(full)));
            await OutputFiles.WriteAsync(parse, html, "HTML", () => RegexSourceHtml.Page(report), output, cancellationToken).ConfigureAwait(false);
            return 0;
        }).ConfigureAwait(false));
        return command;
    }
}
