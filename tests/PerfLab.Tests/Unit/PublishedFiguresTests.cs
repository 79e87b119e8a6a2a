using System.Text.Json.Nodes;
using PerfLab.Contract;
using PerfLab.Course;
using PerfLab.Results;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>data/published (schema 2): every committed file loads, bad files are named, and cases find their rows.</summary>
public class PublishedFiguresTests
{
    private static PublishedFigures.Catalog Committed() => PublishedFigures.Load(RepoFiles.Path(CourseRepository.PublishedFolder), RepoFiles.Path(CourseRepository.OutlineFile));

    [Fact]
    public void Every_committed_file_loads_without_a_problem_and_covers_the_outline()
    {
        var catalog = Committed();

        Assert.True(catalog.Problems.Count == 0, string.Join("\n", catalog.Problems));
        var outline = JsonNode.Parse(File.ReadAllText(RepoFiles.Path(CourseRepository.OutlineFile)))!;
        var cited = outline["notebooks"]!.AsObject().SelectMany(n => n.Value!.AsArray().Select(i => (string)i!)).ToHashSet();
        var noFigure = outline["noFigure"]!.AsObject().Select(n => n.Key).ToHashSet();
        var missing = cited.Where(id => !catalog.Figures.ContainsKey(id) && !noFigure.Contains(id)).Order().ToArray();
        Assert.True(missing.Length == 0, "outline ids without a figure and not listed under noFigure: " + string.Join(", ", missing));
        Assert.True(catalog.Figures.Count >= 130, $"{catalog.Figures.Count} figures");
        var noNotebook = outline["notebooks"]!.AsObject().Select(n => n.Key).Where(path => !File.Exists(RepoFiles.Path(path))).ToArray();
        Assert.True(noNotebook.Length == 0, "data/outline.json names notebooks that do not exist (renamed?): " + string.Join(", ", noNotebook));
    }

    [Fact]
    public void Committed_rows_are_consistent_ratios_match_means_and_units_are_known()
    {
        var inconsistent = new List<string>();
        foreach (var figure in Committed().Figures.Values)
        {
            foreach (var (table, rows) in PublishedFigures.Tables(figure))
            {
                var baseline = (string?)table["baseline"];
                foreach (var row in rows.Where(r => r.Ratio is > 0.05))
                {
                    // The row the ratio is against: the same method and parameters on the table's first runtime, or the baseline method.
                    var reference = baseline is null
                        ? rows.First(r => r.Method == row.Method && r.Parameters.SequenceEqual(row.Parameters))
                        : rows.FirstOrDefault(r => r.Method == baseline && r.Runtime == row.Runtime && r.Parameters.SequenceEqual(row.Parameters));
                    if (reference is null || reference.Ratio is not > 0.5 || reference.MeanNs == 0)
                    {
                        continue;
                    }

                    var computed = row.MeanNs / reference.MeanNs * reference.Ratio.Value;
                    if (Math.Abs(computed - row.Ratio!.Value) > Math.Max(0.02, row.Ratio.Value * 0.06))
                    {
                        inconsistent.Add($"{figure.Id} {row.Method} {row.Runtime}: ratio {row.Ratio} but means give {computed:F3}");
                    }
                }
            }
        }

        Assert.True(inconsistent.Count == 0, string.Join("\n", inconsistent));
    }

    [Fact]
    public void A_sample_of_values_matches_the_posts_digests_where_they_are_here()
    {
        // Exact values read off the digests' tables (thousands separators, units, "-" allocations).
        var expected = new (string Id, string Method, string Runtime, double MeanNs, long? Allocated)[]
        {
            ("N10-J01", "Sum", "net9.0", 19.530, 88), ("N10-J01", "Sum", "net10.0", 6.685, 24),
            ("N10-J02", "Test", "net10.0", 3.960, 0), ("N10-J03", "Test", "net10.0", 0.8718, 0),
            ("N10-J19", "Sum", "net9.0", 109.86, 32), ("N10-J19", "Sum", "net10.0", 35.45, 0),
            ("N10-J06", "Test", "net10.0", 1.511, null), ("N10-C02", "SumEnumerable", "net9.0", 30.893, 40),
            ("N10-C05", "DistinctContains", "net9.0", 16967.31, 58656), ("N10-C05", "AppendContains", "net10.0", 52.06, 56),
            ("N10-C04", "EnumerateInts", "net9.0", 4232.8, 56), ("N10-C06", "Fill2", "net10.0", 37.42, null),
            ("N9-J03", "UpwardCounting", "net8.0", 30.27, null), ("N9-S05", "Contains_StringSearchValues", "net9.0", 2153, null),
            ("N9-S10", "CountGreekChars", "net8.0", 126_454_000, null), ("N9-S09", "CountNonGreekOrAsciiDigitsChars", "net8.0", 1_814_700, null),
            ("C30-AS09", "GetSpanProp", "netcoreapp3.0", 0.0125, null), ("C30-JT05", "WrapUnwrap", "netcoreapp2.1", 1.2198, null),
            ("C30-CO01", "IsEmpty", "netcoreapp2.1", 73.675, null), ("C30-CO02", "EnqueueCountDequeue", "netcoreapp2.1", 708.48, 704),
            ("C30-CO03", "Lookup", "netcoreapp3.0", 174_500, null), ("C30-JT01", "LoadXml", "netcoreapp3.0", 9_002, null),
        };
        var catalog = Committed();
        foreach (var (id, method, runtime, meanNs, allocated) in expected)
        {
            var rows = PublishedFigures.Tables(catalog.Figures[id]).SelectMany(t => t.Rows).Where(r => r.Method == method && r.Runtime == runtime).ToArray();
            Assert.True(rows.Any(r => Math.Abs(r.MeanNs - meanNs) < meanNs * 1e-9 && (allocated is null || r.AllocatedBytes == allocated)),
                $"{id} {method} {runtime}: expected {meanNs} ns, {allocated} B; found {string.Join("; ", rows.Select(r => $"{r.MeanNs} ns, {r.AllocatedBytes} B"))}");
        }

        // Where the digests are present (next to the repository), each sampled mean is also found in its digest as printed.
        if (DigestsFolder.Find(RepoFiles.Path()) is { } digests)
        {
            var text = string.Concat(Directory.EnumerateFiles(digests, "post-*-digest.md").Select(File.ReadAllText));
            Assert.Contains("| Sum | .NET 9.0 | 19.530 ns | 1.00 |", text, StringComparison.Ordinal);
            Assert.Contains("| DistinctContains | .NET 9.0 | 16,967.31 ns |", text, StringComparison.Ordinal);
            Assert.Contains("| EnqueueCountDequeue | netcoreapp2.1 | 708.48 ns |", text, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData("\"unit\": \"ns\"", "\"unit\": \"sec\"", "table 1, row 1: unit is sec; use one of ns, us, ms, s")]
    [InlineData("\"schema\": \"perflab-published/2\"", "\"schema\": \"perflab-published/1\"", "declares schema perflab-published/1; this PerfLab reads perflab-published/2")]
    [InlineData("\"mean\": 19.53,", "", "table 1, row 1: mean is missing")]
    [InlineData("\"id\": \"T-X01\"", "\"id\": \"T-X99\"", "T-X99: the course outline (data/outline.json) cites no such id")]
    public void A_bad_file_is_named_with_its_entry_and_the_other_files_still_load(string find, string replace, string expected)
    {
        using var folder = new TempFolder();
        var good = Figure("T-X02");
        folder.Write("published/good.json", good);
        folder.Write("published/bad.json", Figure("T-X01").Replace(find, replace, StringComparison.Ordinal));
        folder.Write("outline.json", """{ "notebooks": { "notebooks/x.ipynb": ["T-X01", "T-X02"] } }""");

        var catalog = PublishedFigures.Load(Path.Combine(folder.Path, "published"), Path.Combine(folder.Path, "outline.json"));

        Assert.NotEmpty(catalog.Problems);
        Assert.All(catalog.Problems, p => Assert.Contains("data/published/bad.json", p, StringComparison.Ordinal));
        Assert.Contains(catalog.Problems, p => p.Contains(expected, StringComparison.Ordinal));
        Assert.True(catalog.Figures.ContainsKey("T-X02"), "the good file stopped loading");
    }

    [Fact]
    public void A_duplicate_id_across_files_is_reported()
    {
        using var folder = new TempFolder();
        folder.Write("published/a.json", Figure("T-X01"));
        folder.Write("published/b.json", Figure("T-X01"));
        folder.Write("outline.json", """{ "notebooks": { "notebooks/x.ipynb": ["T-X01"] } }""");

        var catalog = PublishedFigures.Load(Path.Combine(folder.Path, "published"), Path.Combine(folder.Path, "outline.json"));

        Assert.Contains(catalog.Problems, p => p.Contains("b.json, T-X01: the id appears twice", StringComparison.Ordinal));
    }

    [Fact]
    public void A_case_finds_its_row_by_name_by_explicit_category_and_by_baseline_in_an_old_vs_new_figure()
    {
        var catalog = Committed();
        var none = Array.Empty<CaseParameter>();

        // One method on two runtimes: any method name of ours links to it.
        var j01 = PublishedFigures.Find(catalog, ["N10-J01"], "AddThroughLambda", none, isBaseline: false)!;
        Assert.Equal(("net9.0", "net10.0"), (j01.Before!.Runtime, j01.After!.Runtime));
        Assert.Equal(6.685 / 19.530, j01.Ratio!.Value, 6);

        // Nine methods: by the same name, or named explicitly.
        Assert.Equal("DistinctContains", PublishedFigures.Find(catalog, ["N10-C05"], "distinctcontains", none, false)!.After!.Method);
        Assert.Equal("UnionContains", PublishedFigures.Find(catalog, ["N10-C05:UnionContains"], "MySetUnion", none, false)!.After!.Method);
        Assert.Null(PublishedFigures.Find(catalog, ["N10-C05"], "SomethingElse", none, false)!.After);

        // Old idiom against new on one runtime: the baseline method is the post's baseline row, the other the other row.
        var newer = PublishedFigures.Find(catalog, ["N10-C06"], "WithSequence", none, isBaseline: false)!;
        Assert.Equal(("Fill1", "Fill2"), (newer.Before!.Method, newer.After!.Method));
        Assert.False(newer.IsBaselineItself);

        // The baseline itself is what the other is compared with: no ratio of its own, so no line and no bar.
        var older = PublishedFigures.Find(catalog, ["N10-C06"], "AddOneByOne", none, isBaseline: true)!;
        Assert.True(older.IsBaselineItself);
        Assert.Null(older.Ratio);

        // Parameters pick the row; the last table holds the post's final numbers.
        var c01 = PublishedFigures.Find(catalog, ["N10-C01"], "Sum", [new CaseParameter("Count", "15000")], false)!;
        Assert.Equal(6525.3, c01.After!.MeanNs, 6);

        // A named row the post ran with one input stands for the course's own input; unnamed, other values match nothing.
        var ownInput = new[] { new CaseParameter("fileName", "gateway.LOG") };
        var named = PublishedFigures.Find(catalog, ["N9-S17:EndsWith"], "IsLogFile", ownInput, false)!;
        Assert.Equal(("net8.0", "net9.0"), (named.Before!.Runtime, named.After!.Runtime));
        Assert.Null(PublishedFigures.Find(catalog, ["N9-S17"], "IsLogFile", ownInput, false)!.After);

        // Assembly only: what the listing showed.
        Assert.Equal("code size net9.0 103 B -> net10.0 70 B (the post's listing at L1080/L1133)", PublishedFigures.Find(catalog, ["N10-J16"], "Add", none, false)!.Asm);
    }

    private static string Figure(string id) => $$"""
        {
          "schema": "perflab-published/2",
          "post": "A test post",
          "machine": { "cpu": "a CPU" },
          "figures": [
            { "id": "{{id}}", "section": "S", "prs": [], "kind": "runtimes",
              "tables": [ { "rows": [
                { "method": "M", "runtime": "net9.0", "mean": 19.53, "unit": "ns", "ratio": 1.0 },
                { "method": "M", "runtime": "net10.0", "mean": 6.685, "unit": "ns", "ratio": 0.34 } ] } ] }
          ]
        }
        """;
}
