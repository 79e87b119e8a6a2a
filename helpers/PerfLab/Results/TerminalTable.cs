using System.Text;

namespace PerfLab.Results;

/// <summary>Renders a run as BenchmarkDotNet's console table, with an environment line and the warnings below.</summary>
public static class TerminalTable
{
    /// <summary>The whole text block: environment line, table, errors, warnings.</summary>
    /// <param name="run">The run.</param>
    public static string Render(BenchmarkRun run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var text = new StringBuilder();
        text.AppendLine(EnvironmentLine(run));
        text.AppendLine();

        var parameterNames = run.Results.SelectMany(r => r.Parameters.Select(p => p.Name)).Distinct().ToArray();
        var showType = run.Results.Select(r => r.Type).Distinct().Count() > 1;
        var showGen1 = run.Results.Any(r => r.Gen1 > 0);
        var showGen2 = run.Results.Any(r => r.Gen2 > 0);

        var columns = new List<(string Header, bool RightAligned, Func<BenchmarkResult, string> Cell)>();
        if (showType)
        {
            columns.Add(("Type", false, r => ShortName(r.Type)));
        }

        columns.Add(("Method", false, r => r.Method));
        columns.Add(("Runtime", false, r => r.Runtime));
        foreach (var name in parameterNames)
        {
            columns.Add((name, true, r => r.Parameters.FirstOrDefault(p => p.Name == name)?.Value ?? "?"));
        }

        columns.Add(("Mean", true, r => r.Statistics is { } s ? Format.Time(s.Mean) : "NA"));
        columns.Add(("Error", true, r => r.Statistics is { N: > 1 } s ? Format.Time(s.Error) : "NA"));
        columns.Add(("StdDev", true, r => r.Statistics is { N: > 1 } s ? Format.Time(s.StdDev) : "NA"));
        columns.Add(("Median", true, r => r.Statistics is { } s ? Format.Time(s.Median) : "NA"));
        columns.Add(("Ratio", true, r => r.Statistics is null ? "NA" : Format.Ratio(r.Ratio)));
        columns.Add(("Gen0", true, r => Format.Collections(r.Gen0)));
        if (showGen1)
        {
            columns.Add(("Gen1", true, r => Format.Collections(r.Gen1)));
        }

        if (showGen2)
        {
            columns.Add(("Gen2", true, r => Format.Collections(r.Gen2)));
        }

        columns.Add(("Allocated", true, r => r.Statistics is null ? "NA" : Format.Bytes(r.AllocatedBytes)));
        columns.Add(("Alloc Ratio", true, r => r.Statistics is null ? "NA" : r.AllocRatio is null && (r.AllocatedBytes ?? 0) == 0 ? "NA" : Format.Ratio(r.AllocRatio)));

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

        text.AppendLine();
        text.AppendLine(run.Baseline == "method"
            ? "Ratio: mean / the baseline method's mean on the same runtime."
            : $"Ratio: mean / the same benchmark's mean on {run.Baseline.Replace("runtime:", "", StringComparison.Ordinal)}.");
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
        return $"mode {run.Mode.ToString().ToLowerInvariant()} · {runtimes} · {run.Machine.Os.Trim()} {run.Machine.Architecture}, {run.Machine.ProcessorCount} CPUs{env} · {freshness}";
    }

    private static string ShortName(string fullName) => fullName[(fullName.LastIndexOf('.') + 1)..];
}
