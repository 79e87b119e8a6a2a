using System.Globalization;
using System.Text;
using PerfLab.Course.Reference;
using PerfLab.Results;

namespace PerfLab.Course.Views;

/// <summary>docs/fidelity.md: the fidelity rows (<see cref="FidelityReport"/>) as the Markdown report readers open.</summary>
public static class FidelityMarkdown
{
    /// <summary>docs/fidelity.md's text.</summary>
    /// <param name="rows">The rows.</param>
    /// <param name="machines">The machines read.</param>
    /// <param name="room">The room's export and its laptops, when the report shows one (a "Room" column); null: none.</param>
    /// <param name="withoutRatio">The figures the posts showed without a ratio (<see cref="FidelityReport.WithoutRatio"/>), listed after the table; null: none.</param>
    public static string Write(IReadOnlyList<FidelityRow> rows, IReadOnlyList<ReferenceRuns.Machine> machines, (string File, IReadOnlyList<ReferenceRuns.Machine> Laptops)? room = null, IReadOnlyList<PublishedComparison>? withoutRatio = null)
    {
        ArgumentNullException.ThrowIfNull(rows);
        ArgumentNullException.ThrowIfNull(machines);
        var improvements = rows.Where(r => r.Published < FidelityReport.Improvement).ToArray();
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
            .AppendLine(CultureInfo.InvariantCulture, $"**Summary**: {rows.Count} published comparisons; {improvements.Length} with a published ratio below {FidelityReport.Improvement}; reference runs cover {measured.Length} of those, and {measured.Count(r => r.Agrees == true)} agree in direction.")
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

        if (withoutRatio is { Count: > 0 })
        {
            text.AppendLine()
                .AppendLine("## Figures without a ratio")
                .AppendLine()
                .AppendLine(CultureInfo.InvariantCulture, $"{withoutRatio.Count} figures have no ratio to compare: the post showed a listing (asm) or what a program printed")
                .AppendLine("(output). The notebooks that cite them show the same listings on .NET 8, 9 and 10.")
                .AppendLine()
                .AppendLine("| Figure | Kind | What the post showed |")
                .AppendLine("|---|---|---|");
            foreach (var figure in withoutRatio)
            {
                var hardware = figure.Hardware is null ? "" : $" (depends on {figure.Hardware})";
                text.AppendLine(CultureInfo.InvariantCulture, $"| {figure.Id} | {figure.Kind} | {(figure.Asm ?? figure.Title).Replace("|", "\\|", StringComparison.Ordinal)}{hardware} |");
            }
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

    // A laptop's nickname in a table cell: Markdown's own characters and HTML taken as text.
    private static string Cell(string text) => System.Net.WebUtility.HtmlEncode(text).Replace("|", "\\|", StringComparison.Ordinal).Replace("*", "\\*", StringComparison.Ordinal).Replace("_", "\\_", StringComparison.Ordinal).Replace("`", "\\`", StringComparison.Ordinal).Replace("[", "\\[", StringComparison.Ordinal);

    private static string Ratio(double value) => Ratio(value, value);

    // The interval's ends in the ratio's format, so a 0.009 ratio does not get ends of 0.01.
    private static string Ratio(double value, double ratio) => value.ToString(ratio < 0.01 ? "0.000" : "0.00", CultureInfo.InvariantCulture);

    private static string Interval(ReferenceMeasurement measured) => measured.Interval is { } i
        ? $" ({Ratio(i.Low, measured.Ratio)}–{Ratio(i.High, measured.Ratio)}{(i.Kind == IntervalKind.Launches ? $" across {measured.Processes} processes" : "")})" + (i.HoldsOne ? " (interval holds 1)" : "")
        : "";
}
