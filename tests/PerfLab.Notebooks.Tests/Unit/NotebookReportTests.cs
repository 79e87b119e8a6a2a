using System.Text.RegularExpressions;
using PerfLab.Contract;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Views;
using PerfLab.Views.Html;
using static PerfLab.Notebooks.Tests.Support.TestNotebooks;

namespace PerfLab.Notebooks.Tests.Unit;

public class NotebookReportTests
{
    private const string Chart = "<div class=\"chart\" id=\"c1\"></div><script>Plotly.newPlot('c1',[],{});</script>";

    private static readonly string Plotly = PlotlyAsset.PackedPageScript();

    private static DisplayOutput Html(string html) =>
        new(new Dictionary<string, string> { ["text/html"] = html, ["text/plain"] = "(html)" }, IsResult: false);

    private static DisplayOutput Plain(string text) =>
        new(new Dictionary<string, string> { ["text/plain"] = text }, IsResult: true);

    /// <summary>The page of a run of: title cell, setup cell, then <paramref name="code"/> as cell 3 with <paramref name="outputs"/>.</summary>
    private static string PageOf(string code, params CellOutput[] outputs)
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(SetupText), Code(code));
        return NotebookReport.Page(Run(notebook, new Dictionary<int, CellOutput[]> { [2] = outputs }));
    }

    private static string Excerpt(string page, string near)
    {
        var at = page.IndexOf(near, StringComparison.Ordinal);
        return at < 0 ? $"(\"{near}\" is not on the page)" : page.Substring(Math.Max(0, at - 200), Math.Min(page.Length - Math.Max(0, at - 200), 600));
    }

    private static string Body(string page) => page[page.IndexOf("<body>", StringComparison.Ordinal)..];

    [Fact]
    public void The_page_is_one_standalone_document_titled_after_the_notebook()
    {
        var page = PageOf("1 + 1", Plain("2"));

        Assert.True(page.StartsWith("<!DOCTYPE html>", StringComparison.Ordinal), page[..100]);
        Assert.True(page.Contains("<title>Demo</title>", StringComparison.Ordinal), page[..400]);
        Assert.True(page.Contains("<h1>Demo</h1>", StringComparison.Ordinal), Excerpt(page, "<h1>"));
    }

    [Fact]
    public void Markdown_headings_are_rendered_with_an_anchor()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo\n\n## Let the JIT see the length\n\nSome *prose*."), Code(SetupText));

        var page = NotebookReport.Page(Run(notebook, new Dictionary<int, CellOutput[]>()));

        Assert.True(page.Contains("<h2 id=\"let-the-jit-see-the-length\">Let the JIT see the length</h2>", StringComparison.Ordinal), Excerpt(page, "Let the JIT"));
        Assert.True(page.Contains("Some <em>prose</em>.", StringComparison.Ordinal), Excerpt(page, "Some"));
    }

    [Fact]
    public void Markdown_pipe_tables_are_rendered_as_tables()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo\n\n| Runtime | Mean |\n|---|---:|\n| .NET 8 | 10 ns |\n| .NET 10 | 4 ns |"), Code(SetupText));

        var page = NotebookReport.Page(Run(notebook, new Dictionary<int, CellOutput[]>()));

        Assert.True(page.Contains("<table>", StringComparison.Ordinal), Excerpt(page, "Runtime"));
        Assert.True(page.Contains("<th>Runtime</th>", StringComparison.Ordinal), Excerpt(page, "Runtime"));
        Assert.True(page.Contains("<td>.NET 10</td>", StringComparison.Ordinal), Excerpt(page, ".NET 10"));
    }

    [Fact]
    public void Links_to_other_notebooks_point_to_their_reports()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo\n\nNext: [bounds checks](02-bounds-checks.ipynb#exercise), see also [GC](../gc/01-gen0.ipynb)."), Code(SetupText));

        var page = NotebookReport.Page(Run(notebook, new Dictionary<int, CellOutput[]>()));

        Assert.True(page.Contains("href=\"02-bounds-checks.html#exercise\"", StringComparison.Ordinal), Excerpt(page, "bounds checks</a>"));
        Assert.True(page.Contains("href=\"../gc/01-gen0.html\"", StringComparison.Ordinal), Excerpt(page, "GC</a>"));
    }

    [Fact]
    public void Html_comments_such_as_reference_markers_are_hidden_and_other_raw_html_is_still_shown_as_text()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo\n\nIt took 0.73<!-- reference: A.B@net10.0 / A.B@net9.0 --> of the time, <b>bold</b>.\n<!--\na comment\non lines\n-->\nEnd."), Code(SetupText));

        var page = NotebookReport.Page(Run(notebook, new Dictionary<int, CellOutput[]>()));

        Assert.True(page.Contains("It took 0.73 of the time, &lt;b&gt;bold&lt;/b&gt;.", StringComparison.Ordinal), Excerpt(page, "It took"));
        Assert.DoesNotContain("reference:", page, StringComparison.Ordinal);
        Assert.DoesNotContain("a comment", page, StringComparison.Ordinal);
        Assert.Contains("End.", page, StringComparison.Ordinal);
    }

    [Fact]
    public void Links_to_notebooks_on_the_web_are_left_alone()
    {
        var link = MarkdownHtml.ReportLink("https://github.com/dotnet/csharp-notebooks/blob/main/a.ipynb");

        Assert.Equal("https://github.com/dotnet/csharp-notebooks/blob/main/a.ipynb", link);
    }

    [Fact]
    public void A_remote_image_becomes_a_link_so_the_page_requests_nothing()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo\n\n![the logo](https://example.org/logo.png)"), Code(SetupText));

        var page = NotebookReport.Page(Run(notebook, new Dictionary<int, CellOutput[]>()));

        Assert.False(page.Contains("<img", StringComparison.Ordinal), Excerpt(page, "<img"));
        Assert.True(page.Contains("<a href=\"https://example.org/logo.png\">the logo</a>", StringComparison.Ordinal), Excerpt(page, "the logo"));
    }

    [Fact]
    public void Raw_HTML_in_markdown_is_shown_as_text()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo\n\n<script>alert('x')</script>"), Code(SetupText));

        var page = NotebookReport.Page(Run(notebook, new Dictionary<int, CellOutput[]>()));

        Assert.False(page.Contains("<script>alert", StringComparison.Ordinal), Excerpt(page, "alert"));
        Assert.True(page.Contains("&lt;script&gt;alert", StringComparison.Ordinal), Excerpt(page, "alert"));
    }

    [Fact]
    public void A_notes_block_renders_folded_with_its_markdown_and_markers_hidden()
    {
        var html = MarkdownHtml.ToHtml("Teaching text.\n\n<details>\n<summary>Measurement notes</summary>\n\nQuick runs had **0.9** and 1.1<!-- reference: X.Y@net9.0 -->.\n\n</details>\n\nMore teaching.");

        Assert.Contains("<p>Teaching text.</p>\n<details class=\"notes\"><summary>Measurement notes</summary>\n<p>Quick runs had <strong>0.9</strong> and 1.1.</p>\n</details>\n<p>More teaching.</p>", html, StringComparison.Ordinal);
        Assert.DoesNotContain(" open", html, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("<details open>\n<summary>Notes</summary>\n\nText.\n\n</details>")]
    [InlineData("<details>\n<summary><img src=x onerror=alert(1)></summary>\n\nText.\n\n</details>")]
    [InlineData("<details><summary>Notes</summary>Text.</details>")]
    public void A_details_block_in_another_form_stays_encoded_text(string markdown)
    {
        var html = MarkdownHtml.ToHtml(markdown);

        Assert.DoesNotContain("<details", html, StringComparison.Ordinal);
        Assert.DoesNotContain("<img", html, StringComparison.Ordinal);
        Assert.Contains("&lt;details", html, StringComparison.Ordinal);
    }

    [Fact]
    public void Code_is_highlighted_keywords_strings_numbers_comments_and_types()
    {
        var page = PageOf("// sum them\nvar list = new List<int> { 42 };\nstring name = \"hi\";");

        foreach (var expected in new[]
        {
            "<span class=\"com\">// sum them</span>",
            "<span class=\"kw\">var</span>",
            "<span class=\"kw\">new</span> <span class=\"typ\">List</span>&lt;<span class=\"kw\">int</span>&gt;",
            "<span class=\"num\">42</span>",
            "<span class=\"kw\">string</span>",
            "<span class=\"str\">&quot;hi&quot;</span>",
        })
        {
            Assert.True(page.Contains(expected, StringComparison.Ordinal), $"missing {expected} in:\n{Excerpt(page, "sum them")}");
        }
    }

    [Fact]
    public void A_reference_directive_is_highlighted_as_a_directive()
    {
        var page = PageOf("1");

        Assert.True(page.Contains("<span class=\"dir\">#r &quot;../../helpers/PerfLab.Notebooks/bin/lab/PerfLab.Notebooks.dll&quot;\n</span>", StringComparison.Ordinal), Excerpt(page, "#r"));
    }

    [Fact]
    public void Type_names_are_marked_only_where_the_syntax_says_so()
    {
        var html = CSharpHighlighter.ToHtml("record Point(int X);\nvar p = (Point)o;\nConsole.WriteLine(p);\nSystem.Text.StringBuilder b = null;");

        Assert.True(html.Contains("<span class=\"kw\">record</span> <span class=\"typ\">Point</span>", StringComparison.Ordinal), html);
        Assert.True(html.Contains("(<span class=\"typ\">Point</span>)o", StringComparison.Ordinal), html);
        Assert.True(html.Contains("Console.WriteLine(p)", StringComparison.Ordinal), "a member access does not say Console is a type:\n" + html);
        Assert.True(html.Contains("System.Text.<span class=\"typ\">StringBuilder</span> b", StringComparison.Ordinal), "namespaces are not types:\n" + html);
    }

    [Fact]
    public void Highlighting_keeps_the_source_text_unchanged()
    {
        var source = "#r \"x.dll\"\n/* a < b */ var s = $\"{1 + 2:N0} & more\";\n\"\"\"\n  raw\n  \"\"\";\n#if DEBUG\nold();\n#endif\n";

        var html = CSharpHighlighter.ToHtml(source);

        var text = System.Net.WebUtility.HtmlDecode(Regex.Replace(html, "<[^>]+>", ""));
        Assert.Equal(source, text);
    }

    [Fact]
    public void Executed_cells_are_labelled_with_their_execution_count()
    {
        var page = PageOf("1 + 1", Plain("2"));

        Assert.True(page.Contains(">In [1]</a>", StringComparison.Ordinal), Excerpt(page, "In ["));
        Assert.True(page.Contains(">In [2]</a>", StringComparison.Ordinal), Excerpt(page, "In [2"));
    }

    [Fact]
    public void Cells_after_a_failure_are_marked_not_executed()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(SetupText), Code("throw new Exception();"), Code("1"));
        var run = Run(notebook, new Dictionary<int, CellOutput[]> { [2] = [new ErrorOutput("Exception", "boom", [])] }, failedCell: 2);

        var page = NotebookReport.Page(run);

        var last = page[page.IndexOf("id=\"cell-4\"", StringComparison.Ordinal)..];
        Assert.True(last.Contains(">In [ ]</a><span class=\"badge skipped\">not executed</span>", StringComparison.Ordinal), Excerpt(page, "id=\"cell-4\""));
    }

    [Fact]
    public void Every_cell_has_an_anchor_named_after_its_number()
    {
        var page = PageOf("1");

        foreach (var id in new[] { "cell-1", "cell-2", "cell-3" })
        {
            Assert.True(page.Contains($"id=\"{id}\"", StringComparison.Ordinal), $"no anchor {id}");
        }
    }

    [Fact]
    public void Standard_output_is_shown_as_preformatted_text()
    {
        var page = PageOf("Console.WriteLine(\"a\");", new StreamOutput("stdout", "a  b\n"));

        Assert.True(page.Contains("<pre class=\"stream stdout\">a  b\n</pre>", StringComparison.Ordinal), Excerpt(page, "stream"));
    }

    [Fact]
    public void Standard_error_is_styled_apart_from_standard_output()
    {
        var page = PageOf("1", new StreamOutput("stdout", "out\n"), new StreamOutput("stderr", "careful\n"));

        Assert.True(page.Contains("<pre class=\"stream stderr\">careful\n</pre>", StringComparison.Ordinal), Excerpt(page, "stream"));
    }

    [Fact]
    public void Adjacent_chunks_of_one_stream_render_as_one_block()
    {
        var page = PageOf("1", new StreamOutput("stdout", "one "), new StreamOutput("stdout", "two\n"), new StreamOutput("stderr", "!"), new StreamOutput("stdout", "three"));

        Assert.True(page.Contains("<pre class=\"stream stdout\">one two\n</pre><pre class=\"stream stderr\">!</pre><pre class=\"stream stdout\">three</pre>", StringComparison.Ordinal), Excerpt(page, "stream"));
    }

    [Fact]
    public void Stream_text_is_HTML_encoded()
    {
        var page = PageOf("1", new StreamOutput("stdout", "<script>alert(1)</script> & <b>"));

        Assert.False(Body(page).Contains("<script>alert(1)", StringComparison.Ordinal), Excerpt(page, "alert"));
        Assert.True(page.Contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;", StringComparison.Ordinal), Excerpt(page, "alert"));
    }

    [Fact]
    public void An_HTML_display_is_inserted_as_is()
    {
        var page = PageOf("run", Html("<table class=\"mine\"><tr><td>1 ns</td></tr></table>"));

        Assert.True(page.Contains("<div class=\"output-html\"><table class=\"mine\"><tr><td>1 ns</td></tr></table></div>", StringComparison.Ordinal), Excerpt(page, "mine"));
        Assert.False(page.Contains("(html)", StringComparison.Ordinal), "text/plain is the fallback, not shown when HTML is there");
    }

    [Fact]
    public void A_plain_text_value_is_shown_encoded_in_pre()
    {
        var page = PageOf("new List<int>()", Plain("List<int> (0 items)"));

        Assert.True(page.Contains("<pre class=\"plain\">List&lt;int&gt; (0 items)</pre>", StringComparison.Ordinal), Excerpt(page, "plain"));
    }

    [Fact]
    public void An_error_is_shown_in_an_error_block_with_message_and_details()
    {
        var error = new ErrorOutput("CompilationError", "The cell does not compile.", ["(1,5): error CS0103: The name 'x' does not exist", "(2,1): error CS1002: ; expected"]);

        var page = PageOf("x", error);

        Assert.True(page.Contains("<div class=\"output-error\"><p><strong>CompilationError</strong>: The cell does not compile.</p><pre>(1,5): error CS0103: The name &#39;x&#39; does not exist\n(2,1): error CS1002: ; expected</pre></div>", StringComparison.Ordinal), Excerpt(page, "output-error"));
    }

    [Fact]
    public void Plotly_is_inlined_in_the_head_when_an_output_draws_a_chart()
    {
        var page = PageOf("run", Html(Chart));

        var head = page[..page.IndexOf("</head>", StringComparison.Ordinal)];
        Assert.True(head.Contains(Plotly, StringComparison.Ordinal), "plotly.js (packed) should be in <head>");
        Assert.True(page.IndexOf(Plotly, StringComparison.Ordinal) == page.LastIndexOf(Plotly, StringComparison.Ordinal), "plotly.js should be inlined once");
    }

    [Fact]
    public void Plotly_is_left_out_when_no_output_draws_a_chart()
    {
        var page = PageOf("run", Html("<table></table>"), Plain("Plotly.newPlot is only text here"));

        Assert.False(page.Contains(PlotlyAsset.PackedAttribute, StringComparison.Ordinal), $"plotly.js ({Plotly.Length} chars packed) should not be on a page without charts");
    }

    [Fact]
    public void A_passing_run_says_so_in_the_header()
    {
        var page = PageOf("1", Plain("1"));

        Assert.True(page.Contains("<p class=\"status ok\">✔ Passed: all 2 code cells ran without error</p>", StringComparison.Ordinal), Excerpt(page, "status"));
    }

    [Fact]
    public void A_failing_run_links_to_the_failing_cell_and_shows_its_error_in_the_header()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(SetupText), Code("throw new InvalidOperationException(\"no\");"), Code("1"));
        var run = Run(notebook, new Dictionary<int, CellOutput[]> { [2] = [new ErrorOutput("InvalidOperationException", "no", ["at Submission#2"])] }, failedCell: 2);

        var page = NotebookReport.Page(run);

        var header = page[page.IndexOf("<header", StringComparison.Ordinal)..page.IndexOf("</header>", StringComparison.Ordinal)];
        Assert.True(header.Contains("✖ Failed at <a href=\"#cell-3\">cell 3</a>", StringComparison.Ordinal), header);
        Assert.True(header.Contains("<span class=\"message\">InvalidOperationException: no</span>", StringComparison.Ordinal), header);
        Assert.True(page.Contains("<section class=\"cell code failed\" id=\"cell-3\">", StringComparison.Ordinal), Excerpt(page, "id=\"cell-3\""));
    }

    [Theory]
    [InlineData(BenchmarkMode.Smoke, "numbers are meaningless: this run only proves the cells work")]
    [InlineData(BenchmarkMode.Quick, "a short job")]
    [InlineData(BenchmarkMode.Full, "BenchmarkDotNet's default job")]
    public void The_header_says_what_the_mode_means(BenchmarkMode mode, string meaning)
    {
        var run = Run(Clean(), new Dictionary<int, CellOutput[]>(), mode: mode);

        var page = NotebookReport.Page(run);

        Assert.True(page.Contains($"<strong>{mode.ToString().ToLowerInvariant()}</strong>: {System.Net.WebUtility.HtmlEncode(meaning)}", StringComparison.Ordinal), Excerpt(page, "Mode"));
    }

    [Fact]
    public void The_header_gives_environment_start_time_in_UTC_and_duration()
    {
        var run = Run(Clean(), new Dictionary<int, CellOutput[]>()) with { StartedAt = new DateTimeOffset(2026, 11, 23, 10, 30, 5, TimeSpan.FromHours(1)), Duration = TimeSpan.FromSeconds(75) };

        var page = NotebookReport.Page(run);

        Assert.True(page.Contains("<dd>Linux, 4 cores, .NET 10.0.0</dd>", StringComparison.Ordinal), Excerpt(page, "Environment"));
        Assert.True(page.Contains(">2026-11-23T09:30:05Z</time>", StringComparison.Ordinal), Excerpt(page, "Started"));
        Assert.True(page.Contains("<dd>1 min 15 s</dd>", StringComparison.Ordinal), Excerpt(page, "Duration"));
    }

    [Fact]
    public void The_page_references_no_web_address_outside_plotly()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo\n\n| a | b |\n|---|---|\n| 1 | 2 |"), Code(SetupText), Code("// chart\nvar x = 1;"), Code("throw null;"));
        var outputs = new Dictionary<int, CellOutput[]>
        {
            [1] = [new StreamOutput("stdout", "ready")],
            [2] = [Html(Chart), Plain("1"), new StreamOutput("stderr", "warn")],
            [3] = [new ErrorOutput("NullReferenceException", "null", ["at Submission#3"])],
        };

        var page = NotebookReport.Page(Run(notebook, outputs, failedCell: 3)).Replace(Plotly, "", StringComparison.Ordinal);

        var web = Regex.Matches(page, "https?://[^\"'\\s<>]*").Select(m => m.Value).ToArray();
        Assert.True(web.Length == 0, "web addresses on the page: " + string.Join(", ", web));
    }

    [Fact]
    public void A_link_the_caller_maps_to_nothing_keeps_its_words_and_loses_its_link()
    {
        var html = MarkdownHtml.ToHtml("See [the guide](../docs/guide.md) and [jit/01](jit/01-x.ipynb).", link => link.EndsWith(".ipynb", StringComparison.Ordinal) ? "mapped.html" : null);

        Assert.Contains("See the guide and <a href=\"mapped.html\">jit/01</a>.", html, StringComparison.Ordinal);
        Assert.DoesNotContain("guide.md", html, StringComparison.Ordinal);
    }
}
