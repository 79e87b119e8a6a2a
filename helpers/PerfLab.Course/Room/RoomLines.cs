using PerfLab.Results;
using PerfLab.Room;

namespace PerfLab.Course.Room;

/// <summary>
/// The lines the room's page draws across a cell's charts, from the room's own data, never from what laptops send: the
/// reference machines' ratio for each of the cell's rows (their runs of the same content key, data/reference/machines),
/// and the post's ratio (data/published) for each row whose figure the course's catalog has, on the chart that
/// compares what the post compared (the same runtimes, or the same method against its baseline on the post's runtime).
/// A laptop's row names the figure it reproduces; the ratio is looked up here.
/// </summary>
public sealed class RoomLines
{
    private readonly Dictionary<string, List<(string Machine, BenchmarkRun Run)>> _reference;
    private readonly PublishedFigures.Catalog? _catalog;

    /// <summary>Lines from <paramref name="reference"/>'s runs and <paramref name="catalog"/>'s figures.</summary>
    /// <param name="reference">Each reference machine's name and runs.</param>
    /// <param name="catalog">The published figures; null: the course's (<see cref="PublishedFigures.Find(IEnumerable{string}?, string, IReadOnlyList{PerfLab.Contract.CaseParameter}, bool)"/>).</param>
    public RoomLines(IEnumerable<(string Machine, IReadOnlyList<RecordedRun> Runs)> reference, PublishedFigures.Catalog? catalog = null)
    {
        ArgumentNullException.ThrowIfNull(reference);
        _catalog = catalog;
        _reference = new Dictionary<string, List<(string, BenchmarkRun)>>(StringComparer.Ordinal);
        foreach (var (machine, runs) in reference)
        {
            foreach (var run in runs.Where(r => r.Code is not null))
            {
                if (!_reference.TryGetValue(run.Code!, out var list))
                {
                    _reference[run.Code!] = list = [];
                }

                list.Add((machine, run.Run));
            }
        }
    }

    /// <summary>No lines at all.</summary>
    public static RoomLines None { get; } = new([]);

    /// <summary>The course's lines: the reference machine files shipped beside this build (data/reference/machines), and data/published.</summary>
    /// <returns>The lines, and a problem per machine file that could not be read (it then draws no line).</returns>
    public static (RoomLines Lines, IReadOnlyList<string> Problems) ForCourse()
    {
        var folder = Path.Combine(AppContext.BaseDirectory, "data", "reference", "machines");
        var machines = new List<(string, IReadOnlyList<RecordedRun>)>();
        var problems = new List<string>();
        foreach (var file in Directory.Exists(folder) ? Directory.GetFiles(folder, "*.json").Order(StringComparer.Ordinal).ToArray() : [])
        {
            try
            {
                machines.Add((Path.GetFileNameWithoutExtension(file), ReferenceDocument.Read(file).Runs));
            }
            catch (PerfLabException ex)
            {
                problems.Add($"{ex.Message} The room's page draws no line of it.");
            }
        }

        return (new RoomLines(machines), problems);
    }

    /// <summary>The lines of the cell with content key <paramref name="code"/>, whose posts are <paramref name="posts"/>.</summary>
    /// <param name="code">The cell's content key.</param>
    /// <param name="posts">Its posts (each laptop's latest).</param>
    public IReadOnlyList<RoomLine> For(string code, IEnumerable<RoomPost> posts)
    {
        ArgumentNullException.ThrowIfNull(posts);
        var lines = new List<RoomLine>();
        var references = _reference.GetValueOrDefault(code) ?? [];
        foreach (var (machine, run) in references)
        {
            lines.AddRange(RoomSummary.Ratios(run).Select(r => new RoomLine(r.Case, r.Runtime, r.Baseline, "reference", $"reference {machine}", r.Ratio)));
        }

        // The rows that name a figure: the laptops' and the reference runs' of this code.
        foreach (var run in posts.Select(p => p.Run).Concat(references.Select(r => r.Run)))
        {
            var baselineRuntime = run.Baseline.StartsWith("runtime:", StringComparison.Ordinal) ? run.Baseline["runtime:".Length..] : null;
            foreach (var row in run.Results.Where(r => r.Published is { After: not null } && !r.IsBaseline && r.Runtime != baselineRuntime))
            {
                var named = row.Published!;
                string[] categories = [named.Id + ":" + named.After!.Method];
                var published = _catalog is null
                    ? PublishedFigures.Find(categories, row.Method, row.Parameters, row.IsBaseline)
                    : PublishedFigures.Find(_catalog, categories, row.Method, row.Parameters, row.IsBaseline);
                if (published is not { Ratio: { } ratio, Before: { } before, After: { } after } || row.Runtime != after.Runtime)
                {
                    continue;
                }

                // The chart that compares what the post compared: the same two runtimes (RoomSummary.Ratios adds the
                // post's pair when the run's baseline is another runtime), or the method against its baseline.
                if (published.Kind == "runtimes" || baselineRuntime is null)
                {
                    lines.Add(new RoomLine(RoomSummary.CaseName(row), row.Runtime, published.Kind == "runtimes" ? before.Runtime : "baseline", "post", $"post {published.Id}", ratio));
                }
            }
        }

        return lines.DistinctBy(l => (l.Case, l.Runtime, l.Baseline, l.Label)).ToArray();
    }
}

/// <summary>A line across one of a cell's charts.</summary>
/// <param name="Case">The chart's case (Class.Method(params)).</param>
/// <param name="Runtime">Its runtime.</param>
/// <param name="Baseline">What it is compared with.</param>
/// <param name="Kind">"reference" (a reference machine's ratio) or "post" (the published figure's).</param>
/// <param name="Label">What the page writes beside it.</param>
/// <param name="Ratio">The ratio.</param>
public sealed record RoomLine(string Case, string Runtime, string Baseline, string Kind, string Label, double Ratio);
