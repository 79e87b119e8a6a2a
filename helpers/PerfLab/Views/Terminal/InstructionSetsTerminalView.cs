using System.Text;
using PerfLab.Disassembly;

namespace PerfLab.Views.Terminal;

/// <summary>The terminal view of <see cref="InstructionSets"/>: a heading, then a feature-by-runtime table.</summary>
internal static class InstructionSetsTerminalView
{
    /// <summary>Renders the table.</summary>
    /// <param name="sets">The probe's answers.</param>
    public static string Render(InstructionSets sets)
    {
        ArgumentNullException.ThrowIfNull(sets);
        var heading = "Instruction sets the JIT uses" + (sets.Environment.Count > 0 ? $" with {string.Join(", ", sets.Environment)}" : "");
        var width = Math.Max("Feature".Length, sets.Rows.Max(r => r.Feature.Length));
        var columns = sets.Runtimes.Select(r => r.Split(' ')[0]).ToArray();
        var text = new StringBuilder(heading).Append('\n');
        text.Append("Feature".PadRight(width)).Append(string.Concat(columns.Select(c => " | " + c.PadRight(7)))).Append('\n');
        foreach (var row in sets.Rows)
        {
            text.Append(row.Feature.PadRight(width)).Append(string.Concat(row.Cells.Select(c => " | " + c.PadRight(7)))).Append('\n');
        }

        return text.ToString();
    }
}
