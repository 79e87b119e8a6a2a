using System.Text;
using PerfLab.GeneratedRegexSource;
using static PerfLab.Views.Html.HtmlText;

namespace PerfLab.Views.Html;

/// <summary>
/// The HTML view of a <see cref="RegexSourceReport"/> for notebooks and reports: the attribute and the
/// summaries on top, the explanation side by side per group of runtimes, then each method and the helpers
/// (collapsed when long), C# highlighted, changed lines marked as in the asm view (its tables and colors);
/// the whole generated files last, collapsed, on the standalone page. Self-contained (inline CSS, no script).
/// </summary>
public static class RegexSourceHtml
{
    // Parts longer than this start collapsed.
    private const int CollapseAfterLines = 60;

    private const string Style = """
        .perflab-regex h3 code { font-size: 0.95em; }
        .perflab-regex h4 { margin: 1em 0 0.2em; }
        .perflab-regex .summary { font-size: 13px; }
        .perflab-regex td { height: 1.35em; }
        /* Two halves of the output's width; a long line wraps inside its half instead of pushing the newer side out of view. */
        .perflab-regex table.lines { width: 100%; }
        .perflab-regex table.diff { table-layout: fixed; }
        .perflab-regex table.diff col.mark { width: 1.6em; }
        .perflab-regex table.lines td { white-space: pre-wrap; overflow-wrap: anywhere; }
        .perflab-regex details > summary { cursor: pointer; margin: 0.6em 0 0.2em; }
        .perflab-regex td.mark { padding: 0 2px 0 6px; color: #888; user-select: none; }
        .perflab-regex td.mark.old, .perflab-regex td.mark.new { font-weight: bold; color: inherit; }
        .perflab-regex .note { font-size: 13px; margin: 0.3em 0; }
        .perflab-regex pre.file { font-size: 12px; margin: 0.3em 0 1em; padding: 8px; border: 1px solid #8884; border-radius: 4px; overflow-x: auto; }
        @media (prefers-color-scheme: dark) {
          .perflab-regex .kw { color: var(--kw, #ff7b72); } .perflab-regex .str { color: var(--str, #a5d6ff); } .perflab-regex .num { color: var(--num, #79c0ff); }
          .perflab-regex .com { color: var(--com, #8b949e); } .perflab-regex .typ { color: var(--typ, #ffa657); } }
        """;

    /// <summary>An HTML fragment (a div with its own style), to embed in a page or a notebook output.</summary>
    /// <param name="report">The report.</param>
    /// <param name="wholeFiles">Also the whole generated files, collapsed (the standalone page has them; a notebook's
    /// view leaves them out: seven regexes' files would push a report past its size budget).</param>
    public static string Fragment(RegexSourceReport report, bool wholeFiles = false)
    {
        ArgumentNullException.ThrowIfNull(report);
        var html = new StringBuilder();
        // perflab-asm: the side-by-side tables are the asm view's, with its style.
        html.Append(Open("perflab-asm perflab-regex", AsmHtml.Style + CSharpHighlighter.Css(".perflab-regex") + Style));
        html.Append("<h3>C# generated for <code>").Append(Escape(report.Attribute)).Append("</code></h3>");
        html.Append("<p class=\"counts\">").Append(Escape(string.Join(" · ", report.Runtimes.Select(r => $"{r.Runtime}: generator {r.GeneratorVersion}")))).Append("</p>");
        foreach (var summary in report.Summaries())
        {
            html.Append("<p class=\"summary\">").Append(Escape(summary)).Append("</p>");
        }

        foreach (var (runtimes, remark) in report.Remarks())
        {
            html.Append("<p class=\"note\"><strong>").Append(Escape(runtimes)).Append("</strong>: ").Append(Escape(remark)).Append("</p>");
        }

        foreach (var part in report.Parts())
        {
            AppendPart(html, part);
        }

        if (!wholeFiles)
        {
            return html.Append("<p class=\"files\">The whole generated files: <code>perflab regex</code> with <code>--full</code> or <code>--html</code>.</p></div>").ToString();
        }

        html.Append("<details class=\"files\"><summary>The generated files</summary>");
        foreach (var (runtimes, file) in report.Files())
        {
            html.Append("<details><summary>").Append(Escape($"{string.Join(", ", runtimes)} ({file.Split('\n').Length} lines)")).Append("</summary><pre class=\"file\"><code>")
                .Append(CSharpHighlighter.ToHtml(file)).Append("</code></pre></details>");
        }

        return html.Append("</details></div>").ToString();
    }

    /// <summary>A standalone page.</summary>
    /// <param name="report">The report.</param>
    public static string Page(RegexSourceReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        return $"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"color-scheme\" content=\"light dark\"><title>{Escape("C# generated for " + report.Attribute)}</title></head><body>{Fragment(report, wholeFiles: true)}</body></html>\n";
    }

    // The explanation is always in view; a method or the helpers start collapsed when long, as asm listings do.
    private static void AppendPart(StringBuilder html, RegexPartView part)
    {
        var written = part.Groups.Where(g => g.Lines.Count > 0).ToArray();
        if (written.Length == 0)
        {
            html.Append("<p class=\"counts\" data-part=\"").Append(Escape(part.Name)).Append("\"><code>").Append(Escape(part.Name)).Append("</code>: not generated on ")
                .Append(Escape(string.Join(", ", part.Groups.Select(g => g.Label)))).Append("</p>");
            return;
        }

        var counts = Escape(string.Join(" · ", part.Groups.Select(g => g.Lines.Count == 0 ? $"{g.Label}: not generated" : g.Description)));
        var title = part.Name == RegexPart.HelpersName ? "<code>Utilities</code>: the helpers they call" : "<code>" + Escape(part.Name) + "</code>";
        if (part.IsCode)
        {
            html.Append("<details data-part=\"").Append(Escape(part.Name)).Append('"').Append(part.Rows <= CollapseAfterLines ? " open" : "")
                .Append("><summary>").Append(title).Append(" <span class=\"counts\">").Append(counts).Append("</span></summary>");
        }
        else
        {
            html.Append("<section data-part=\"").Append(Escape(part.Name)).Append("\"><h4>").Append(Escape(part.Name)).Append(" <span class=\"counts\">").Append(counts).Append("</span></h4>");
        }

        if (written.Length == 1)
        {
            var lines = Cells(written[0].Lines, part.IsCode);
            html.Append("<table class=\"lines\"><tr><th>").Append(Escape(written[0].Label)).Append("</th></tr>");
            foreach (var line in lines)
            {
                html.Append("<tr><td>").Append(line).Append("</td></tr>");
            }

            html.Append("</table>");
        }

        for (var i = 1; i < written.Length; i++)
        {
            AppendComparison(html, written[i - 1], written[i], part.IsCode);
        }

        html.Append(part.IsCode ? "</details>" : "</section>");
    }

    private static void AppendComparison(StringBuilder html, RegexPartGroup left, RegexPartGroup right, bool isCode)
    {
        var (leftCells, rightCells) = (Cells(left.Lines, isCode), Cells(right.Lines, isCode));
        int x = 0, y = 0;
        html.Append("<table class=\"lines diff\"><colgroup><col class=\"mark\"><col><col class=\"mark\"><col></colgroup><tr><th colspan=\"2\">").Append(Escape(left.Label)).Append("</th><th colspan=\"2\">").Append(Escape(right.Label)).Append("</th></tr>");
        foreach (var row in RegexSourceDiff.Align(left.Lines, right.Lines))
        {
            // Rows keep each side's order, so the highlighted lines are taken in turn.
            var oldCell = row.Left is null ? "" : leftCells[x++];
            var newCell = row.Right is null ? "" : rightCells[y++];
            var (oldChanged, newChanged) = (row.Changed && row.Left is not null, row.Changed && row.Right is not null);
            html.Append(row.Changed ? "<tr class=\"changed\">" : "<tr>")
                .Append(oldChanged ? "<td class=\"mark old\">−</td><td class=\"old\">" : "<td class=\"mark\"></td><td>").Append(oldCell).Append("</td>")
                .Append(newChanged ? "<td class=\"mark new\">+</td><td class=\"new\">" : "<td class=\"mark\"></td><td>").Append(newCell).Append("</td></tr>");
        }

        html.Append("</table>");
    }

    private static IReadOnlyList<string> Cells(IReadOnlyList<string> lines, bool isCode) =>
        isCode ? CSharpHighlighter.ToHtmlLines(string.Join('\n', lines)) : lines.Select(Escape).ToArray();
}
