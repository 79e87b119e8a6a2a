using PerfLab.Disassembly;
using PerfLab.Results;
using PerfLab.Room;

namespace PerfLab.Course.Room;

/// <summary>
/// What the room page shows, from the stored posts: each cell the room has run (one content key), most recent first,
/// with each laptop's latest run of it: its ratios and their intervals, its group (CPU family and instruction sets),
/// and the laptops of the room that have not run it. Data only: the page escapes every string it shows.
/// </summary>
/// <param name="Laptops">Every laptop that has posted, by its latest nickname.</param>
/// <param name="Cells">The cells, the most recently posted first.</param>
public sealed record RoomSummary(IReadOnlyList<string> Laptops, IReadOnlyList<RoomCell> Cells)
{
    /// <summary>The summary of <paramref name="posts"/>, oldest first as the room stored them.</summary>
    /// <param name="posts">The room's posts.</param>
    /// <param name="lines">The reference machines' and the posts' ratios drawn across each cell's charts; null: none.</param>
    public static RoomSummary Of(IReadOnlyList<RoomPost> posts, RoomLines? lines = null)
    {
        ArgumentNullException.ThrowIfNull(posts);
        var nickname = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var post in posts)
        {
            nickname[post.Laptop] = post.Nickname;
        }

        var laptops = nickname.Values.Order(StringComparer.OrdinalIgnoreCase).ToArray();
        var cells = posts
            .Select((post, index) => (post, index))
            .GroupBy(p => p.post.Code, StringComparer.Ordinal)
            .OrderByDescending(g => g.Max(p => p.index))
            .Select(g =>
            {
                // Each laptop's latest run of the cell.
                var latest = g.GroupBy(p => p.post.Laptop, StringComparer.Ordinal).Select(l => l.MaxBy(p => p.index).post).ToArray();
                var newest = g.MaxBy(p => p.index).post;
                var results = latest.Select(p => new RoomLaptopResult(nickname[p.Laptop], Group(p.InstructionSets, p.Machine.Platform), p.Machine.Processor, ModeChoice.Name(p.Run.Mode), Ratios(p.Run))).OrderBy(r => r.Group, StringComparer.Ordinal).ThenBy(r => r.Nickname, StringComparer.OrdinalIgnoreCase).ToArray();
                var ran = results.Select(r => r.Nickname).ToHashSet(StringComparer.Ordinal);
                return new RoomCell(g.Key, newest.Notebook, newest.Run.Source, Title(newest), results, laptops.Where(l => !ran.Contains(l)).ToArray(), (lines ?? RoomLines.None).For(g.Key, latest));
            })
            .ToArray();
        return new RoomSummary(laptops, cells);
    }

    /// <summary>How the room groups machines: the architecture, and on x64 whether AVX-512 (else AVX2) is used.</summary>
    /// <param name="sets">The laptop's instruction sets.</param>
    /// <param name="platform">Its runtime identifier, e.g. linux-x64.</param>
    public static string Group(InstructionSets sets, string platform)
    {
        ArgumentNullException.ThrowIfNull(sets);
        bool On(string feature) => sets.Rows.FirstOrDefault(r => r.Feature.StartsWith(feature, StringComparison.Ordinal)) is { Values: [var value, ..] } && value != 0;
        return sets.Rows.Any(r => r.Feature.StartsWith("AdvSimd", StringComparison.Ordinal)) || platform.EndsWith("arm64", StringComparison.Ordinal) ? "Arm64"
            : On("AVX-512F") ? "x64 with AVX-512"
            : On("AVX2") ? "x64 with AVX2, no AVX-512"
            : "x64 without AVX2";
    }

    /// <summary>
    /// Every row's ratio against its baseline, with its interval; the baseline rows (ratio 1 by definition) are left out.
    /// A row that reproduces a post's comparison of two runtimes other than the run's baseline (the post's .NET 10 / .NET 9
    /// in a run against .NET 8) also gets that comparison's ratio, so the post's line has a chart to be drawn on.
    /// </summary>
    /// <param name="run">A run.</param>
    internal static IReadOnlyList<RoomRatio> Ratios(BenchmarkRun run)
    {
        var baselineRuntime = run.Baseline.StartsWith("runtime:", StringComparison.Ordinal) ? run.Baseline["runtime:".Length..] : null;
        var ratios = run.Results
            .Where(r => r.Ratio is not null && !r.IsBaseline && r.Runtime != baselineRuntime)
            .Select(r => new RoomRatio(CaseName(r), r.Runtime, baselineRuntime ?? "baseline", r.Ratio!.Value, r.RatioInterval?.Low, r.RatioInterval?.High))
            .ToList();
        foreach (var row in run.Results.Where(r => r.Published is { Kind: "runtimes", Before: { } b, After: { } a } && r.Runtime == a.Runtime && b.Runtime != baselineRuntime && r.Statistics is not null))
        {
            var before = row.Published!.Before!.Runtime;
            if (run.Results.FirstOrDefault(o => o.Runtime == before && o.CaseKey == row.CaseKey) is { Statistics.Mean: > 0 } older)
            {
                var interval = RatioInterval.Between(row, older, run.Mode);
                ratios.Add(new RoomRatio(CaseName(row), row.Runtime, before, row.Statistics!.Mean / older.Statistics.Mean, interval?.Low, interval?.High));
            }
        }

        return ratios;
    }

    /// <summary>How the page names a row's case: Class.Method(params), the class without its namespace.</summary>
    /// <param name="row">The row.</param>
    internal static string CaseName(BenchmarkResult row) => $"{ShortType(row.Type)}.{row.DisplayName}";

    private static string Title(RoomPost post) =>
        (post.Notebook is { } notebook ? notebook + ": " : post.Run.Source + ": ")
        + string.Join(", ", post.Run.Results.Select(r => ShortType(r.Type)).Distinct(StringComparer.Ordinal));

    private static string ShortType(string type) => type[(type.LastIndexOfAny(['.', '+']) + 1)..];
}

/// <summary>One cell the room has run.</summary>
/// <param name="Code">Its content key.</param>
/// <param name="Notebook">Its notebook, when the posts said.</param>
/// <param name="Source">The source's name (a file name, or a notebook cell's).</param>
/// <param name="Title">How the page names it.</param>
/// <param name="Results">Each laptop's latest run of it.</param>
/// <param name="Missing">The room's laptops that have not run it.</param>
/// <param name="Lines">The reference machines' and the post's ratios for its rows, where they exist (<see cref="RoomLines"/>).</param>
public sealed record RoomCell(string Code, string? Notebook, string Source, string Title, IReadOnlyList<RoomLaptopResult> Results, IReadOnlyList<string> Missing, IReadOnlyList<RoomLine> Lines);

/// <summary>A laptop's latest run of a cell.</summary>
/// <param name="Nickname">The laptop's latest nickname.</param>
/// <param name="Group">Its machine's group (<see cref="RoomSummary.Group"/>).</param>
/// <param name="Processor">Its CPU model.</param>
/// <param name="Mode">smoke, quick or full; a smoke run has no ratios.</param>
/// <param name="Ratios">Its ratios.</param>
public sealed record RoomLaptopResult(string Nickname, string Group, string Processor, string Mode, IReadOnlyList<RoomRatio> Ratios);

/// <summary>One ratio of a laptop's run: a case on a runtime against the baseline.</summary>
/// <param name="Case">Class.Method(params).</param>
/// <param name="Runtime">The runtime measured.</param>
/// <param name="Baseline">What it is compared with.</param>
/// <param name="Ratio">The ratio.</param>
/// <param name="Low">Its 95% interval's low end, when it has one.</param>
/// <param name="High">Its high end.</param>
public sealed record RoomRatio(string Case, string Runtime, string Baseline, double Ratio, double? Low, double? High);
