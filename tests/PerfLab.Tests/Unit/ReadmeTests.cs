using System.Text.RegularExpressions;
using PerfLab.Cli;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>README is a newcomer's page: short, and its table of commands names every command the CLI has, as docs/cli.md does.</summary>
public partial class ReadmeTests
{
    private const int MostLines = 110;

    [Fact]
    public void Readme_stays_a_page_a_newcomer_reads_in_five_minutes()
    {
        var lines = File.ReadAllLines(RepoFiles.Path("README.md")).Length;

        Assert.True(lines <= MostLines, $"README.md has {lines} lines, more than {MostLines}: move the detail to docs/ (docs/cli.md for commands) and link it.");
    }

    [Fact]
    public void Every_command_is_in_the_readme_table_and_in_docs_cli()
    {
        var commands = PerfLabCommand.Create(TextWriter.Null, TextWriter.Null).Subcommands.Select(c => c.Name).ToArray();
        Assert.NotEmpty(commands);

        foreach (var document in new[] { "README.md", "docs/cli.md" })
        {
            var named = CommandCells(File.ReadAllText(RepoFiles.Path(document)));
            var missing = commands.Where(c => !named.Contains(c)).ToArray();
            Assert.True(missing.Length == 0, $"{document}'s table of commands does not name: {string.Join(", ", missing)}. Add a row (README: one line; docs/cli.md: every option).");
        }
    }

    // The commands a table's first column names: every word at the start of a code span, e.g. `bench FILE.cs`, `room serve` / `join`.
    private static HashSet<string> CommandCells(string markdown) =>
        [.. markdown.Split('\n')
            .Where(line => line.StartsWith("| `", StringComparison.Ordinal))
            .SelectMany(line => CodeStart().Matches(line.Split('|')[1]).Select(m => m.Groups[1].Value))];

    [GeneratedRegex("`([a-z]+)")]
    private static partial Regex CodeStart();
}
