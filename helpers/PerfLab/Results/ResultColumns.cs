using System.Globalization;
using PerfLab.Contract;

namespace PerfLab.Results;

/// <summary>A column of the results table, as BenchmarkDotNet names it.</summary>
/// <param name="Header">BenchmarkDotNet's column name.</param>
/// <param name="RightAligned">Numbers are right-aligned.</param>
/// <param name="Cell">The cell text of a row, units scaled.</param>
/// <param name="Wraps">The text may break across lines where a page is narrow (a ratio with its interval is long).</param>
internal sealed record ResultColumn(string Header, bool RightAligned, Func<BenchmarkResult, string> Cell, bool Wraps = false);

/// <summary>The columns of a run's table: one definition for the terminal and the HTML views.</summary>
internal static class ResultColumns
{
    /// <summary>Type (when several classes), Method, Runtime, each parameter, then the statistics; Gen1/Gen2 only when non-zero.</summary>
    /// <param name="run">The run.</param>
    /// <param name="fastestUnderRatio">The fastest ratio as a second line of the Ratio cell ("fastest: 0.34 (0.31–0.37)",
    /// after a line break; none under a baseline row) instead of a column of its own: a page is narrower than a terminal.</param>
    public static IReadOnlyList<ResultColumn> For(BenchmarkRun run, bool fastestUnderRatio = false)
    {
        ArgumentNullException.ThrowIfNull(run);
        var columns = new List<ResultColumn>();
        if (run.Results.Select(r => r.Type).Distinct().Count() > 1)
        {
            columns.Add(new("Type", false, r => r.Type[(r.Type.LastIndexOf('.') + 1)..]));
        }

        columns.Add(new("Method", false, r => r.Method));
        columns.Add(new("Runtime", false, r => r.Runtime));
        foreach (var name in run.Results.SelectMany(r => r.Parameters.Select(p => p.Name)).Distinct())
        {
            columns.Add(new(name, true, r => r.Parameters.FirstOrDefault(p => p.Name == name)?.Value ?? "?"));
        }

        columns.Add(new("Mean", true, r => r.Statistics is { } s ? QuantityText.Time(s.Mean) : "NA"));
        columns.Add(new("Error", true, r => r.Statistics is { N: > 1 } s ? QuantityText.Time(s.Error) : "NA"));
        columns.Add(new("StdDev", true, r => r.Statistics is { N: > 1 } s ? QuantityText.Time(s.StdDev) : "NA"));
        columns.Add(new("Median", true, r => r.Statistics is { } s ? QuantityText.Time(s.Median) : "NA"));
        var hasFastest = run.Results.Any(r => r.FastestRatio is not null);
        columns.Add(fastestUnderRatio && hasFastest
            ? new("Ratio", true, r => r.Statistics is null || IsBaselineRow(run, r) ? RatioCell(r) : $"{RatioCell(r)}\nfastest: {FastestRatioCell(r)}", Wraps: true)
            : new("Ratio", true, RatioCell, Wraps: true));
        if (hasFastest && !fastestUnderRatio)
        {
            columns.Add(new(FastestHeader, true, FastestRatioCell, Wraps: true));
        }

        columns.Add(new("Gen0", true, r => QuantityText.Collections(r.Gen0)));
        if (run.Results.Any(r => r.Gen1 > 0))
        {
            columns.Add(new("Gen1", true, r => QuantityText.Collections(r.Gen1)));
        }

        if (run.Results.Any(r => r.Gen2 > 0))
        {
            columns.Add(new("Gen2", true, r => QuantityText.Collections(r.Gen2)));
        }

        columns.Add(new("Allocated", true, r => r.Statistics is null ? "NA" : QuantityText.Bytes(r.AllocatedBytes)));
        columns.Add(new("Alloc Ratio", true, r => r.Statistics is null ? "NA" : r.AllocRatio is null && (r.AllocatedBytes ?? 0) == 0 ? "NA" : QuantityText.Ratio(r.AllocRatio)));
        return columns;
    }

    /// <summary>Whether <paramref name="row"/> is what the run's ratios compare against: the baseline method, or the baseline runtime's row.</summary>
    /// <param name="run">The run.</param>
    /// <param name="row">One of its rows.</param>
    public static bool IsBaselineRow(BenchmarkRun run, BenchmarkResult row) =>
        run.Baseline == "method" ? row.IsBaseline : run.Baseline == "runtime:" + row.Runtime;

    /// <summary>
    /// The Ratio cell: "0.63 (0.58–0.69)" with its 95% interval, "no clear difference (0.91–1.07)" where the interval
    /// holds 1, the bare ratio where there is no interval (smoke mode, the baseline itself), "NA" for a failed case.
    /// </summary>
    /// <param name="row">The row.</param>
    public static string RatioCell(BenchmarkResult row)
    {
        ArgumentNullException.ThrowIfNull(row);
        return row.Statistics is null ? "NA" : WithInterval(row.Ratio, row.RatioInterval);
    }

    /// <summary>The column of <see cref="BenchmarkResult.FastestRatio"/>.</summary>
    public const string FastestHeader = "Fastest ratio";

    /// <summary>The Fastest ratio cell, written as <see cref="RatioCell"/> writes the ratio of means.</summary>
    /// <param name="row">The row.</param>
    public static string FastestRatioCell(BenchmarkResult row)
    {
        ArgumentNullException.ThrowIfNull(row);
        return row.Statistics is null ? "NA" : WithInterval(row.FastestRatio, row.FastestRatioInterval);
    }

    private static string WithInterval(double? ratio, RatioInterval? interval)
    {
        if (interval is null)
        {
            return QuantityText.Ratio(ratio);
        }

        var range = $"({QuantityText.Ratio(interval.Low)}–{QuantityText.Ratio(interval.High)})";
        return interval.HoldsOne ? "no clear difference " + range : $"{QuantityText.Ratio(ratio)} {range}";
    }

    /// <summary>
    /// Lines for the comparisons the run's cases name: the post's numbers with the PR behind them, then what
    /// each reference machine measured (or that none has), then any problem with the data files.
    /// </summary>
    /// <param name="run">The run.</param>
    public static IReadOnlyList<string> PublishedLines(BenchmarkRun run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return run.Results.Select(r => r.Published).OfType<PublishedComparison>().Where(p => !p.IsBaselineItself).Distinct()
            .SelectMany(p => new[] { PublishedLine(p) }.Concat(ReferenceLines(p, run.Code)))
            .Concat(PublishedFigures.Problems.Concat(ReferenceRuns.Problems).Select(p => "⚠ " + p)).Distinct().ToArray();
    }

    // What the course's reference machines measured for the same comparison, or that none has yet.
    private static IEnumerable<string> ReferenceLines(PublishedComparison p, string? code)
    {
        if (p.Kind is "asm" or "output" || p.Ratio is null)
        {
            yield break;
        }

        var measured = ReferenceRuns.For(p, code);
        if (measured.Count == 0 && code is not null && ReferenceRuns.For(p).Count > 0)
        {
            yield return $"Reference: no reference machine has measured {p.Id} with this code yet (the cell changed since the reference run; `perflab reference --only-missing` adds it).";
        }
        else if (measured.Count == 0)
        {
            yield return $"Reference: no reference machine has measured {p.Id} yet (data/reference/machines; `perflab reference` adds a machine).";
        }

        foreach (var m in measured)
        {
            // One process per case (the committed file) gives an interval from iterations, which says so.
            var interval = m.Interval switch
            {
                { Kind: IntervalKind.Launches } i => $"{QuantityText.Ratio(i.Low)}–{QuantityText.Ratio(i.High)} across {m.Processes} processes; ",
                { } i => $"{QuantityText.Ratio(i.Low)}–{QuantityText.Ratio(i.High)} within one process; ",
                null => "",
            };
            yield return $"Reference {m.Machine} ({m.Description}): {m.BeforeLabel} {QuantityText.Time(m.Before)} -> {m.AfterLabel} {QuantityText.Time(m.After)}, ratio {QuantityText.Ratio(m.Ratio)} ({interval}published {QuantityText.Ratio(p.Ratio)}).";
        }
    }

    private static string PublishedLine(PublishedComparison p)
    {
        var head = $"Published {p.Id} ({p.Post}, {(p.Pr.Length > 0 ? p.Pr : "no PR named")}): ";
        string Row(PublishedRow r, bool withRuntime) =>
            (withRuntime ? r.Runtime : r.Method) + " " + QuantityText.Time(r.MeanNs) + (r.AllocatedBytes is { } bytes ? ", " + (bytes == 0 ? "0 B" : QuantityText.Bytes(bytes)) : "");
        var hardware = p.Hardware is null ? "" : $" Depends on {p.Hardware}.";
        return (p.Kind, p.Before, p.After) switch
        {
            ("runtimes", { } before, { } after) => head + Row(before, true) + " -> " + Row(after, true) + $" on {p.Machine}.{hardware}",
            ("variants", { } before, { } after) => head + Row(before, false) + " -> " + Row(after, false) + $" on {after.Runtime}, {p.Machine}.{hardware}",
            ("asm", _, _) => head + $"the post showed assembly only: {p.Asm}{hardware}",
            ("output", _, _) => head + $"the post measured with a console program, not a benchmark: {p.Asm}{hardware}",
            _ => head + $"{p.Title}; no row of the post's table matches this case (name the row with [BenchmarkCategory(\"{p.Id}:Method\")]).",
        };
    }

    // "4", or "4 to 6" where quick mode gave some cases more launches.
    private static string LaunchCounts(IEnumerable<int> counts)
    {
        var (fewest, most) = (counts.Min(), counts.Max());
        return fewest == most ? $"{most}" : $"{fewest} to {most}";
    }

    /// <summary>The sentences under the table that say what Ratio compares with and what its interval covers.</summary>
    /// <param name="run">The run.</param>
    public static string RatioLegend(BenchmarkRun run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var byMethod = run.Baseline == "method";
        var legend = byMethod
            ? "Ratio: mean / the baseline method's mean on the same runtime."
            : $"Ratio: mean / the same benchmark's mean on {run.Baseline.Replace("runtime:", "", StringComparison.Ordinal)}.";
        var intervals = run.Results.Select(r => (r.RatioInterval?.Kind, Launches: r.LaunchMeansNs?.Count ?? 0)).Where(k => k.Kind is not null).ToArray();
        if (intervals.Length > 0)
        {
            var covers = intervals.Select(i => i.Kind).Distinct().Order().Select(kind => kind switch
            {
                IntervalKind.Launches => $"across {LaunchCounts(intervals.Where(i => i.Kind == kind).Select(i => i.Launches))} launches (separate processes) of each case on each runtime, so it covers what changes from one process to the next",
                IntervalKind.Rounds => $"across {LaunchCounts(intervals.Where(i => i.Kind == kind).Select(i => i.Launches))} rounds of launches (separate processes), {(byMethod ? "the class's methods on every runtime" : "a case's runtimes")} taking turns in each, so it covers what changes from one process to the next but not what the machine did to a whole round: that fell on every {(byMethod ? "method" : "runtime")} alike",
                _ => "from the iterations within one process of each case on each runtime, which does not cover what changes from one process to the next (code layout, tiering and PGO decisions): the real uncertainty is wider",
            });
            var beyond = run.Mode == BenchmarkMode.Quick
                ? string.Create(CultureInfo.InvariantCulture, $", widened by how far quick mode's short runs stray from full mode's (so never narrower than ±{RatioInterval.QuickFloor:0%})")
                : "";
            legend += string.Create(CultureInfo.InvariantCulture, $" In brackets, its {RatioInterval.Confidence:0%} interval {string.Join("; or ", covers)}{beyond}; \"no clear difference\" where the interval holds 1.");
        }

        legend += FastestLegend(run);

        // A measured row with no ratio: its baseline measured 0 ns (nothing to divide by) or has no time.
        return run.Results.Any(r => r.Statistics is not null && r.Ratio is null)
            ? legend + " ? where the baseline has no time to divide by: it measured 0 ns, or did not run."
            : legend;
    }

    // What the Fastest ratio column compares, and what its interval covers; empty without the column.
    private static string FastestLegend(BenchmarkRun run)
    {
        if (!run.Results.Any(r => r.FastestRatio is not null))
        {
            return "";
        }

        var legend = $" {FastestHeader} (\"fastest\" under Ratio on a page): the same comparison by the fastest iterations (each launch's fastest; of those, the faster half of the launches), the steadier of the two on a busy machine, whose slow phases lengthen whole launches but seldom the fastest iterations.";
        if (run.Results.Any(r => r.FastestRatioInterval is not null))
        {
            legend += run.Mode == BenchmarkMode.Quick
                ? string.Create(CultureInfo.InvariantCulture, $" Its interval is across the same launches, widened by how far quick mode's fastest iterations stray from full mode's (so never narrower than ±{RatioInterval.QuickFastestFloor:0%}).")
                : " Its interval is across the same launches.";
        }

        // A measured row whose fastest iterations cannot be divided (the overhead subtracted was as long as the work).
        return run.Results.Any(r => r.Statistics is not null && r.Ratio is not null && r.FastestRatio is null)
            ? legend + $" ? in {FastestHeader} where a side's fastest iteration measured 0 ns or less once the overhead was subtracted."
            : legend;
    }
}
