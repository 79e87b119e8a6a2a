using System.Globalization;
using System.Text;
using System.Text.Json.Nodes;
using PerfLab.Contract;
using PerfLab.Results;

namespace PerfLab.Course.Reference;

/// <summary>One published comparison against what the reference machines measured.</summary>
/// <param name="Id">Figure id.</param>
/// <param name="Compared">What is compared, e.g. "Sum: net10.0 / net9.0".</param>
/// <param name="Published">The post's ratio.</param>
/// <param name="Reference">Each machine's ratio, with its interval.</param>
/// <param name="Hardware">The CPU feature the figure depends on, if any.</param>
/// <param name="Room">Each laptop's ratio in a room's export (`perflab fidelity --room`), with its interval; never part of <see cref="Agrees"/>.</param>
public sealed record FidelityRow(string Id, string Compared, double Published, IReadOnlyList<ReferenceMeasurement> Reference, string? Hardware, IReadOnlyList<ReferenceMeasurement>? Room = null)
{
    /// <summary>Whether every laptop of the room with a ratio moved the same way as the post; null without one.</summary>
    public bool? RoomAgrees => Room is not { Count: > 0 } room ? null : room.All(r => (r.Ratio < 1) == (Published < 1));

    /// <summary>Whether every reference machine moved the same way as the post (both below 1, or both at or above it).</summary>
    public bool? Agrees => Reference.Count == 0 ? null : Reference.All(r => (r.Ratio < 1) == (Published < 1));
}

/// <summary>
/// `perflab fidelity`: every published figure with a ratio, beside the ratios the committed reference
/// machines measured (with their intervals), and whether the direction agrees; written to docs/fidelity.md and docs/fidelity.json.
/// </summary>
public static class FidelityReport
{
    /// <summary>A published ratio below this is an improvement worth reproducing.</summary>
    public const double Improvement = 0.8;

    /// <summary>The report's file name (<see cref="Markdown"/>), in the repository's docs/ folder.</summary>
    public const string MarkdownFile = "fidelity.md";

    /// <summary>The rows' file name (<see cref="Json"/>), beside <see cref="MarkdownFile"/>.</summary>
    public const string JsonFile = "fidelity.json";

    /// <summary>The rows for every comparison in <paramref name="catalog"/>.</summary>
    /// <param name="catalog">The published figures.</param>
    /// <param name="machines">The reference machines.</param>
    /// <param name="room">A room's laptops (<c>perflab room export</c>), shown beside the reference machines; null: no room.</param>
    public static IReadOnlyList<FidelityRow> Rows(PublishedFigures.Catalog catalog, IReadOnlyList<ReferenceRuns.Machine> machines, IReadOnlyList<ReferenceRuns.Machine>? room = null)
    {
        ArgumentNullException.ThrowIfNull(catalog);
        var rows = new List<FidelityRow>();
        foreach (var figure in catalog.Figures.Values.OrderBy(f => f.Id, StringComparer.Ordinal))
        {
            var cases = PublishedFigures.Tables(figure).SelectMany(t => t.Rows)
                .Select(r => (r.Method, Parameters: r.Parameters.Select(p => new CaseParameter(p.Key, p.Value.Replace(",", "", StringComparison.Ordinal))).ToArray()))
                .DistinctBy(c => c.Method + "|" + string.Join(",", c.Parameters.Select(p => p.Name + "=" + p.Value)));
            foreach (var (method, parameters) in cases)
            {
                var comparison = PublishedFigures.Find(catalog, [figure.Id + ":" + method], method, parameters, isBaseline: false);
                if (comparison is not { Ratio: { } ratio, Before: { } before, After: { } after } || before == after)
                {
                    continue;
                }

                var label = comparison.Kind == "runtimes" ? $"{after.Method}{Params(parameters)}: {after.Runtime} / {before.Runtime}" : $"{after.Method} / {before.Method}{Params(parameters)} on {after.Runtime}";
                rows.Add(new FidelityRow(figure.Id, label, ratio, ReferenceRuns.For(machines, comparison), comparison.Hardware, room is null ? null : ReferenceRuns.For(room, comparison)));
            }
        }

        return rows;
    }

    /// <summary>docs/fidelity.md's text.</summary>
    /// <param name="rows">The rows.</param>
    /// <param name="machines">The machines read.</param>
    /// <param name="room">The room's export and its laptops, when the report shows one (a "Room" column); null: none.</param>
    public static string Markdown(IReadOnlyList<FidelityRow> rows, IReadOnlyList<ReferenceRuns.Machine> machines, (string File, IReadOnlyList<ReferenceRuns.Machine> Laptops)? room = null)
    {
        ArgumentNullException.ThrowIfNull(rows);
        ArgumentNullException.ThrowIfNull(machines);
        var improvements = rows.Where(r => r.Published < Improvement).ToArray();
        var measured = improvements.Where(r => r.Agrees is not null && r.Hardware is null).ToArray();
        var text = new StringBuilder();
        text.AppendLine("# Fidelity: the posts' figures against the course's reference machines")
            .AppendLine()
            .AppendLine("Written by `perflab fidelity` from data/published and data/reference/machines; do not edit by hand.")
            .AppendLine("A ratio is newer / older (runtime, or idiom on one runtime); below 1 is faster. \"Agrees\" means every")
            .AppendLine("reference machine moved the same way as the post. Figures that depend on a CPU feature are marked and")
            .AppendLine("not counted as disagreements.")
            .AppendLine()
            .AppendLine("In brackets, a reference ratio's 95% interval (none where an iteration measured 0 ns); \"interval holds")
            .AppendLine("1\" where it cannot tell the two apart. Unmarked, it is from the iterations of the one full-mode process")
            .AppendLine("that measured each case, and does not cover what changes from one process to the next (code layout,")
            .AppendLine("tiering decisions), so the ratio's real uncertainty is wider. Marked \"across N processes\", it is from")
            .AppendLine("the means of N processes per case (`perflab reference --launches N`), and covers that.")
            .AppendLine()
            .AppendLine("Machines: " + (machines.Count == 0 ? "none yet" : string.Join("; ", machines.Select(m => $"{m.Name} ({m.Description}{OtherProcessors(m)})"))) + ".")
            .AppendLine()
            .AppendLine(CultureInfo.InvariantCulture, $"**Summary**: {rows.Count} published comparisons; {improvements.Length} with a published ratio below {Improvement}; reference runs cover {measured.Length} of those, and {measured.Count(r => r.Agrees == true)} agree in direction.")
            .AppendLine();
        if (room is { } r)
        {
            var roomMeasured = improvements.Where(x => x.RoomAgrees is not null && x.Hardware is null).ToArray();
            text.AppendLine(CultureInfo.InvariantCulture, $"**Room**: {r.File}, {r.Laptops.Count} laptops ({string.Join("; ", r.Laptops.Select(m => $"{Cell(m.Name)}: {Cell(m.Description)}"))}). Their ratios are in the Room column, never in \"Agrees\"; \"Room agrees\" says whether every laptop with a ratio moved the same way as the post. They measured {roomMeasured.Length} of the improvements above, and {roomMeasured.Count(x => x.RoomAgrees == true)} agree in direction.")
                .AppendLine()
                .AppendLine("| Figure | Compared | Published | Reference | Agrees | Room | Room agrees |")
                .AppendLine("|---|---|---:|---|---|---|---|");
        }
        else
        {
            text.AppendLine("| Figure | Compared | Published | Reference | Agrees |")
                .AppendLine("|---|---|---:|---|---|");
        }

        foreach (var row in rows)
        {
            var reference = row.Reference.Count == 0 ? "not measured yet" : string.Join("; ", row.Reference.Select(r => $"{r.Machine} {Ratio(r.Ratio)}{Interval(r)}{RunOn(r, machines)}"));
            var agrees = row.Agrees switch { null => "", true => "yes", false => row.Hardware is null ? "**no**" : $"no ({row.Hardware})" };
            if (row.Hardware is not null && row.Agrees is null)
            {
                agrees = $"({row.Hardware})";
            }

            var roomColumns = room is null ? "" : $" {(row.Room is { Count: > 0 } laptops ? string.Join("; ", laptops.Select(m => $"{Cell(m.Machine)} {Ratio(m.Ratio)}{Interval(m)}")) : "not measured")} | {row.RoomAgrees switch { null => "", true => "yes", false => "**no**" }} |";
            text.AppendLine(CultureInfo.InvariantCulture, $"| {row.Id} | {row.Compared.Replace("|", "\\|", StringComparison.Ordinal)} | {Ratio(row.Published)} | {reference} | {agrees} |{roomColumns}");
        }

        return text.ToString();
    }

    // A machine's file can hold runs made on another processor under the same name (the course machine's host changed).
    private static string OtherProcessors(ReferenceRuns.Machine machine) =>
        machine.Rows.Select(r => r.Description).Where(d => d != machine.Description).Distinct().ToArray() is { Length: > 0 } others
            ? "; the rows marked \"run on\" ran on " + string.Join(" or ", others.Select(o => o.Split(", ")[0]))
            : "";

    private static string RunOn(ReferenceMeasurement measurement, IReadOnlyList<ReferenceRuns.Machine> machines) =>
        machines.FirstOrDefault(m => m.Name == measurement.Machine) is { } machine && machine.Description != measurement.Description
            ? $" (run on {measurement.Description.Split(", ")[0]})"
            : "";

    /// <summary>docs/fidelity.json's text.</summary>
    /// <param name="rows">The rows.</param>
    public static string Json(IReadOnlyList<FidelityRow> rows)
    {
        ArgumentNullException.ThrowIfNull(rows);
        var array = new JsonArray(rows.Select(r => (JsonNode)new JsonObject
        {
            ["id"] = r.Id,
            ["compared"] = r.Compared,
            ["published"] = Math.Round(r.Published, 4),
            ["reference"] = new JsonArray(r.Reference.Select(m => (JsonNode)new JsonObject
            {
                ["machine"] = m.Machine,
                ["ratio"] = Math.Round(m.Ratio, 4),
                ["low"] = m.Interval is null ? null : Math.Round(m.Interval.Low, 4),
                ["high"] = m.Interval is null ? null : Math.Round(m.Interval.High, 4),
                ["processes"] = m.Processes, // 1: the interval is from one process's iterations
            }).ToArray()),
            ["agrees"] = r.Agrees,
            ["hardware"] = r.Hardware,
        }).ToArray());
        if (rows.Any(r => r.Room is not null))
        {
            // Only with --room: the committed docs/fidelity.json keeps its layout.
            foreach (var (node, row) in array.Zip(rows))
            {
                node!["room"] = new JsonArray((row.Room ?? []).Select(m => (JsonNode)new JsonObject
                {
                    ["laptop"] = m.Machine,
                    ["ratio"] = Math.Round(m.Ratio, 4),
                    ["low"] = m.Interval is null ? null : Math.Round(m.Interval.Low, 4),
                    ["high"] = m.Interval is null ? null : Math.Round(m.Interval.High, 4),
                }).ToArray());
                node["roomAgrees"] = row.RoomAgrees;
            }
        }

        return new JsonObject { ["schema"] = "perflab-fidelity/1", ["rows"] = array }.ToJsonString(JsonFormats.Indented) + "\n";
    }

    // A laptop's nickname in a table cell: Markdown's own characters and HTML taken as text.
    private static string Cell(string text) => System.Net.WebUtility.HtmlEncode(text).Replace("|", "\\|", StringComparison.Ordinal).Replace("*", "\\*", StringComparison.Ordinal).Replace("_", "\\_", StringComparison.Ordinal).Replace("`", "\\`", StringComparison.Ordinal).Replace("[", "\\[", StringComparison.Ordinal);

    private static string Params(IReadOnlyList<CaseParameter> parameters) =>
        parameters.Count == 0 ? "" : "(" + string.Join(", ", parameters.Select(p => $"{p.Name}={p.Value}")) + ")";

    private static string Ratio(double value) => Ratio(value, value);

    // The interval's ends in the ratio's format, so a 0.009 ratio does not get ends of 0.01.
    private static string Ratio(double value, double ratio) => value.ToString(ratio < 0.01 ? "0.000" : "0.00", CultureInfo.InvariantCulture);

    private static string Interval(ReferenceMeasurement measured) => measured.Interval is { } i
        ? $" ({Ratio(i.Low, measured.Ratio)}–{Ratio(i.High, measured.Ratio)}{(i.Kind == IntervalKind.Launches ? $" across {measured.Processes} processes" : "")})" + (i.HoldsOne ? " (interval holds 1)" : "")
        : "";
}
