using System.Text;
using PerfLab.Disassembly;
using static PerfLab.Views.Html.HtmlText;

namespace PerfLab.Views.Html;

/// <summary>The HTML view of <see cref="InstructionSets"/>: a feature-by-runtime table, yes and no colored.</summary>
internal static class InstructionSetsHtml
{
    private const string Style = """
        .perflab-isa table { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: 12px; margin: 0.5em 0 1em; }
        .perflab-isa th, .perflab-isa td { text-align: left; padding: 2px 10px; border-bottom: 1px solid #8883; }
        .perflab-isa td.yes { background: #30a46c33; }
        .perflab-isa td.no { background: #e5484d22; }
        .perflab-isa .counts { color: #888; font-size: 12px; }
        """;

    /// <summary>An HTML fragment (a div with its own style).</summary>
    /// <param name="sets">The probe's answers.</param>
    public static string Fragment(InstructionSets sets)
    {
        ArgumentNullException.ThrowIfNull(sets);
        var html = new StringBuilder(Open("perflab-isa", Style));
        html.Append("<p class=\"counts\">Instruction sets the JIT uses on this machine")
            .Append(sets.Environment.Count > 0 ? " with " + Escape(string.Join(", ", sets.Environment)) : "")
            .Append(" (read from each runtime's compiled code)</p>");
        html.Append("<table><tr><th>Feature</th>");
        foreach (var runtime in sets.Runtimes)
        {
            html.Append("<th>").Append(Escape(runtime)).Append("</th>");
        }

        html.Append("</tr>");
        foreach (var row in sets.Rows)
        {
            html.Append("<tr><td>").Append(Escape(row.Feature)).Append("</td>");
            foreach (var cell in row.Cells)
            {
                html.Append("<td class=\"").Append(row.IsCount ? "count" : cell).Append("\">").Append(Escape(cell)).Append("</td>");
            }

            html.Append("</tr>");
        }

        return html.Append("</table></div>").ToString();
    }
}
