using System.Globalization;
using System.Text;
using PerfLab.Results;

namespace PerfLab.Views.Terminal;

/// <summary>The terminal view of <see cref="BreakEven"/>: one line per runtime, then the runtimes left out.</summary>
internal static class BreakEvenTerminalView
{
    /// <summary>Renders the points.</summary>
    /// <param name="breakEven">The points.</param>
    public static string Render(BreakEven breakEven)
    {
        ArgumentNullException.ThrowIfNull(breakEven);
        var text = new StringBuilder($"When {breakEven.Prepared.Name} pays off against {breakEven.Plain.Name} (build once, then read):").AppendLine();
        foreach (var p in breakEven.Points)
        {
            text.Append(CultureInfo.InvariantCulture, $"  {p.Runtime}: build {QuantityText.Time(p.PlainBuild)} vs {QuantityText.Time(p.PreparedBuild)}, read {QuantityText.Time(p.PlainRead)} vs {QuantityText.Time(p.PreparedRead)}: ")
                .AppendLine(breakEven.Verdict(p));
        }

        foreach (var s in breakEven.Skipped)
        {
            text.AppendLine("  skipped " + s);
        }

        return text.ToString();
    }
}
