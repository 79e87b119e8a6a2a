using System.Text;
using PerfLab.Results;

namespace PerfLab.Views.Terminal;

/// <summary>Renders a run as BenchmarkDotNet's console table, with an environment line and the warnings below.</summary>
internal static class TerminalTable
{
    /// <summary>The whole text block: environment line, table, errors, warnings.</summary>
    /// <param name="run">The run.</param>
    public static string Render(BenchmarkRun run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var text = new StringBuilder();
        text.AppendLine(EnvironmentLine(run));
        text.AppendLine();

        var columns = ResultColumns.For(run);
        var cells = run.Results.Select(r => columns.Select(c => c.Cell(r)).ToArray()).ToArray();
        var widths = columns.Select((c, i) => Math.Max(c.Header.Length, cells.Length == 0 ? 0 : cells.Max(row => row[i].Length))).ToArray();

        string Line(IReadOnlyList<string> values) =>
            "| " + string.Join(" | ", values.Select((v, i) => columns[i].RightAligned ? v.PadLeft(widths[i]) : v.PadRight(widths[i]))) + " |";

        text.AppendLine(Line(columns.Select(c => c.Header).ToArray()));
        text.AppendLine("|" + string.Join("|", widths.Select((w, i) => new string('-', w + 1) + (columns[i].RightAligned ? ":" : "-"))) + "|");
        foreach (var row in cells)
        {
            text.AppendLine(Line(row));
        }

        var failures = run.Results.Where(r => r.Error is not null).ToArray();
        if (failures.Length > 0)
        {
            text.AppendLine();
            text.AppendLine("Errors:");
            foreach (var r in failures)
            {
                text.AppendLine($"  {r.DisplayName} on {r.Runtime}: {r.Error!.Replace("\n", "\n    ", StringComparison.Ordinal)}");
            }
        }

        var warnings = run.Warnings.Concat(run.Results.SelectMany(r => r.Warnings.Select(w => $"{r.DisplayName} on {r.Runtime}: {w}"))).ToArray();
        if (warnings.Length > 0)
        {
            text.AppendLine();
            text.AppendLine("Warnings:");
            foreach (var warning in warnings)
            {
                text.AppendLine("  " + warning);
            }
        }

        var published = ResultColumns.PublishedLines(run);
        if (published.Count > 0)
        {
            text.AppendLine();
            foreach (var line in published)
            {
                text.AppendLine(line);
            }
        }

        text.AppendLine();
        text.AppendLine(ResultColumns.RatioLegend(run));
        return text.ToString();
    }

    /// <summary>"mode quick · net8.0 8.0.31 (provisioned) ... · Linux X64, 2 CPUs · fresh".</summary>
    /// <param name="run">The run.</param>
    public static string EnvironmentLine(BenchmarkRun run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var runtimes = string.Join(", ", run.Runtimes.Select(r => $"{r.Moniker} {r.Version} ({r.Source}{(r.Cached ? ", cached" : "")})"));
        var env = run.Environment.Count == 0 ? "" : " · env " + string.Join(" ", run.Environment.Select(e => $"{e.Key}={e.Value}"));
        var freshness = run.Cached ? "cached result (use --force to re-run)" : run.Runtimes.Any(r => r.Cached) ? "partly cached" : "fresh";
        return $"mode {ModeChoice.Name(run.Mode)} · {runtimes} · {run.Machine.Os.Trim()} {run.Machine.Architecture}, {run.Machine.ProcessorCount} CPUs{env} · {freshness}";
    }

}
