using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>`perflab regex`, as a process: the generated source side by side and its page, and an invalid pattern.</summary>
[Collection(BusyCliRuns.Name)]
public class RegexCommandTests
{
    [Fact]
    public async Task Regex_prints_the_explanation_side_by_side_and_writes_the_html_page()
    {
        using var folder = new TempFolder();
        var page = Path.Combine(folder.Path, "regex.html");

        var result = await CliProcess.RunAsync(["regex", @"\w*\p{Sm}", "-r", "net9.0", "-r", "net10.0", "--html", page], TestHome.Environment);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.StartsWith("C# generated for [GeneratedRegex(@\"\\w*\\p{Sm}\")] · net9.0 (generator 9.0.", result.Output, StringComparison.Ordinal);
        Assert.Contains("net9.0 -> net10.0: explanation 2 lines changed;", result.Output, StringComparison.Ordinal);
        Assert.Matches(@"\n! ○ Match a word character greedily any number of times\. +│ ○ Match a word character atomically any number of times\.\n", result.Output);
        Assert.Contains($"HTML: {page}", result.Output, StringComparison.Ordinal);
        Assert.Contains("○ Match a word character atomically any number of times.", File.ReadAllText(page), StringComparison.Ordinal);
        Assert.Equal("", result.Error);
    }

    [Fact]
    public async Task Regex_of_an_invalid_pattern_gets_the_parsers_message()
    {
        var result = await CliProcess.RunAsync(["regex", "(unclosed", "-r", "net10.0"], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Equal("error: @\"(unclosed\" is not a valid regular expression (the regex generator of net10.0 rejects it).\nfix: Check the pattern; the parser says: Invalid pattern '(unclosed' at offset 9. Not enough )'s.\n", result.Error);
        Assert.Equal("", result.Output);
    }
}
