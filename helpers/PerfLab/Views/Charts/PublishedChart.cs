using System.Text.Json.Nodes;
using PerfLab.Results;

namespace PerfLab.Views.Charts;

/// <summary>The chart of a run's cases that reproduce a post's figure: the post's ratio, the reference machines' and the reader's.</summary>
internal static class PublishedChart
{
    /// <summary>
    /// For cases that reproduce a published figure: the post's ratio beside the ratio measured here (the
    /// newer runtime over the older one, or the new idiom over the old on one runtime), so the reader
    /// sees whether the improvement reproduces on their machine; the measured ratio's 95% interval as its error bars,
    /// and a reference machine's (across its processes, or from one process's iterations) as its own.
    /// </summary>
    /// <param name="run">The run.</param>
    /// <returns>The chart, or null when no case can be compared with a published ratio.</returns>
    public static ChartSpec? For(BenchmarkRun run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var labels = new JsonArray();
        var published = new JsonArray();
        var yours = new JsonArray();
        var yoursBars = new List<(double Minus, double Plus)?>();
        var who = run.MeasuredBy ?? "yours";
        var hover = new JsonArray();
        var references = new List<IReadOnlyList<ReferenceMeasurement>>();
        foreach (var group in run.Results.Where(r => r.Published is { Ratio: not null }).GroupBy(r => r.CaseKey))
        {
            var figure = group.First().Published!;
            var (before, after) = (figure.Before!, figure.After!);
            double? mine = null;
            RatioInterval? interval;
            string compared;
            string shown;
            if (figure.Kind == "runtimes")
            {
                var oldRow = group.FirstOrDefault(r => r.Runtime == before.Runtime);
                var recentRow = group.FirstOrDefault(r => r.Runtime == after.Runtime);
                if (oldRow?.Statistics is not { } old || recentRow?.Statistics is not { } recent)
                {
                    continue; // the post's runtimes (e.g. .NET Core 2.1 and 3.0) are not in this run
                }

                mine = recent.Mean / old.Mean;
                interval = RatioInterval.Between(recentRow, oldRow, run.Mode);
                compared = $"{after.Runtime} / {before.Runtime}";
                shown = $"{who}: {QuantityText.Time(old.Mean)} -> {QuantityText.Time(recent.Mean)}";
            }
            else
            {
                // The new idiom against the old on the same runtime: this case over the run's baseline method, on the
                // runtime the post measured when the run has it (else the newest), so like is drawn beside like.
                var rows = group.Where(r => !r.IsBaseline && r.Statistics is not null).ToList();
                var row = rows.FirstOrDefault(r => r.Runtime == after.Runtime) ?? rows.LastOrDefault();
                var baseline = row is null ? null : run.Results.FirstOrDefault(r => r.IsBaseline && r.Runtime == row.Runtime && r.Type == row.Type && r.Statistics is not null);
                if (row is null || baseline is null)
                {
                    continue;
                }

                mine = row.Statistics!.Mean / baseline.Statistics!.Mean;
                interval = RatioInterval.Between(row, baseline, run.Mode);
                compared = $"{after.Method} / {before.Method}";
                shown = $"{who} on {row.Runtime}: {QuantityText.Time(baseline.Statistics.Mean)} -> {QuantityText.Time(row.Statistics.Mean)}";
            }

            // An old-vs-new figure compares the post's method names, often long: they go to the hover text, so the
            // axis keeps short labels that plotly does not have to tilt.
            labels.Add(figure.Kind == "runtimes" ? $"{group.First().DisplayName} ({figure.Id}, {compared})" : $"{group.First().DisplayName} ({figure.Id})");
            published.Add(BenchmarkCharts.Number(figure.Ratio));
            yours.Add(BenchmarkCharts.Number(mine));
            yoursBars.Add(BenchmarkCharts.Bar(mine, interval));
            hover.Add($"{figure.Post}{(figure.Kind == "runtimes" ? "" : $", {compared}")}: {QuantityText.Time(before.MeanNs)} -> {QuantityText.Time(after.MeanNs)}; {shown}");
            references.Add(ReferenceRuns.For(figure, run.Code));
        }

        if (labels.Count == 0)
        {
            return null;
        }

        JsonObject Trace(string name, JsonArray y, string color) => new()
        {
            ["type"] = "bar",
            ["name"] = name,
            ["x"] = labels.DeepClone(),
            ["y"] = y,
            ["text"] = hover.DeepClone(),
            ["textposition"] = "none",
            ["hovertemplate"] = "%{x}<br>%{y:.3f}<br>%{text}<extra></extra>",
            ["marker"] = new JsonObject { ["color"] = color },
        };

        var traces = new JsonArray(Trace("published (the post's machine)", published, "#bab0ac"));
        var yoursIsAReference = false;
        foreach (var (machine, index) in references.SelectMany(r => r).Select(m => m.Machine).Distinct().Select((m, i) => (m, i)))
        {
            var measured = references.Select(r => r.FirstOrDefault(m => m.Machine == machine)).ToArray();
            var ratios = new JsonArray(measured.Select(m => BenchmarkCharts.Number(m?.Ratio)).ToArray());
            var trace = Trace($"reference ({machine})", ratios, BenchmarkCharts.Palette[(index + 3) % BenchmarkCharts.Palette.Length]);
            if (measured.Any(m => m?.Interval is not null))
            {
                trace["error_y"] = BenchmarkCharts.ErrorBars(measured.Select(m => BenchmarkCharts.Bar(m?.Ratio, m?.Interval)));
            }

            traces.Add(trace);
            yoursIsAReference |= JsonNode.DeepEquals(ratios, yours);
        }

        // The course site shows the reference run itself: the same bars twice would read as a second machine agreeing.
        if (!yoursIsAReference)
        {
            var trace = Trace(run.MeasuredBy ?? "yours (this machine)", yours, BenchmarkCharts.Palette[2]);
            if (yoursBars.Any(b => b is not null))
            {
                trace["error_y"] = BenchmarkCharts.ErrorBars(yoursBars);
            }

            traces.Add(trace);
        }

        var figureJson = BenchmarkCharts.Figure(traces, "Ratio newer / older runtime", log: false);
        return new ChartSpec("published", run.MeasuredBy is null ? "Published vs yours" : "Published vs the reference run", figureJson);
    }
}
