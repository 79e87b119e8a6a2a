using System.Globalization;
using System.Text;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;
using PerfLab.Views.Html;
using static PerfLab.Views.Html.HtmlText;

namespace PerfLab.Notebooks.Views;

/// <summary>
/// A headless notebook run as one standalone HTML page: a header that says whether it passed (and
/// where it failed), how and where it ran; then every cell with its outputs. The page works offline:
/// no CDN, no web font, no request of any kind; plotly.js is inlined when a chart needs it.
/// </summary>
public static class NotebookReport
{
    // Highlighting is scoped to the source: outputs bring their own classes (the results table uses "num").
    private static readonly string Style = """
        :root { color-scheme: light dark;
          --fg: #1f2328; --muted: #656d76; --bg: #ffffff; --panel: #f6f8fa; --border: #d0d7de; --link: #0969da;
          --ok: #1a7f37; --bad: #cf222e; --bad-bg: #ffebe9; --warn: #9a6700;
          --kw: #cf222e; --str: #0a3069; --num: #0550ae; --com: #6e7781; --dir: #8250df; --typ: #953800; --dis: #8c959f; }
        @media (prefers-color-scheme: dark) { :root {
          --fg: #e6edf3; --muted: #8d96a0; --bg: #0d1117; --panel: #161b22; --border: #30363d; --link: #4493f8;
          --ok: #3fb950; --bad: #f85149; --bad-bg: #2d1214; --warn: #d29922;
          --kw: #ff7b72; --str: #a5d6ff; --num: #79c0ff; --com: #8b949e; --dir: #d2a8ff; --typ: #ffa657; --dis: #6e7681; } }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
        a { color: var(--link); }
        header.run, main { max-width: 1040px; margin: 0 auto; padding: 0 24px; }
        header.run { padding-top: 24px; padding-bottom: 12px; border-bottom: 1px solid var(--border); }
        header.run h1 { margin: 0 0 8px; font-size: 1.9em; line-height: 1.2; }
        .status { font-weight: 600; margin: 0 0 10px; }
        .status.ok { color: var(--ok); }
        .status.failed { color: var(--bad); }
        .status .message { display: block; font-weight: 400; color: var(--fg); white-space: pre-wrap; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; font-size: 14px; }
        dl.facts dt { color: var(--muted); }
        dl.facts dd { margin: 0; }
        .mode-smoke { color: var(--warn); }
        .cell { margin: 18px 0; scroll-margin-top: 12px; }
        .cell:target { outline: 2px solid var(--link); outline-offset: 6px; border-radius: 4px; }
        .markdown { max-width: 80ch; }
        .markdown table { border-collapse: collapse; margin: 0.6em 0; }
        .markdown th, .markdown td { border: 1px solid var(--border); padding: 4px 10px; }
        .markdown th { background: var(--panel); text-align: left; }
        .markdown code { background: var(--panel); padding: 0.1em 0.3em; border-radius: 4px; font-size: 90%; }
        .markdown pre code { padding: 0; background: none; }
        .markdown blockquote { margin: 0.8em 0; padding: 0.1em 1em; border-left: 4px solid var(--border); color: var(--muted); }
        .markdown details.notes { margin: 0.8em 0; padding: 0.2em 1em; border-left: 4px solid var(--border); background: var(--panel); border-radius: 0 6px 6px 0; }
        .markdown details.notes > summary { color: var(--muted); cursor: pointer; font-size: 14px; }
        .prompt { display: flex; gap: 10px; align-items: baseline; font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--muted); margin-bottom: 2px; }
        .prompt a { color: inherit; text-decoration: none; }
        .badge { border-radius: 10px; padding: 0 8px; border: 1px solid currentColor; }
        .badge.failed { color: var(--bad); }
        .badge.skipped { color: var(--muted); }
        pre { margin: 0; padding: 10px 12px; overflow-x: auto; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        pre.source { background: var(--panel); border: 1px solid var(--border); border-radius: 6px; }
        .code.skipped pre.source { opacity: 0.6; }
        .code.failed pre.source { border-color: var(--bad); }
        .outputs { margin: 6px 0 0; padding-left: 12px; border-left: 3px solid var(--border); overflow-x: auto; }
        .outputs > * + * { margin-top: 6px; }
        pre.stream, pre.plain { padding: 4px 0; white-space: pre-wrap; }
        details.progress > summary { color: var(--muted); font-size: 13px; cursor: pointer; }
        pre.stderr { color: var(--bad); background: var(--bad-bg); padding: 4px 8px; border-radius: 4px; }
        .output-error { background: var(--bad-bg); border: 1px solid var(--bad); border-radius: 6px; padding: 8px 12px; }
        .output-error p { margin: 0; color: var(--bad); white-space: pre-wrap; }
        .output-error pre { padding: 6px 0 0; white-space: pre-wrap; }
        .output-html img, .output-image { max-width: 100%; }
        footer { max-width: 1040px; margin: 32px auto; padding: 12px 24px; border-top: 1px solid var(--border); color: var(--muted); font-size: 13px; }
        """ + CSharpHighlighter.Css("pre.source");

    /// <summary>The style every report page carries, and the course site's stylesheet starts from.</summary>
    public static string Stylesheet => Style;

    /// <summary>The report page of <paramref name="run"/>, as one standalone HTML document.</summary>
    /// <param name="run">The notebook run.</param>
    public static string Page(NotebookRun run) => Page(run, site: null);

    /// <summary>
    /// The page of <paramref name="run"/>: standalone (<paramref name="site"/> null: style and plotly.js inlined,
    /// the run's own header), or one page of the course site (shared stylesheet and plotly.js, the site's header,
    /// notes under cells).
    /// </summary>
    /// <param name="run">The notebook run.</param>
    /// <param name="site">How the page sits in the site, or null.</param>
    public static string Page(NotebookRun run, SiteFrame? site)
    {
        ArgumentNullException.ThrowIfNull(run);
        var title = run.Notebook.Title;
        var html = new StringBuilder();
        html.Append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
            .Append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"color-scheme\" content=\"light dark\">")
            .Append("<title>").Append(Escape(title)).Append(site is not null || run.Succeeded ? "" : " (failed)").Append("</title>");
        if (site is null)
        {
            html.Append("<style>").Append(Style).Append("</style>");
        }
        else
        {
            html.Append("<link rel=\"stylesheet\" href=\"").Append(Escape(site.Stylesheet)).Append("\">");
        }

        if (NeedsPlotly(run, site))
        {
            // Once up front (inlined and packed, or the site's file): an output's own loader is dropped (it comes with the process's first chart).
            html.Append(site is null ? PlotlyAsset.PackedPageScript() : "<script src=\"" + Escape(site.PlotlyScript) + "\"></script>");
        }

        html.Append("</head>\n<body>\n");
        if (site is null)
        {
            AppendHeader(html, run, title);
        }
        else
        {
            html.Append(site.Header);
        }

        html.Append("<main>\n");
        foreach (var cell in run.Cells)
        {
            AppendCell(html, cell, site);
        }

        html.Append("</main>\n");
        if (site is null)
        {
            html.Append("<footer>Written by PerfLab from ").Append(Escape(Path.GetFileName(run.Notebook.Path)))
                .Append(". Outputs are those of this run; the notebook in git stores none.</footer>\n");
        }
        else
        {
            html.Append(site.Footer);
        }

        html.Append("</body></html>\n");
        return html.ToString();
    }

    private static bool NeedsPlotly(NotebookRun run, SiteFrame? site) => run.Cells
        .Where(c => site is null || !site.HiddenOutputs.Contains(c.Cell.Index))
        .SelectMany(c => c.Outputs)
        .OfType<DisplayOutput>()
        .Any(o => o.Data.TryGetValue("text/html", out var content) && content.Contains("Plotly.newPlot", StringComparison.Ordinal));

    private static void AppendHeader(StringBuilder html, NotebookRun run, string title)
    {
        html.Append("<header class=\"run\"><h1>").Append(Escape(title)).Append("</h1>");
        var codeCells = run.Cells.Count(c => c.Cell.Kind == CellKind.Code);
        var ran = run.Cells.Count(c => c.Cell.Kind == CellKind.Code && c.ExecutionCount is not null);
        if (run.FirstFailure is { } failure)
        {
            var message = failure.Outputs.OfType<ErrorOutput>().FirstOrDefault() is { } error
                ? error.Name + ": " + error.Message
                : "it failed without an error message";
            html.Append("<p class=\"status failed\">✖ Failed at <a href=\"#").Append(Anchor(failure.Cell)).Append("\">").Append(Escape(failure.Cell.Name)).Append("</a>")
                .Append(" (").Append(ran).Append(" of ").Append(codeCells).Append(" code cells ran)")
                .Append("<span class=\"message\">").Append(Escape(message)).Append("</span></p>");
        }
        else
        {
            html.Append("<p class=\"status ok\">✔ Passed: all ").Append(codeCells).Append(" code cells ran without error</p>");
        }

        var mode = ModeChoice.Name(run.Mode);
        html.Append("<dl class=\"facts\">")
            .Append("<dt>Notebook</dt><dd>").Append(Escape(Path.GetFileName(run.Notebook.Path))).Append("</dd>")
            .Append("<dt>Mode</dt><dd class=\"mode-").Append(mode).Append("\"><strong>").Append(mode).Append("</strong>: ").Append(Escape(ModeChoice.Meaning(run.Mode))).Append("</dd>")
            .Append("<dt>Environment</dt><dd>").Append(Escape(run.Environment)).Append("</dd>")
            .Append("<dt>Started</dt><dd><time datetime=\"").Append(Iso(run.StartedAt)).Append("\">").Append(Iso(run.StartedAt)).Append("</time></dd>")
            .Append("<dt>Duration</dt><dd>").Append(Duration(run.Duration)).Append("</dd>")
            .Append("</dl></header>\n");
    }

    private static void AppendCell(StringBuilder html, CellRun run, SiteFrame? site)
    {
        var cell = run.Cell;
        switch (cell.Kind)
        {
            case CellKind.Markdown:
                html.Append("<section class=\"cell markdown\" id=\"").Append(Anchor(cell)).Append("\">")
                    .Append(MarkdownHtml.ToHtml(cell.Source, site?.Links)).Append("</section>\n");
                return;

            case CellKind.Raw:
                html.Append("<section class=\"cell raw\" id=\"").Append(Anchor(cell)).Append("\"><pre>").Append(Escape(cell.Source)).Append("</pre></section>\n");
                return;
        }

        if (site is not null)
        {
            AppendSiteCell(html, run, site);
            return;
        }

        var executed = run.ExecutionCount is not null;
        var state = run.Failed ? " failed" : executed ? "" : " skipped";
        html.Append("<section class=\"cell code").Append(state).Append("\" id=\"").Append(Anchor(cell)).Append("\">")
            .Append("<div class=\"prompt\"><a href=\"#").Append(Anchor(cell)).Append("\" title=\"").Append(Escape(cell.Name)).Append("\">In [")
            .Append(executed ? run.ExecutionCount!.Value.ToString(CultureInfo.InvariantCulture) : " ").Append("]</a>");
        if (run.Failed)
        {
            html.Append("<span class=\"badge failed\">failed</span>");
        }
        else if (!executed)
        {
            html.Append("<span class=\"badge skipped\">not executed</span>");
        }

        if (executed)
        {
            html.Append("<span class=\"time\">").Append(Duration(run.Duration)).Append("</span>");
        }

        html.Append("</div>");
        AppendSource(html, cell);
        OutputHtml.Append(html, run.Outputs);
        html.Append("</section>\n");
    }

    // A site page shows the code, its note and its outputs: no run count, duration or state, which belong to a build, not to the course.
    private static void AppendSiteCell(StringBuilder html, CellRun run, SiteFrame site)
    {
        var cell = run.Cell;
        html.Append("<section class=\"cell code\" id=\"").Append(Anchor(cell)).Append("\">");
        AppendSource(html, cell);
        if (site.Notes.TryGetValue(cell.Index, out var note))
        {
            html.Append("<p class=\"note\">").Append(note).Append("</p>");
        }

        if (!site.HiddenOutputs.Contains(cell.Index))
        {
            OutputHtml.Append(html, run.Outputs);
        }

        html.Append("</section>\n");
    }

    private static void AppendSource(StringBuilder html, NotebookCell cell) =>
        html.Append("<pre class=\"source\"><code class=\"language-csharp\">")
            .Append(CSharpHighlighter.ToHtml(cell.Source.Replace("\r\n", "\n", StringComparison.Ordinal)))
            .Append("</code></pre>");

    private static string Anchor(NotebookCell cell) => "cell-" + (cell.Index + 1).ToString(CultureInfo.InvariantCulture);

    private static string Iso(DateTimeOffset time) => time.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", CultureInfo.InvariantCulture);

    private static string Duration(TimeSpan duration) => duration.TotalSeconds switch
    {
        < 10 => duration.TotalSeconds.ToString("0.00", CultureInfo.InvariantCulture) + " s",
        < 60 => duration.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture) + " s",
        _ => string.Create(CultureInfo.InvariantCulture, $"{(int)duration.TotalMinutes} min {duration.Seconds:00} s"),
    };
}
