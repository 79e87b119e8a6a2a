using System.Text;
using PerfLab.Disassembly;

namespace PerfLab.Views.Terminal;

/// <summary>
/// The terminal view of an <see cref="AsmReport"/>: the one-line summaries on top, then per method the
/// code once where runtimes agree, or two columns side by side where they differ ("!" marks a changed line);
/// the lead listing (<see cref="AsmReport.Methods"/>) first, marked with why.
/// </summary>
internal static class AsmTerminalView
{
    private const int Column = 52;

    /// <summary>Renders the report.</summary>
    /// <param name="report">The report.</param>
    public static string Render(AsmReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        var text = new StringBuilder();
        text.AppendLine($"asm of {report.Method} · {report.Variant} · {string.Join(", ", report.Runtimes.Select(r => $"{r.Runtime} {r.Version}"))}");
        foreach (var summary in report.Summaries())
        {
            text.AppendLine("  " + summary);
        }

        var methods = report.Methods();
        foreach (var method in methods)
        {
            text.AppendLine();
            text.AppendLine($"── {method.Method}" + (method.Lead && methods.Count > 1 ? LeadMark(report, method) : ""));
            foreach (var group in method.Groups)
            {
                text.AppendLine($"   {group.Label}: {group.Description}; {group.Counts}");
            }

            if (method.Groups.Count == 1)
            {
                text.AppendLine($"   same code on {method.Groups[0].Label}:");
                foreach (var line in method.Groups[0].Listing.Lines)
                {
                    text.AppendLine(Indent(line));
                }

                continue;
            }

            for (var i = 1; i < method.Groups.Count; i++)
            {
                var (left, right) = (method.Groups[i - 1], method.Groups[i]);
                text.AppendLine();
                text.AppendLine("  " + Fit(left.Label, Column) + " │ " + right.Label);
                foreach (var row in AsmDiff.Align(left.Listing, right.Listing))
                {
                    text.AppendLine((row.Changed ? "! " : "  ") + Fit(Indent(row.Left), Column) + " │ " + Indent(row.Right));
                }
            }
        }

        foreach (var runtime in report.Runtimes)
        {
            foreach (var missing in runtime.NotCompiled)
            {
                text.AppendLine($"{missing} on {runtime.Runtime}: no code of its own (inlined into its callers, or never called).");
            }
        }

        return text.ToString();
    }

    // Why this listing comes first; the HTML view opens it instead.
    private static string LeadMark(AsmReport report, AsmMethodView method) =>
        report.Open is not null ? "  ◀ first: named to open" : $"  ◀ first: its code differs most between runtimes ({method.ChangedLines} lines changed)";

    private static string Indent(string? line) => line is null ? "" : line.EndsWith(':') ? line : "  " + line;

    private static string Fit(string text, int width) => text.Length > width ? text[..(width - 1)] + "…" : text.PadRight(width);
}
