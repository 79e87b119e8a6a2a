using System.Globalization;
using System.Text.Json.Nodes;
using PerfLab.Results;

namespace PerfLab.Views.Charts;

/// <summary>A Plotly figure: the JSON given to Plotly.newPlot (data and layout).</summary>
/// <param name="Id">A stable id for the element, e.g. "time".</param>
/// <param name="Title">What the chart shows.</param>
/// <param name="Figure">{ "data": [...], "layout": {...} }.</param>
internal sealed record ChartSpec(string Id, string Title, JsonObject Figure);

/// <summary>
/// The charts of a run, as Plotly figure JSON: mean time per case and runtime with error bars (log axis
/// when values span more than 100x), allocated bytes, and the ratio against the baseline with its interval. Colours are
/// fixed per runtime and readable on light and dark backgrounds.
/// </summary>
internal static class BenchmarkCharts
{
    /// <summary>Values spanning more than this factor get a logarithmic axis.</summary>
    public const double LogAxisSpan = 100;

    internal static readonly string[] Palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1"];

    /// <summary>Every chart that has something to show for <paramref name="run"/>.</summary>
    /// <param name="run">The run.</param>
    public static IReadOnlyList<ChartSpec> For(BenchmarkRun run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var charts = new List<ChartSpec> { Time(run) };
        // Bytes per operation are averaged over the measured calls of a process: a background tier-1 compile can add
        // a byte or two to code that allocates nothing. The smallest object is 24 bytes, so below 8 nothing was.
        if (run.Results.Any(r => r.AllocatedBytes >= 8))
        {
            charts.Add(Allocations(run));
        }

        if (HasRatiosToCompare(run))
        {
            charts.Add(Ratios(run));
        }

        if (PublishedChart.For(run) is { } published)
        {
            charts.Add(published);
        }

        return charts;
    }

    // Against a runtime with only that runtime in the run, or against a baseline method with only that
    // method, every ratio is 1 by construction: no chart then.
    private static bool HasRatiosToCompare(BenchmarkRun run) =>
        run.Results.Any(r => r.Ratio is not null)
        && (run.Baseline == "method" ? run.Results.Select(r => r.CaseKey).Distinct().Count() > 1 : run.Runtimes.Count > 1);

    /// <summary>Mean time per case, one bar per runtime, error bars from BenchmarkDotNet's Error.</summary>
    /// <param name="run">The run.</param>
    public static ChartSpec Time(BenchmarkRun run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var values = run.Results.Where(r => r.Statistics is not null).Select(r => r.Statistics!.Mean).Where(v => v > 0).ToArray();
        var log = values.Length > 0 && values.Max() / values.Min() > LogAxisSpan;

        // One unit for the whole axis, chosen by the largest value, as BenchmarkDotNet does per column.
        var (scale, unit) = (values.Length == 0 ? 0 : values.Max()) switch
        {
            >= 1e9 => (1e9, "s"),
            >= 1e6 => (1e6, "ms"),
            >= 1e3 => (1e3, "μs"),
            _ => (1.0, "ns"),
        };
        // A time is never negative: the bar below stops at zero (on a log axis, short of it).
        var floor = log ? 0.9 : 1.0;
        var traces = Traces(run, r => r.Statistics?.Mean / scale, r => r.Statistics is { N: > 1 } s ? (Math.Min(s.Error, s.Mean * floor) / scale, s.Error / scale) : null);
        return new ChartSpec("time", "Mean time per operation", Figure(traces, $"Mean ({unit} per operation)" + (log ? ", log scale" : ""), log));
    }

    /// <summary>Allocated bytes per operation per case and runtime.</summary>
    /// <param name="run">The run.</param>
    public static ChartSpec Allocations(BenchmarkRun run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return new ChartSpec("allocated", "Allocated bytes per operation", Figure(Traces(run, r => r.AllocatedBytes, _ => null), "Allocated (bytes per operation)", log: false));
    }

    /// <summary>Ratio against the baseline, error bars from its 95% interval, with a line at 1.</summary>
    /// <param name="run">The run.</param>
    public static ChartSpec Ratios(BenchmarkRun run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var against = run.Baseline == "method" ? "the baseline method" : run.Baseline.Replace("runtime:", "", StringComparison.Ordinal);
        var figure = Figure(Traces(run, r => r.Ratio, r => Bar(r.Ratio, r.RatioInterval)), "Ratio against " + against, log: false);
        figure["layout"]!["shapes"] = new JsonArray(new JsonObject
        {
            ["type"] = "line",
            ["xref"] = "paper",
            ["x0"] = 0,
            ["x1"] = 1,
            ["y0"] = 1,
            ["y1"] = 1,
            ["line"] = new JsonObject { ["color"] = "#888", ["dash"] = "dot", ["width"] = 1 },
        });
        return new ChartSpec("ratio", "Ratio against the baseline", figure);
    }

    /// <summary>
    /// Total cost per read (one build spread over its reads, plus a read) against reads per build, both axes
    /// logarithmic: one solid line per runtime for the plain structure, a dashed one for the prepared one, and
    /// a marker where they cross.
    /// </summary>
    /// <param name="breakEven">The points.</param>
    public static ChartSpec BreakEven(BreakEven breakEven)
    {
        ArgumentNullException.ThrowIfNull(breakEven);
        var furthest = breakEven.Points.Select(p => p.Reads ?? 0).DefaultIfEmpty(0).Max();
        var decades = Math.Clamp((int)Math.Ceiling(Math.Log10(Math.Max(furthest, 1) * 20)), 3, 9);
        var reads = Enumerable.Range(0, (decades * 10) + 1).Select(i => Math.Pow(10, i / 10.0)).ToArray();
        var traces = new JsonArray();
        foreach (var (point, index) in breakEven.Points.Select((p, i) => (p, i)))
        {
            var color = Palette[index % Palette.Length];
            foreach (var (side, prepared) in new[] { (breakEven.Plain, false), (breakEven.Prepared, true) })
            {
                traces.Add(new JsonObject
                {
                    ["type"] = "scatter",
                    ["mode"] = "lines",
                    ["name"] = $"{point.Runtime} {side.Name}",
                    ["x"] = new JsonArray(reads.Select(n => Number(n)).ToArray()),
                    ["y"] = new JsonArray(reads.Select(n => Number(point.CostPerRead(prepared, n))).ToArray()),
                    ["line"] = new JsonObject { ["color"] = color, ["dash"] = prepared ? "dash" : "solid", ["width"] = 2 },
                    ["hovertemplate"] = $"{point.Runtime} {side.Name}<br>%{{x:,.0f}} reads per build: %{{y:.4g}} ns per read<extra></extra>",
                });
            }

            if (point.Reads is > 0 and var crossing)
            {
                traces.Add(new JsonObject
                {
                    ["type"] = "scatter",
                    ["mode"] = "markers",
                    ["name"] = $"{point.Runtime} break-even",
                    ["showlegend"] = false,
                    ["x"] = new JsonArray(Number(crossing)),
                    ["y"] = new JsonArray(Number(point.CostPerRead(prepared: true, crossing))),
                    ["marker"] = new JsonObject { ["color"] = color, ["size"] = 10, ["symbol"] = "diamond" },
                    ["hovertemplate"] = $"{point.Runtime}: {breakEven.Verdict(point)}<extra></extra>",
                });
            }
        }

        var figure = Figure(traces, "Cost per read, build included (ns, log scale)", log: true);
        figure["layout"]!["xaxis"] = new JsonObject
        {
            ["type"] = "log",
            ["title"] = new JsonObject { ["text"] = "Reads per build (log scale)" },
            ["gridcolor"] = "rgba(128,128,128,0.25)",
        };
        // Two entries per runtime: the legend needs rows of its own above the plot.
        figure["layout"]!["margin"]!["b"] = 50;
        figure["layout"]!["margin"]!["t"] = 70;
        figure["layout"]!["legend"] = new JsonObject { ["orientation"] = "h", ["yanchor"] = "bottom", ["y"] = 1.02 };
        figure["layout"]!["height"] = 420;
        return new ChartSpec("break-even", $"When {breakEven.Prepared.Name} pays off against {breakEven.Plain.Name}", figure);
    }

    // An interval as an error bar's lengths below and above the ratio.
    internal static (double Minus, double Plus)? Bar(double? ratio, RatioInterval? interval) =>
        ratio is { } r && interval is { } i ? (r - i.Low, i.High - r) : null;

    internal static JsonObject ErrorBars(IEnumerable<(double Minus, double Plus)?> bars) => new()
    {
        ["type"] = "data",
        ["symmetric"] = false,
        ["array"] = new JsonArray(bars.Select(b => Number(b?.Plus)).ToArray()),
        ["arrayminus"] = new JsonArray(bars.Select(b => Number(b?.Minus)).ToArray()),
        ["visible"] = true,
        ["color"] = "#888",
    };

    private static JsonArray Traces(BenchmarkRun run, Func<BenchmarkResult, double?> value, Func<BenchmarkResult, (double Minus, double Plus)?> error)
    {
        var cases = run.Results.Select(r => r.CaseKey).Distinct().ToArray();
        var labels = cases.Select(c => run.Results.First(r => r.CaseKey == c).DisplayName).ToArray();
        var traces = new JsonArray();
        foreach (var (runtime, index) in run.Runtimes.Select((r, i) => (r, i)))
        {
            var rows = cases.Select(c => run.Results.FirstOrDefault(r => r.CaseKey == c && r.Runtime == runtime.Moniker)).ToArray();
            var trace = new JsonObject
            {
                ["type"] = "bar",
                ["name"] = $"{runtime.Moniker} ({runtime.Version})",
                ["x"] = new JsonArray(labels.Select(l => (JsonNode)l).ToArray()),
                ["y"] = new JsonArray(rows.Select(r => r is null ? null : Number(value(r))).ToArray()),
                ["marker"] = new JsonObject { ["color"] = Palette[index % Palette.Length] },
                ["hovertemplate"] = "%{x}<br>" + runtime.Moniker + ": %{y:.4g}<extra></extra>",
            };
            if (rows.Any(r => r is not null && error(r) is not null))
            {
                trace["error_y"] = ErrorBars(rows.Select(r => r is null ? null : error(r)));
            }

            traces.Add(trace);
        }

        return traces;
    }

    internal static JsonObject Figure(JsonArray traces, string yTitle, bool log)
    {
        var axis = new JsonObject
        {
            ["title"] = new JsonObject { ["text"] = yTitle },
            ["gridcolor"] = "rgba(128,128,128,0.25)",
            ["zerolinecolor"] = "rgba(128,128,128,0.5)",
            ["type"] = log ? "log" : "linear",
        };
        return new JsonObject
        {
            ["data"] = traces,
            ["layout"] = new JsonObject
            {
                ["barmode"] = "group",
                ["height"] = 380,
                ["margin"] = new JsonObject { ["t"] = 20, ["r"] = 10, ["l"] = 70, ["b"] = 90 },
                ["paper_bgcolor"] = "rgba(0,0,0,0)",
                ["plot_bgcolor"] = "rgba(0,0,0,0)",
                ["font"] = new JsonObject { ["color"] = "#888", ["family"] = "system-ui, sans-serif" },
                ["legend"] = new JsonObject { ["orientation"] = "h", ["y"] = 1.12 },
                ["xaxis"] = new JsonObject { ["gridcolor"] = "rgba(128,128,128,0.25)", ["automargin"] = true },
                ["yaxis"] = axis,
            },
        };
    }

    internal static JsonNode? Number(double? value) =>
        value is { } v && double.IsFinite(v) ? JsonValue.Create(double.Parse(v.ToString("G6", CultureInfo.InvariantCulture), CultureInfo.InvariantCulture)) : null;
}
