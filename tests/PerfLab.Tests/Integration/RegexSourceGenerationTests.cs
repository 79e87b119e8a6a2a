using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PerfLab.GeneratedRegexSource;
using PerfLab.Runtimes;
using PerfLab.Views.Html;

namespace PerfLab.Tests.Integration;

/// <summary>The regex source view on the real generators of .NET 8, 9 and 10 (host/&lt;tfm&gt;/generators/).</summary>
public sealed class RegexSourceGenerationTests
{
    private static readonly IReadOnlyList<PinnedRuntime> NineAndTen = RuntimeCatalog.FindAll(["net9.0", "net10.0"]);

    // The method's syntax, to assert on what it does rather than on its comments.
    private static MethodDeclarationSyntax Method(string text) =>
        (MethodDeclarationSyntax)CSharpSyntaxTree.ParseText(text, CSharpParseOptions.Default.WithKind(SourceCodeKind.Script)).GetRoot()
            .DescendantNodes().OfType<MethodDeclarationSyntax>().Single();

    private static string[] Calls(MethodDeclarationSyntax method) =>
        method.DescendantNodes().OfType<InvocationExpressionSyntax>()
            .Select(i => i.Expression switch { MemberAccessExpressionSyntax m => m.Name.Identifier.ValueText, SimpleNameSyntax n => n.Identifier.ValueText, var e => e.ToString() })
            .ToArray();

    [Fact]
    public void Every_runtime_explains_the_pattern_and_writes_both_methods()
    {
        var report = RegexSource.Generate(@"\w*\p{Sm}");

        Assert.Equal(["net8.0", "net9.0", "net10.0"], report.Runtimes.Select(r => r.Runtime));
        foreach (var runtime in report.Runtimes)
        {
            Assert.StartsWith(runtime.Runtime[3..^1], runtime.GeneratorVersion, StringComparison.Ordinal);
            Assert.Equal(2, runtime.Parts.Explanation.Count);
            Assert.Equal(RegexSourceParts.FindStartName, Method(runtime.Parts.FindStart!).Identifier.ValueText);
            Assert.Equal(RegexSourceParts.MatchName, Method(runtime.Parts.Match!).Identifier.ValueText);
            Assert.Contains(runtime.Parts.Helpers, h => h.Name == "IsWordChar");
            Assert.Null(runtime.Parts.Fallback);
            Assert.Empty(runtime.Remarks);
        }
    }

    [Fact]
    public void N10_R01_dotnet10_explains_the_word_loop_as_atomic_and_the_views_mark_that_line()
    {
        var report = RegexSource.Generate(@"\w*\p{Sm}", RegexOptions.None, NineAndTen);

        Assert.Equal("○ Match a word character greedily any number of times.", report.Find("net9.0")!.Parts.Explanation[0]);
        Assert.Equal("○ Match a word character atomically any number of times.", report.Find("net10.0")!.Parts.Explanation[0]);
        Assert.StartsWith("net9.0 -> net10.0: explanation 2 lines changed; TryMatchAtCurrentPosition ", Assert.Single(report.Summaries()), StringComparison.Ordinal);

        // .NET 9 backtracks into the loop; .NET 10 has nowhere to go back to.
        Assert.Contains("goto CharLoopBacktrack;", report.Find("net9.0")!.Parts.Match, StringComparison.Ordinal);
        Assert.DoesNotContain("goto", report.Find("net10.0")!.Parts.Match, StringComparison.Ordinal);

        var terminal = report.ToString().Split('\n');
        Assert.Contains(terminal, l => Regex.IsMatch(l, @"^! ○ Match a word character greedily any number of times\. +│ ○ Match a word character atomically any number of times\.$"));

        var html = RegexSourceHtml.Fragment(report);
        var explanation = html[html.IndexOf("<section data-part=\"Explanation\">", StringComparison.Ordinal)..html.IndexOf("</section>", StringComparison.Ordinal)];
        Assert.Contains("<td class=\"old\">○ Match a word character greedily any number of times.</td><td class=\"mark new\">+</td><td class=\"new\">○ Match a word character atomically any number of times.</td>", explanation, StringComparison.Ordinal);
    }

    [Fact]
    public void N10_R08_dotnet10_tries_only_position_0_for_a_lookahead_anchor_where_dotnet9_searches_for_hello()
    {
        var report = RegexSource.Generate("(?=^)hello", RegexOptions.None, NineAndTen);
        var nine = report.Find("net9.0")!.Parts;
        var ten = report.Find("net10.0")!.Parts;

        // .NET 9: a vectorized search for the literal, through a SearchValues<string> helper.
        var nineFind = Method(nine.FindStart!);
        Assert.Contains("IndexOfAny", Calls(nineFind));
        var search = Assert.Single(nine.Helpers, h => h.Name == "s_indexOfString_hello_Ordinal");
        Assert.Contains("SearchValues.Create([\"hello\"], StringComparison.Ordinal)", search.Text, StringComparison.Ordinal);
        Assert.Equal(["○ Zero-width positive lookahead.", "    ○ Match if at the beginning of the string.", "○ Match the string \"hello\"."], nine.Explanation);

        // .NET 10: the lookahead became a beginning anchor, so the only candidate is position 0.
        var tenFind = Method(ten.FindStart!);
        Assert.DoesNotContain(Calls(tenFind), c => c.StartsWith("IndexOf", StringComparison.Ordinal));
        Assert.Contains(tenFind.DescendantNodes().OfType<BinaryExpressionSyntax>(), b => b.IsKind(SyntaxKind.EqualsExpression) && b.ToString() == "pos == 0");
        Assert.DoesNotContain(ten.Helpers, h => h.Name.StartsWith("s_indexOfString", StringComparison.Ordinal));
        Assert.Equal(["○ Match if at the beginning of the string.", "○ Match the string \"hello\"."], ten.Explanation);
    }

    [Fact]
    public void An_invalid_pattern_is_the_parsers_message_and_a_fix()
    {
        var error = Assert.Throws<PerfLabException>(() => RegexSource.Generate("(unclosed"));

        Assert.Equal("@\"(unclosed\" is not a valid regular expression (the regex generator of net8.0, net9.0, net10.0 rejects it).", error.Message);
        Assert.Equal("Check the pattern; the parser says: Invalid pattern '(unclosed' at offset 9. Not enough )'s.", error.Fix);
    }

    [Fact]
    public void Options_the_generator_cannot_take_are_named()
    {
        var error = Assert.Throws<PerfLabException>(() => RegexSource.Generate("abc", (RegexOptions)0x10000, NineAndTen));

        Assert.Equal("The regex generator of net9.0, net10.0 refuses the options (RegexOptions)65536.", error.Message);
    }

    [Fact]
    public void NonBacktracking_is_shown_with_the_generators_own_reason_not_as_an_error()
    {
        var report = RegexSource.Generate("a+b", RegexOptions.NonBacktracking);

        Assert.All(report.Runtimes, r =>
        {
            Assert.Null(r.Parts.Match);
            Assert.Contains("NonBacktracking isn't supported", r.Parts.Fallback, StringComparison.Ordinal);
            Assert.Contains(r.Notes, n => n.StartsWith("SYSLIB1044:", StringComparison.Ordinal));
        });
        var (runtimes, remark) = Assert.Single(report.Remarks());
        Assert.Equal("net8.0, net9.0, net10.0", runtimes);
        Assert.EndsWith("RegexOptions.NonBacktracking isn't supported. (SYSLIB1044)", remark, StringComparison.Ordinal);
        Assert.Contains("TryMatchAtCurrentPosition</code>: not generated on net8.0, net9.0, net10.0", RegexSourceHtml.Fragment(report), StringComparison.Ordinal);
    }

    [Fact]
    public void The_html_page_holds_every_part_and_each_distinct_file()
    {
        var report = RegexSource.Generate(@"(\w+)@(\w+)\.(com|net)\b", RegexOptions.IgnoreCase);

        var page = RegexSourceHtml.Page(report);

        Assert.StartsWith("<!DOCTYPE html>", page, StringComparison.Ordinal);
        Assert.Contains("<section data-part=\"Explanation\">", page, StringComparison.Ordinal);
        foreach (var part in new[] { RegexSourceParts.FindStartName, RegexSourceParts.MatchName, RegexPart.HelpersName })
        {
            Assert.Matches($"<details data-part=\"{part}\"( open)?><summary>", page);
        }

        Assert.Equal(report.Files().Count, Regex.Matches(page, "<details><summary>net[0-9.]+(, net[0-9.]+)* \\([0-9]+ lines\\)</summary><pre class=\"file\">").Count);
        Assert.Contains("<span class=\"kw\">", page, StringComparison.Ordinal);
    }
}
