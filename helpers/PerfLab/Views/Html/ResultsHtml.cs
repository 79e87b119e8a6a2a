using System.Text;
using PerfLab.Results;
using PerfLab.Views.Charts;
using PerfLab.Views.Terminal;
using static PerfLab.Views.Html.HtmlText;

namespace PerfLab.Views.Html;

/// <summary>
/// HTML views of a <see cref="BenchmarkRun"/>: the results table (BenchmarkDotNet's columns, baseline
/// marked, warnings inline, environment line), and a standalone report page with the charts. plotly.js
/// comes once per page (<see cref="PlotlyAsset"/>), never from a CDN (workshops go offline).
/// </summary>
public static class ResultsHtml
{
    internal const string Style = """
        .perflab-results { font-family: system-ui, sans-serif; color: inherit; }
        .perflab-results .env { color: #888; font-size: 13px; margin: 0.3em 0 0.6em; }
        .perflab-results table { border-collapse: collapse; font-size: 13px; }
        .perflab-results th, .perflab-results td { padding: 3px 7px; border-bottom: 1px solid rgba(128,128,128,0.3); }
        .perflab-results th { text-align: left; }
        .perflab-results td.num, .perflab-results th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        .perflab-results td.wraps { white-space: normal; min-width: 10em; }
        .perflab-results tr.baseline td { font-weight: 600; }
        .perflab-results tr.failed td { color: #e5484d; }
        .perflab-results .warn { color: #d4a72c; font-size: 12px; }
        .perflab-results .legend { color: #888; font-size: 12px; }
        .perflab-results .below { color: #888; font-size: 12px; }
        .perflab-results .whole { white-space: nowrap; }
        .perflab-results .chart { max-width: 980px; }
        """;

    /// <summary>The table with its environment line, warnings and errors, as an HTML fragment.</summary>
    /// <param name="run">The run.</param>
    public static string Table(BenchmarkRun run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var columns = ResultColumns.For(run, fastestUnderRatio: true);
        var html = new StringBuilder();
        html.Append(Open("perflab-results", Style));
        html.Append("<p class=\"env\">").Append(Escape(TerminalTable.EnvironmentLine(run))).Append("</p>");
        foreach (var warning in run.Warnings)
        {
            html.Append("<p class=\"warn\">⚠ ").Append(Escape(warning)).Append("</p>");
        }

        html.Append("<table><thead><tr>");
        foreach (var column in columns)
        {
            html.Append(column.RightAligned ? "<th class=\"num\">" : "<th>").Append(Escape(column.Header)).Append("</th>");
        }

        html.Append("</tr></thead><tbody>");
        foreach (var row in run.Results)
        {
            var isBaseline = ResultColumns.IsBaselineRow(run, row);
            var cssClass = row.Error is not null ? " class=\"failed\"" : isBaseline ? " class=\"baseline\"" : "";
            html.Append("<tr").Append(cssClass).Append('>');
            foreach (var column in columns)
            {
                // A cell's second line (the fastest ratio under Ratio) is smaller and grey.
                var lines = column.Cell(row).Split('\n');
                html.Append(column.RightAligned ? (column.Wraps ? "<td class=\"num wraps\">" : "<td class=\"num\">") : "<td>").Append(column.Wraps ? WrapsAtSpaces(lines[0]) : Escape(lines[0]));
                foreach (var line in lines.Skip(1))
                {
                    html.Append("<br><span class=\"below\">").Append(column.Wraps ? WrapsAtSpaces(line) : Escape(line)).Append("</span>");
                }

                html.Append("</td>");
            }

            html.Append("</tr>");
            var notes = row.Warnings.Select(w => "⚠ " + w).Concat(row.Error is null ? [] : ["✖ " + row.Error]).ToArray();
            if (notes.Length > 0)
            {
                html.Append("<tr><td class=\"warn\" colspan=\"").Append(columns.Count).Append("\">")
                    .Append(string.Join("<br>", notes.Select(n => Escape(n).Replace("\n", "<br>", StringComparison.Ordinal)))).Append("</td></tr>");
            }
        }

        html.Append("</tbody></table>");
        foreach (var line in ResultColumns.PublishedLines(run))
        {
            html.Append("<p class=\"legend\">").Append(Escape(line)).Append("</p>");
        }

        html.Append("<p class=\"legend\">").Append(Escape(ResultColumns.RatioLegend(run))).Append(" Bold rows are the baseline. Times per operation; Error is half the 99.9% confidence interval.</p>");
        return html.Append("</div>").ToString();
    }

    /// <summary>The charts as HTML: one div per chart and the script that draws it (plotly.js must be on the page).</summary>
    /// <param name="run">The run.</param>
    /// <param name="idPrefix">Makes element ids unique when several runs share a page.</param>
    public static string Charts(BenchmarkRun run, string idPrefix = "perflab")
    {
        ArgumentNullException.ThrowIfNull(run);
        var html = new StringBuilder("<div class=\"perflab-results\">");
        foreach (var chart in BenchmarkCharts.For(run))
        {
            var id = $"{idPrefix}-{chart.Id}";
            html.Append("<h4>").Append(Escape(chart.Title)).Append("</h4>").Append(Figure(chart.Figure.ToJsonString(JsonFormats.Figure), id));
        }

        return html.Append("</div>").ToString();
    }

    /// <summary>A div and the script that draws a Plotly figure into it (plotly.js must be on the page).</summary>
    /// <param name="figureJson">The figure: { "data": [...], "layout": {...} }.</param>
    /// <param name="id">The div's id, unique on the page.</param>
    public static string Figure(string figureJson, string id)
    {
        ArgumentNullException.ThrowIfNull(figureJson);
        return "<div class=\"chart\" id=\"" + id + "\"></div><script>(function(){var f=" + figureJson.Replace("</", "<\\/", StringComparison.Ordinal)
            + ";Plotly.newPlot('" + id + "',f.data,f.layout,{displaylogo:false,responsive:true});})();</script>";
    }

    /// <summary>
    /// A chart the reader built with Plotly.NET (its C# or F# API), for a notebook output: drawn with the
    /// course's own plotly.js (sent once per page, as for results), never Plotly.NET's CDN reference.
    /// </summary>
    /// <param name="chart">The chart.</param>
    /// <param name="page">The page the output goes to: plotly.js comes with its first chart.</param>
    public static string ReaderChart(Plotly.NET.GenericChart chart, NotebookPage page)
    {
        ArgumentNullException.ThrowIfNull(chart);
        ArgumentNullException.ThrowIfNull(page);
        return page.PlotlyLoaderOnce() + "<div class=\"perflab-results\">" + Figure(Plotly.NET.GenericChart.toFigureJson(chart), "perflab-chart-" + Guid.NewGuid().ToString("N")[..8]) + "</div>";
    }

    /// <summary>
    /// Table and charts for a notebook output. plotly.js travels with the first chart of the page (a notebook's
    /// outputs share one), guarded so a page that already has it does not load it twice.
    /// </summary>
    /// <param name="run">The run.</param>
    /// <param name="page">The page the output goes to.</param>
    public static string Fragment(BenchmarkRun run, NotebookPage page)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(page);
        return page.PlotlyLoaderOnce() + Table(run) + Charts(run, "perflab-" + Guid.NewGuid().ToString("N")[..8]);
    }

    /// <summary>A standalone page: title, table, charts, plotly.js inlined once (packed). Opens offline.</summary>
    /// <param name="run">The run.</param>
    /// <param name="title">The page title.</param>
    public static string Page(BenchmarkRun run, string title)
    {
        ArgumentNullException.ThrowIfNull(run);
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"color-scheme\" content=\"light dark\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" + Escape(title) + "</title>"
            + PlotlyAsset.PackedPageScript() + "</head>"
            + "<body style=\"font-family: system-ui, sans-serif; margin: 1.5em;\"><h2>" + Escape(title) + "</h2>"
            + Table(run) + Charts(run) + "</body></html>\n";
    }

    // A wrapping cell breaks between words, never inside one: an interval, "(1.10–1.38)", would otherwise break after its dash.
    private static string WrapsAtSpaces(string text) =>
        string.Join(' ', text.Split(' ').Select(word => word.Contains('–', StringComparison.Ordinal) ? $"<span class=\"whole\">{Escape(word)}</span>" : Escape(word)));
}
