using System.Net;
using System.Text.RegularExpressions;
using PerfLab.GeneratedRegexSource;
using PerfLab.Tests.Support;
using PerfLab.Views.Html;
using PerfLab.Views.Terminal;

namespace PerfLab.Tests.Unit;

/// <summary>The regex source view without a generator: parts found in a generated file, the diff summary, the views.</summary>
public partial class RegexSourceTests
{
    internal static RuntimeRegexSource Runtime(string moniker, string file) =>
        new(moniker, moniker[3..^2] + ".0.14", file, RegexSourceParts.Find(file), []);

    // The same file as an older generator would have written it: a greedy loop that backtracks.
    internal static string Net9Like(string file) => file
        .Replace("○ Match a word character atomically any number of times.", "○ Match a word character greedily any number of times.", StringComparison.Ordinal)
        .Replace("// Match a word character atomically any number of times.", "// Match a word character greedily any number of times.", StringComparison.Ordinal)
        .Replace("                    // Advance the next matching position.", "                    CharLoopEnd:\n                    // Advance the next matching position.", StringComparison.Ordinal);

    private static RegexSourceReport Report(params RuntimeRegexSource[] runtimes) => new(@"\w*\p{Sm}", RegexOptions.None, runtimes);

    [Fact]
    public void The_explanation_is_read_from_the_methods_doc_comment_with_its_nesting()
    {
        var parts = RegexSourceParts.Find(GeneratedRegexFiles.WordThenMathSymbol);

        Assert.Equal(["○ Match a word character atomically any number of times.", "○ Match a Unicode math symbol."], parts.Explanation);
        Assert.Null(parts.Fallback);
    }

    [Fact]
    public void Nested_explanations_keep_their_indentation_and_entities_are_decoded()
    {
        var file = GeneratedRegexFiles.WordThenMathSymbol.Replace(
            "    /// ○ Match a Unicode math symbol.<br/>",
            "    /// ○ \"a\" capture group.<br/>\n    ///     ○ Match '&lt;' or '&amp;'.<br/>",
            StringComparison.Ordinal);

        var parts = RegexSourceParts.Find(file);

        Assert.Equal(["○ Match a word character atomically any number of times.", "○ \"a\" capture group.", "    ○ Match '<' or '&'."], parts.Explanation);
    }

    [Fact]
    public void The_two_methods_are_whole_declarations_without_their_doc_comments_dedented()
    {
        var parts = RegexSourceParts.Find(GeneratedRegexFiles.WordThenMathSymbol);

        var find = parts.FindStart!.Split('\n');
        Assert.Equal("private bool TryFindNextPossibleStartingPosition(ReadOnlySpan<char> inputSpan)", find[0]);
        Assert.Equal("}", find[^1]);
        var match = parts.Match!.Split('\n');
        Assert.Equal("private bool TryMatchAtCurrentPosition(ReadOnlySpan<char> inputSpan)", match[0]);
        Assert.Contains("    // Match a word character atomically any number of times.", match);
        Assert.Equal("}", match[^1]);
        Assert.DoesNotContain("///", parts.Match, StringComparison.Ordinal);
    }

    [Fact]
    public void Helpers_are_the_utilities_members_the_methods_use_directly_or_through_each_other()
    {
        var parts = RegexSourceParts.Find(GeneratedRegexFiles.WordThenMathSymbol);

        // IndexOfNonAsciiOrAny_... is called as an extension method; it uses s_ascii_...; IsWordChar uses the
        // mask and the bitmap. The timeout fields are not used by this matcher.
        Assert.Equal(
            ["IndexOfNonAsciiOrAny_B8012F932E4B07EE27B09B3C6FB969267AE835D82959C2096FA664CDDC81C9E4", "IsWordChar", "WordCategoriesMask", "WordCharBitmap", "s_ascii_FFFFFFFFFFF7008C01000078010000A8"],
            parts.Helpers.Select(h => h.Name));
        var isWordChar = parts.Helpers.Single(h => h.Name == "IsWordChar").Text.Split('\n');
        Assert.Equal("/// <summary>Determines whether the character is part of the [\\w] set.</summary>", isWordChar[0]);
        Assert.Equal("[MethodImpl(MethodImplOptions.AggressiveInlining)]", isWordChar[1]);
        Assert.Equal("}", isWordChar[^1]);
    }

    [Fact]
    public void A_file_without_a_matcher_gives_the_generators_reason_and_no_methods()
    {
        var parts = RegexSourceParts.Find(GeneratedRegexFiles.NonBacktracking);

        Assert.Equal(["○ Match 'a' greedily at least once.", "○ Match 'b'."], parts.Explanation);
        Assert.Null(parts.FindStart);
        Assert.Null(parts.Match);
        Assert.Empty(parts.Helpers);
        Assert.Equal("A custom Regex-derived type could not be generated because RegexOptions.NonBacktracking isn't supported.", parts.Fallback);
    }

    [Fact]
    public void The_summary_names_each_changed_part_by_line_counts_or_changed_lines()
    {
        var ten = Runtime("net10.0", GeneratedRegexFiles.WordThenMathSymbol);
        var nine = Runtime("net9.0", Net9Like(GeneratedRegexFiles.WordThenMathSymbol));

        Assert.Equal("net9.0 -> net10.0: explanation 1 line changed; TryMatchAtCurrentPosition 37 -> 36 lines", RegexSourceDiff.Summary(nine, ten));
        Assert.Equal("net10.0 -> net10.0: same source", RegexSourceDiff.Summary(ten, ten));
    }

    [Fact]
    public void The_summary_says_when_a_runtime_falls_back_to_constructing_a_regex()
    {
        var summary = RegexSourceDiff.Summary(Runtime("net9.0", GeneratedRegexFiles.NonBacktracking), Runtime("net10.0", GeneratedRegexFiles.WordThenMathSymbol));

        Assert.StartsWith("net9.0 -> net10.0: a matcher of its own on net10.0 (net9.0 constructs a Regex); explanation ", summary, StringComparison.Ordinal);
    }

    [Fact]
    public void Runtimes_with_the_same_lines_are_grouped_per_part()
    {
        var nine = Net9Like(GeneratedRegexFiles.WordThenMathSymbol);
        var report = Report(Runtime("net8.0", nine), Runtime("net9.0", nine), Runtime("net10.0", GeneratedRegexFiles.WordThenMathSymbol));

        var parts = report.Parts();

        Assert.Equal([RegexPart.ExplanationName, RegexSourceParts.FindStartName, RegexSourceParts.MatchName, RegexPart.HelpersName], parts.Select(p => p.Name));
        Assert.Equal(["net8.0, net9.0", "net10.0"], parts[0].Groups.Select(g => g.Label));
        Assert.Equal(["net8.0, net9.0, net10.0"], parts[1].Groups.Select(g => g.Label));
        Assert.Equal(["net8.0 -> net9.0: same source", "net9.0 -> net10.0: explanation 1 line changed; TryMatchAtCurrentPosition 37 -> 36 lines"], report.Summaries());
    }

    [Fact]
    public void Files_that_differ_only_in_the_generators_version_are_one_group()
    {
        var file = GeneratedRegexFiles.WordThenMathSymbol;
        var report = Report(Runtime("net9.0", file.Replace("10.0.14.42308", "9.0.14.41315", StringComparison.Ordinal)), Runtime("net10.0", file));

        var files = report.Files();

        Assert.Equal(["net9.0", "net10.0"], Assert.Single(files).Runtimes);
    }

    [Fact]
    public void The_terminal_view_marks_a_changed_explanation_line_and_diffs_the_code()
    {
        var report = Report(Runtime("net9.0", Net9Like(GeneratedRegexFiles.WordThenMathSymbol)), Runtime("net10.0", GeneratedRegexFiles.WordThenMathSymbol));

        var lines = report.ToString().Split('\n');

        Assert.Equal(@"C# generated for [GeneratedRegex(@""\w*\p{Sm}"")] · net9.0 (generator 9.0.14), net10.0 (10.0.14)", lines[0]);
        var changed = Assert.Single(lines, l => l.StartsWith("! ", StringComparison.Ordinal));
        Assert.Matches(@"^! ○ Match a word character greedily any number of times\. +│ ○ Match a word character atomically any number of times\.$", changed);
        Assert.Contains(lines, l => Regex.IsMatch(l, @"^  ○ Match a Unicode math symbol\. +│ ○ Match a Unicode math symbol\.$"));
        Assert.Contains("   -     // Match a word character greedily any number of times.", lines);
        Assert.Contains("   +     // Match a word character atomically any number of times.", lines);
        Assert.Contains("   -     CharLoopEnd:", lines);
        Assert.DoesNotContain(lines, l => l.EndsWith(' '));
    }

    [Fact]
    public void The_full_terminal_view_ends_with_each_distinct_file()
    {
        var report = Report(Runtime("net10.0", GeneratedRegexFiles.WordThenMathSymbol));

        var text = RegexSourceTerminalView.Render(report, full: true);

        Assert.Contains("── Generated file on net10.0 (", text, StringComparison.Ordinal);
        Assert.EndsWith("}\n", text.ReplaceLineEndings("\n"), StringComparison.Ordinal);
        Assert.DoesNotContain("── Generated file", report.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void The_html_view_shows_the_explanation_side_by_side_and_the_methods_highlighted()
    {
        var report = Report(Runtime("net9.0", Net9Like(GeneratedRegexFiles.WordThenMathSymbol)), Runtime("net10.0", GeneratedRegexFiles.WordThenMathSymbol));

        var html = RegexSourceHtml.Fragment(report, wholeFiles: true);

        Assert.StartsWith("<div class=\"perflab-asm perflab-regex\"><style>", html, StringComparison.Ordinal);
        Assert.Contains("<code>[GeneratedRegex(@&quot;\\w*\\p{Sm}&quot;)]</code>", html, StringComparison.Ordinal);
        var explanation = Section(html, "<section data-part=\"Explanation\">", "</section>");
        Assert.Contains("<th colspan=\"2\">net9.0</th><th colspan=\"2\">net10.0</th>", explanation, StringComparison.Ordinal);
        Assert.Contains("<tr class=\"changed\"><td class=\"mark old\">−</td><td class=\"old\">○ Match a word character greedily any number of times.</td><td class=\"mark new\">+</td><td class=\"new\">○ Match a word character atomically any number of times.</td></tr>", explanation, StringComparison.Ordinal);
        Assert.Contains("<tr><td class=\"mark\"></td><td>○ Match a Unicode math symbol.</td><td class=\"mark\"></td><td>○ Match a Unicode math symbol.</td></tr>", explanation, StringComparison.Ordinal);

        foreach (var method in new[] { RegexSourceParts.FindStartName, RegexSourceParts.MatchName, RegexPart.HelpersName })
        {
            var part = Section(html, $"<details data-part=\"{method}\" open>", "</details>");
            Assert.Contains("<span class=\"kw\">private</span>", part, StringComparison.Ordinal);
        }

        // Each distinct file once, collapsed.
        Assert.Equal(2, Regex.Matches(html, "<details><summary>net").Count);
        Assert.Contains("<details class=\"files\"><summary>The generated files</summary>", html, StringComparison.Ordinal);
    }

    [Fact]
    public void Every_row_of_the_html_view_holds_the_lines_text_unchanged()
    {
        var report = Report(Runtime("net9.0", Net9Like(GeneratedRegexFiles.WordThenMathSymbol)), Runtime("net10.0", GeneratedRegexFiles.WordThenMathSymbol));
        var html = RegexSourceHtml.Fragment(report);
        var match = Section(html, $"<details data-part=\"{RegexSourceParts.MatchName}\" open>", "</details>");

        var right = RowCells().Matches(match).Select(m => WebUtility.HtmlDecode(TagPattern().Replace(m.Groups["right"].Value, ""))).Where(c => c.Length > 0).ToArray();

        Assert.Equal(report.Runtimes[1].Parts.Match!.Split('\n').Where(l => l.Length > 0), right);
    }

    [Fact]
    public void A_part_no_runtime_generated_is_one_line_not_an_empty_table()
    {
        var report = Report(Runtime("net10.0", GeneratedRegexFiles.NonBacktracking));

        var html = RegexSourceHtml.Fragment(report);

        Assert.Contains("<p class=\"counts\" data-part=\"TryMatchAtCurrentPosition\"><code>TryMatchAtCurrentPosition</code>: not generated on net10.0</p>", html, StringComparison.Ordinal);
        Assert.Contains("<strong>net10.0</strong>: no matcher of its own: the generated class constructs a Regex at run time. The generator says: A custom Regex-derived type could not be generated because RegexOptions.NonBacktracking isn&#39;t supported.", html, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(RegexOptions.None, @"[GeneratedRegex(@""\w*\p{Sm}"")]")]
    [InlineData(RegexOptions.IgnoreCase | RegexOptions.Compiled, @"[GeneratedRegex(@""\w*\p{Sm}"", RegexOptions.IgnoreCase | RegexOptions.Compiled)]")]
    [InlineData((RegexOptions)0x10001, @"[GeneratedRegex(@""\w*\p{Sm}"", RegexOptions.IgnoreCase | (RegexOptions)65536)]")]
    public void Options_are_written_as_the_attribute_would_have_them(RegexOptions options, string expected)
    {
        Assert.Equal(expected, RegexSource.Attribute(@"\w*\p{Sm}", options));
    }

    [Fact]
    public void A_pattern_with_quotes_or_a_line_break_stays_a_valid_literal()
    {
        Assert.Equal(@"[GeneratedRegex(@""say """"hi"""""")]", RegexSource.Attribute("say \"hi\"", RegexOptions.None));
        Assert.Equal("[GeneratedRegex(\"a\\nb\")]", RegexSource.Attribute("a\nb", RegexOptions.None));
    }

    [Fact]
    public void Option_names_parse_in_any_case_with_commas_or_bars()
    {
        Assert.Equal(RegexOptions.IgnoreCase | RegexOptions.Compiled | RegexOptions.Multiline, RegexSource.ParseOptions(["ignorecase,Compiled", "RegexOptions.Multiline"]));
        Assert.Equal(RegexOptions.None, RegexSource.ParseOptions([]));
    }

    [Theory]
    [InlineData("Fast")]
    [InlineData("5")]
    public void An_unknown_option_name_lists_the_names(string name)
    {
        var error = Assert.Throws<PerfLabException>(() => RegexSource.ParseOptions([name]));

        Assert.Equal($"Unknown regex option '{name}'.", error.Message);
        Assert.Contains("IgnoreCase, Multiline", error.Fix, StringComparison.Ordinal);
    }

    [Fact]
    public void Paired_alignment_puts_a_rewritten_line_beside_the_one_it_replaces()
    {
        var rows = LineDiff.Align(["a", "old 1", "old 2", "z"], ["a", "new 1", "z"], pairChanges: true);

        Assert.Equal(
            [new DiffLine("a", "a", false), new DiffLine("old 1", "new 1", true), new DiffLine("old 2", null, true), new DiffLine("z", "z", false)],
            rows);
        Assert.Equal(2, LineDiff.ChangedLines(rows));
    }

    [Fact]
    public void Highlighted_lines_are_each_complete_and_keep_the_text()
    {
        var source = "/// <summary>Doc\n/// more</summary>\nint X() => \"\"\"\n  raw\n  \"\"\".Length; // done";

        var lines = CSharpHighlighter.ToHtmlLines(source);

        Assert.Equal(source.Split('\n'), lines.Select(l => WebUtility.HtmlDecode(TagPattern().Replace(l, ""))));
        Assert.All(lines, l => Assert.Equal(Regex.Matches(l, "<span").Count, Regex.Matches(l, "</span>").Count));
        Assert.StartsWith("<span class=\"com\">", lines[1], StringComparison.Ordinal);
    }

    private static string Section(string html, string start, string end)
    {
        var from = html.IndexOf(start, StringComparison.Ordinal);
        Assert.True(from >= 0, $"no {start} in\n{html}");
        return html[from..html.IndexOf(end, from, StringComparison.Ordinal)];
    }

    [GeneratedRegex("<tr[^>]*><td class=\"mark[^\"]*\">[^<]*</td><td[^>]*>(?<left>.*?)</td><td class=\"mark[^\"]*\">[^<]*</td><td[^>]*>(?<right>.*?)</td></tr>")]
    private static partial Regex RowCells();

    [GeneratedRegex("<[^>]+>")]
    private static partial Regex TagPattern();
}
