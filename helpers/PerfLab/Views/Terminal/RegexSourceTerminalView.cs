using System.Text;
using PerfLab.GeneratedRegexSource;

namespace PerfLab.Views.Terminal;

/// <summary>
/// The terminal view of a <see cref="RegexSourceReport"/>: the summaries on top, then per part the lines
/// once where runtimes agree; where they differ, the explanation in two columns side by side ("!" marks a
/// changed line, as the asm view) and the C# as a unified diff ("-" old, "+" new: two columns of C# do not
/// fit a terminal without cutting lines).
/// </summary>
public static class RegexSourceTerminalView
{
    private const int MaxColumn = 64;

    /// <summary>Renders the report; with <paramref name="full"/>, each distinct generated file follows.</summary>
    /// <param name="report">The report.</param>
    /// <param name="full">Also print the whole file each runtime's generator wrote (once per group of identical files).</param>
    public static string Render(RegexSourceReport report, bool full = false)
    {
        ArgumentNullException.ThrowIfNull(report);
        var text = new StringBuilder();
        text.AppendLine($"C# generated for {report.Attribute} · {string.Join(", ", report.Runtimes.Select((r, i) => $"{r.Runtime} ({(i == 0 ? "generator " : "")}{r.GeneratorVersion})"))}");
        foreach (var summary in report.Summaries())
        {
            text.AppendLine("  " + summary);
        }

        foreach (var (runtimes, remark) in report.Remarks())
        {
            text.AppendLine($"  {runtimes}: {remark}");
        }

        foreach (var part in report.Parts())
        {
            text.AppendLine();
            text.AppendLine($"── {part.Name}{(part.Name == RegexPart.HelpersName ? " (the members of the generated Utilities class the two methods use)" : "")}");
            AppendPart(text, part);
        }

        if (full)
        {
            foreach (var (runtimes, file) in report.Files())
            {
                text.AppendLine();
                text.AppendLine($"── Generated file on {string.Join(", ", runtimes)} ({file.Split('\n').Length} lines)");
                text.AppendLine(file.TrimEnd('\n'));
            }
        }

        return text.ToString();
    }

    private static void AppendPart(StringBuilder text, RegexPartView part)
    {
        var written = part.Groups.Where(g => g.Lines.Count > 0).ToArray();
        foreach (var group in part.Groups.Where(g => g.Lines.Count == 0))
        {
            text.AppendLine($"   {group.Label}: not generated");
        }

        if (written.Length == 0)
        {
            return;
        }

        if (written.Length == 1)
        {
            text.AppendLine($"   {(part.Groups.Count == 1 ? "same on " : "")}{written[0].Label} ({written[0].Lines.Count} {(written[0].Lines.Count == 1 ? "line" : "lines")}):");
            foreach (var line in written[0].Lines)
            {
                text.AppendLine(Indent(line));
            }

            return;
        }

        text.AppendLine("   " + string.Join("; ", written.Select(g => g.Description)));
        for (var i = 1; i < written.Length; i++)
        {
            var (left, right) = (written[i - 1], written[i]);
            var rows = RegexSourceDiff.Align(left.Lines, right.Lines);
            text.AppendLine();
            if (part.IsCode)
            {
                Unified(text, left.Label, right.Label, rows);
            }
            else
            {
                SideBySide(text, left.Label, right.Label, rows);
            }
        }
    }

    private static void SideBySide(StringBuilder text, string leftLabel, string rightLabel, IReadOnlyList<DiffLine> rows)
    {
        var width = Math.Min(MaxColumn, rows.Select(r => r.Left?.Length ?? 0).Append(leftLabel.Length).Max());
        text.AppendLine("  " + Fit(leftLabel, width) + " │ " + rightLabel);
        foreach (var row in rows)
        {
            text.AppendLine(((row.Changed ? "! " : "  ") + Fit(row.Left ?? "", width) + " │ " + row.Right).TrimEnd());
        }
    }

    // A changed run prints its old lines, then its new ones, as git does.
    private static void Unified(StringBuilder text, string leftLabel, string rightLabel, IReadOnlyList<DiffLine> rows)
    {
        text.AppendLine($"   --- {leftLabel}");
        text.AppendLine($"   +++ {rightLabel}");
        for (var i = 0; i < rows.Count;)
        {
            if (!rows[i].Changed)
            {
                text.AppendLine(("     " + rows[i++].Left).TrimEnd());
                continue;
            }

            var run = rows.Skip(i).TakeWhile(r => r.Changed).ToArray();
            foreach (var old in run.Where(r => r.Left is not null))
            {
                text.AppendLine(("   - " + old.Left).TrimEnd());
            }

            foreach (var @new in run.Where(r => r.Right is not null))
            {
                text.AppendLine(("   + " + @new.Right).TrimEnd());
            }

            i += run.Length;
        }
    }

    private static string Indent(string line) => line.Length == 0 ? "" : "   " + line;

    private static string Fit(string text, int width) => text.Length > width ? text[..(width - 1)] + "…" : text.PadRight(width);
}
