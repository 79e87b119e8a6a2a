using System.Text;
using PerfLab.Disassembly;
using static PerfLab.Views.Html.HtmlText;

namespace PerfLab.Views.Html;

/// <summary>
/// The HTML view of an <see cref="AsmReport"/> for notebooks and reports: summaries on top, then per
/// method the code side by side per group of runtimes, changed lines highlighted; the lead listing
/// (<see cref="AsmReport.Methods"/>) first and open, the others folded. Self-contained (inline CSS, no
/// script), readable in light and dark themes.
/// </summary>
public static class AsmHtml
{
    // Shared with RegexSourceHtml: the same side-by-side tables, old and new lines in the same colors.
    internal const string Style = """
        .perflab-asm { font-family: system-ui, sans-serif; color: inherit; }
        .perflab-asm .summary { font-family: ui-monospace, monospace; margin: 0.2em 0; }
        .perflab-asm table { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: 12px; margin: 0.5em 0 1.5em; }
        .perflab-asm th { text-align: left; padding: 2px 8px; border-bottom: 1px solid #8886; }
        .perflab-asm td { padding: 0 8px; white-space: pre; vertical-align: top; }
        .perflab-asm td.old { background: #e5484d33; }
        .perflab-asm td.new { background: #30a46c33; }
        .perflab-asm .counts { color: #888; font-size: 12px; }
        """;

    /// <summary>An HTML fragment (a div with its own style), to embed in a page or a notebook output.</summary>
    /// <param name="report">The report.</param>
    public static string Fragment(AsmReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        var html = new StringBuilder();
        html.Append(Open("perflab-asm", Style));
        html.Append("<h3>asm of ").Append(Escape(report.Method)).Append("</h3>");
        html.Append("<p class=\"counts\">").Append(Escape(report.Variant)).Append(" · ")
            .Append(Escape(string.Join(", ", report.Runtimes.Select(r => $"{r.Runtime} {r.Version}")))).Append("</p>");
        foreach (var summary in report.Summaries())
        {
            html.Append("<p class=\"summary\">").Append(Escape(summary)).Append("</p>");
        }

        foreach (var method in report.Methods())
        {
            html.Append("<details").Append(method.Lead ? " open" : "").Append("><summary><code>").Append(Escape(method.Method)).Append("</code></summary>");
            foreach (var group in method.Groups)
            {
                html.Append("<div class=\"counts\">").Append(Escape($"{group.Label}: {group.Description}; {group.Counts}")).Append("</div>");
            }

            if (method.Groups.Count == 1)
            {
                html.Append("<table><tr><th>").Append(Escape(method.Groups[0].Label)).Append("</th></tr>");
                foreach (var line in method.Groups[0].Listing.Lines)
                {
                    html.Append("<tr><td>").Append(Escape(line)).Append("</td></tr>");
                }

                html.Append("</table>");
            }

            for (var i = 1; i < method.Groups.Count; i++)
            {
                var (left, right) = (method.Groups[i - 1], method.Groups[i]);
                html.Append("<table><tr><th>").Append(Escape(left.Label)).Append("</th><th>").Append(Escape(right.Label)).Append("</th></tr>");
                foreach (var row in AsmDiff.Align(left.Listing, right.Listing))
                {
                    html.Append("<tr><td").Append(row.Changed && row.Left is not null ? " class=\"old\"" : "").Append('>').Append(Escape(row.Left ?? ""))
                        .Append("</td><td").Append(row.Changed && row.Right is not null ? " class=\"new\"" : "").Append('>').Append(Escape(row.Right ?? "")).Append("</td></tr>");
                }

                html.Append("</table>");
            }

            html.Append("</details>");
        }

        return html.Append("</div>").ToString();
    }

    /// <summary>A standalone page.</summary>
    /// <param name="report">The report.</param>
    public static string Page(AsmReport report) =>
        $"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"color-scheme\" content=\"light dark\"><title>{Escape("asm of " + report.Method)}</title></head><body>{Fragment(report)}</body></html>\n";
}
