using System.Text;
using PerfLab.Notebooks.Documents;
using PerfLab.Views.Html;
using static PerfLab.Views.Html.HtmlText;

namespace PerfLab.Notebooks.Views;

/// <summary>A code cell's outputs as a report page shows them: streams (the helpers' progress folded away), displays, errors.</summary>
internal static class OutputHtml
{
    /// <summary>One progress line as a running cell shows it, replaced in place by the next.</summary>
    /// <param name="line">The line.</param>
    public static string ProgressLine(string line) => "<pre class=\"perflab-progress\">" + Escape(line) + "</pre>";

    /// <summary>Appends the outputs' div, or nothing when the cell has no output.</summary>
    /// <param name="html">The page being written.</param>
    /// <param name="outputs">The cell's outputs, in order.</param>
    public static void Append(StringBuilder html, IReadOnlyList<CellOutput> outputs)
    {
        if (outputs.Count == 0)
        {
            return;
        }

        html.Append("<div class=\"outputs\">");
        for (var i = 0; i < outputs.Count; i++)
        {
            switch (outputs[i])
            {
                case StreamOutput stream:
                    // Chunks of one stream written in a row read as one block, as in Jupyter.
                    var text = new StringBuilder(stream.Text);
                    while (i + 1 < outputs.Count && outputs[i + 1] is StreamOutput next && next.Name == stream.Name && next.IsProgress == stream.IsProgress)
                    {
                        text.Append(next.Text);
                        i++;
                    }

                    var name = stream.Name == "stderr" ? "stderr" : "stdout";
                    if (stream.IsProgress)
                    {
                        // The report reads as prose, table, charts: the helpers' progress stays one click away.
                        var lines = text.ToString().TrimEnd('\n').Split('\n').Length;
                        html.Append("<details class=\"progress\"><summary>Progress (").Append(lines).Append(lines == 1 ? " line" : " lines").Append(")</summary>")
                            .Append("<pre class=\"stream ").Append(name).Append("\">").Append(Escape(text.ToString())).Append("</pre></details>");
                        break;
                    }

                    html.Append("<pre class=\"stream ").Append(name).Append("\">").Append(Escape(text.ToString())).Append("</pre>");
                    break;

                case DisplayOutput display:
                    AppendDisplay(html, display);
                    break;

                case ErrorOutput error:
                    html.Append("<div class=\"output-error\"><p><strong>").Append(Escape(error.Name)).Append("</strong>: ").Append(Escape(error.Message)).Append("</p>");
                    if (error.Details.Count > 0)
                    {
                        html.Append("<pre>").Append(Escape(string.Join("\n", error.Details))).Append("</pre>");
                    }

                    html.Append("</div>");
                    break;
            }
        }

        html.Append("</div>");
    }

    private static void AppendDisplay(StringBuilder html, DisplayOutput display)
    {
        var data = display.Data;
        if (data.TryGetValue("text/html", out var markup))
        {
            // Trusted: the helpers' own views (tables, charts with their scripts, assembly listings). The
            // page carries plotly.js once in its head, so an output's own copy of it is dropped.
            html.Append("<div class=\"output-html\">").Append(PlotlyAsset.WithoutLoader(markup)).Append("</div>");
        }
        else if (data.TryGetValue("image/svg+xml", out var svg))
        {
            html.Append("<img class=\"output-image\" alt=\"chart\" src=\"data:image/svg+xml;base64,").Append(Convert.ToBase64String(Encoding.UTF8.GetBytes(svg))).Append("\">");
        }
        else if (data.TryGetValue("image/png", out var png))
        {
            // nbformat stores PNGs base64-encoded already; whitespace from line splitting is dropped.
            html.Append("<img class=\"output-image\" alt=\"chart\" src=\"data:image/png;base64,").Append(Escape(string.Concat(png.Where(c => !char.IsWhiteSpace(c))))).Append("\">");
        }
        else if (data.TryGetValue("text/plain", out var plain))
        {
            html.Append("<pre class=\"plain\">").Append(Escape(plain)).Append("</pre>");
        }
        else
        {
            foreach (var (mime, content) in data)
            {
                html.Append("<pre class=\"plain\" title=\"").Append(Escape(mime)).Append("\">").Append(Escape(content)).Append("</pre>");
            }
        }
    }
}
