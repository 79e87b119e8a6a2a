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

    /// <summary>The report's file name (<see cref="Views.FidelityMarkdown"/>), in the repository's docs/ folder.</summary>
    public const string MarkdownFile = "fidelity.md";

    /// <summary>The rows' file name (<see cref="Views.FidelityJson"/>), beside <see cref="MarkdownFile"/>.</summary>
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

    /// <summary>
    /// The figures with nothing to compare a ratio with: the post showed a listing (asm) or a program's printed output
    /// (output). The report lists what each showed; the notebooks that cite them read the same listings.
    /// </summary>
    /// <param name="catalog">The published figures.</param>
    public static IReadOnlyList<PublishedComparison> WithoutRatio(PublishedFigures.Catalog catalog)
    {
        ArgumentNullException.ThrowIfNull(catalog);
        return catalog.Figures.Values.OrderBy(f => f.Id, StringComparer.Ordinal)
            .Select(f => PublishedFigures.Find(catalog, [f.Id], "", [], isBaseline: false))
            .OfType<PublishedComparison>()
            .Where(c => c.Kind is "asm" or "output")
            .ToArray();
    }

    private static string Params(IReadOnlyList<CaseParameter> parameters) =>
        parameters.Count == 0 ? "" : "(" + string.Join(", ", parameters.Select(p => $"{p.Name}={p.Value}")) + ")";
}
