using System.Text;
using PerfLab.Contract;
using PerfLab.Runtimes;
using static PerfLab.Views.Html.HtmlText;

namespace PerfLab.Notebooks;

/// <summary>A runtime the course measures and how this machine has it.</summary>
/// <param name="Moniker">net8.0, net9.0, net10.0.</param>
/// <param name="Version">The pinned patch version.</param>
/// <param name="Source">Installed, provisioned, or provisioned on first use.</param>
public sealed record LabRuntime(string Moniker, string Version, RuntimeSource Source);

/// <summary>What the setup cell shows: helpers, kernel, mode and runtimes.</summary>
/// <param name="HelpersVersion">The helpers' assembly version.</param>
/// <param name="Kernel">Which kernel runs the notebook.</param>
/// <param name="Mode">The benchmark mode in effect.</param>
/// <param name="ModeSource">Where the mode came from: --mode, PERFLAB_MODE or default.</param>
/// <param name="Runtimes">The runtimes and their state.</param>
public sealed record LabInfo(string HelpersVersion, string Kernel, BenchmarkMode Mode, string ModeSource, IReadOnlyList<LabRuntime> Runtimes)
{
    /// <summary>Lines of text.</summary>
    public override string ToString()
    {
        var text = new StringBuilder();
        text.AppendLine($"PerfLab helpers {HelpersVersion} in the {Kernel}.");
        text.AppendLine(new ModeChoice(Mode, ModeSource).Line);
        foreach (var runtime in Runtimes)
        {
            text.AppendLine($"  {runtime.Moniker,-8} {runtime.Version,-8} {runtime.Source.Describe()}");
        }

        return text.ToString();
    }

    /// <summary>The same as a small HTML block.</summary>
    public string ToHtml()
    {
        var html = new StringBuilder("<div class=\"perflab-setup\" style=\"font-family: system-ui, sans-serif; font-size: 13px;\">");
        html.Append("<p>PerfLab helpers ").Append(Escape(HelpersVersion)).Append(" in the ").Append(Escape(Kernel)).Append(".<br>");
        html.Append("<b>Mode: ").Append(Escape(ModeChoice.Name(Mode))).Append("</b> (").Append(Escape(ModeSource)).Append("). ").Append(Escape(Capitalized(ModeChoice.Meaning(Mode)) + ".")).Append("</p>");
        html.Append("<table><thead><tr><th style=\"text-align:left\">Runtime</th><th style=\"text-align:left\">Version</th><th style=\"text-align:left\">On this machine</th></tr></thead><tbody>");
        foreach (var runtime in Runtimes)
        {
            html.Append("<tr><td>").Append(Escape(runtime.Moniker)).Append("</td><td>").Append(Escape(runtime.Version)).Append("</td><td>").Append(Escape(runtime.Source.Describe())).Append("</td></tr>");
        }

        return html.Append("</tbody></table></div>").ToString();
    }

    private static string Capitalized(string text) => char.ToUpperInvariant(text[0]) + text[1..];
}
