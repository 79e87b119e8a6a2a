using System.Text;
using PerfLab.Results;
using PerfLab.Views.Charts;
using static PerfLab.Views.Html.HtmlText;

namespace PerfLab.Views.Html;

/// <summary>The HTML view of <see cref="BreakEven"/>: a verdict per runtime and the cost-per-read chart.</summary>
internal static class BreakEvenHtml
{
    /// <summary>An HTML fragment for a notebook output (plotly.js comes with the page's first chart).</summary>
    /// <param name="breakEven">The points.</param>
    /// <param name="page">The page the output goes to.</param>
    public static string Fragment(BreakEven breakEven, NotebookPage page)
    {
        ArgumentNullException.ThrowIfNull(breakEven);
        ArgumentNullException.ThrowIfNull(page);
        var html = new StringBuilder(page.PlotlyLoaderOnce()).Append(Open("perflab-results", ResultsHtml.Style));
        html.Append("<table><tr><th>Runtime</th><th class=\"num\">Build ").Append(Escape(breakEven.Plain.Name)).Append("</th><th class=\"num\">Build ").Append(Escape(breakEven.Prepared.Name))
            .Append("</th><th class=\"num\">Read ").Append(Escape(breakEven.Plain.Name)).Append("</th><th class=\"num\">Read ").Append(Escape(breakEven.Prepared.Name)).Append("</th><th>")
            .Append(Escape(breakEven.Prepared.Name)).Append("</th></tr>");
        foreach (var p in breakEven.Points)
        {
            html.Append("<tr><td>").Append(Escape(p.Runtime)).Append("</td>");
            foreach (var ns in new[] { p.PlainBuild, p.PreparedBuild, p.PlainRead, p.PreparedRead })
            {
                html.Append("<td class=\"num\">").Append(Escape(QuantityText.Time(ns))).Append("</td>");
            }

            html.Append("<td>").Append(Escape(breakEven.Verdict(p))).Append("</td></tr>");
        }

        html.Append("</table>");
        html.Append("<p class=\"legend\">One read = one call of a read method divided by ").Append(breakEven.ReadsPerCall)
            .Append(" reads per call. Solid: ").Append(Escape(breakEven.Plain.Name)).Append("; dashed: ").Append(Escape(breakEven.Prepared.Name)).Append("; a diamond where they cross.</p>");
        foreach (var skipped in breakEven.Skipped)
        {
            html.Append("<p class=\"warn\">Skipped ").Append(Escape(skipped)).Append("</p>");
        }

        var chart = BenchmarkCharts.BreakEven(breakEven);
        html.Append("<h4>").Append(Escape(chart.Title)).Append("</h4>")
            .Append(ResultsHtml.Figure(chart.Figure.ToJsonString(JsonFormats.Figure), "perflab-" + Guid.NewGuid().ToString("N")[..8] + "-" + chart.Id));
        return html.Append("</div>").ToString();
    }
}
