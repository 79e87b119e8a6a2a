using System.Text;
using PerfLab.Runtimes;
using static PerfLab.Views.Html.HtmlText;

namespace PerfLab.Notebooks.Views;

/// <summary>The setup cell's output (<see cref="LabInfo"/>) as HTML, for the kernels and the reports.</summary>
internal static class LabInfoHtml
{
    /// <summary>The setup cell's block: helpers, kernel, mode and a table of the runtimes.</summary>
    public static string Render(LabInfo info)
    {
        var html = new StringBuilder("<div class=\"perflab-setup\" style=\"font-family: system-ui, sans-serif; font-size: 13px;\">");
        html.Append("<p>PerfLab helpers ").Append(Escape(info.HelpersVersion)).Append(" in the ").Append(Escape(info.Kernel)).Append(".<br>");
        html.Append("<b>Mode: ").Append(Escape(ModeChoice.Name(info.Mode))).Append("</b> (").Append(Escape(info.ModeSource)).Append("). ").Append(Escape(Capitalized(ModeChoice.Meaning(info.Mode)) + ".")).Append("</p>");
        html.Append("<table><thead><tr><th style=\"text-align:left\">Runtime</th><th style=\"text-align:left\">Version</th><th style=\"text-align:left\">On this machine</th></tr></thead><tbody>");
        foreach (var runtime in info.Runtimes)
        {
            html.Append("<tr><td>").Append(Escape(runtime.Moniker)).Append("</td><td>").Append(Escape(runtime.Version)).Append("</td><td>").Append(Escape(runtime.Source.Describe())).Append("</td></tr>");
        }

        return html.Append("</tbody></table></div>").ToString();
    }

    private static string Capitalized(string text) => char.ToUpperInvariant(text[0]) + text[1..];
}
