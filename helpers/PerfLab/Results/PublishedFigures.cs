using System.Text.Json;
using System.Text.Json.Nodes;
using PerfLab.Contract;

namespace PerfLab.Results;

/// <summary>One row of a post's results table.</summary>
/// <param name="Method">The post's method name.</param>
/// <param name="Runtime">The runtime (or the post's toolchain, e.g. netcoreapp3.0) the row ran on.</param>
/// <param name="Parameters">[Params]/[Arguments] values of the row, by column name.</param>
/// <param name="MeanNs">Mean time per operation, ns.</param>
/// <param name="Ratio">The post's Ratio column, when it printed one.</param>
/// <param name="AllocatedBytes">Bytes allocated per operation, when the post reported them (0 for BenchmarkDotNet's "-").</param>
/// <param name="CodeBytes">The Code Size column, when the post printed one.</param>
public sealed record PublishedRow(string Method, string Runtime, IReadOnlyDictionary<string, string> Parameters, double MeanNs, double? Ratio, long? AllocatedBytes, long? CodeBytes);

/// <summary>
/// What a benchmark case reproduces of a post's figure (data/published): the two published rows it is
/// compared with, or, for a figure the post showed only as assembly, what the listing showed.
/// </summary>
/// <param name="Id">Course id, e.g. N10-J01.</param>
/// <param name="Post">The post's title.</param>
/// <param name="Title">The post's section the figure comes from.</param>
/// <param name="Pr">The runtime pull requests behind it, comma-separated.</param>
/// <param name="Machine">The post's machine.</param>
/// <param name="Kind">runtimes (the same code on two runtimes), variants (old idiom against new on one runtime), asm, or output (a console program's printed output, no timing).</param>
/// <param name="Before">The older runtime's row (runtimes) or the baseline method's row (variants).</param>
/// <param name="After">The newer runtime's row, or the row of the method this case reproduces.</param>
/// <param name="Asm">For a figure without a table: the code sizes the post's listings printed (asm), or what its program printed (output), and where they are.</param>
/// <param name="Hardware">The CPU feature the figure depends on (AVX-512, Arm64...), when it does.</param>
public sealed record PublishedComparison(string Id, string Post, string Title, string Pr, string Machine, string Kind, PublishedRow? Before, PublishedRow? After, string? Asm, string? Hardware)
{
    /// <summary>After / Before, when both rows exist and differ.</summary>
    public double? Ratio => !IsBaselineItself && Before is { MeanNs: > 0 } before && After is { } after ? after.MeanNs / before.MeanNs : null;

    /// <summary>
    /// The baseline method of an old-vs-new figure, linked through its class's category: it is what the other
    /// method is compared with, not a comparison of its own (no line, no bar).
    /// </summary>
    public bool IsBaselineItself => Kind == "variants" && Before is not null && Before == After;
}

/// <summary>
/// The published figures of data/published (schema perflab-published/2, described in data/README.md),
/// copied next to the library at build time, and how a benchmark case finds the rows it reproduces.
/// A file that breaks the schema is reported once (<see cref="Problems"/>) and skipped; the others load.
/// </summary>
public static class PublishedFigures
{
    /// <summary>The schema every file declares.</summary>
    public const string Schema = "perflab-published/2";

    private static readonly string[] Units = ["ns", "us", "ms", "s"];

    private static readonly Lazy<Catalog> Shipped = new(() => Load(
        Path.Combine(AppContext.BaseDirectory, "data", "published"),
        Path.Combine(AppContext.BaseDirectory, "data", "outline.json")));

    /// <summary>The figures in a folder, the problems found, and the outline's ids they were checked against.</summary>
    /// <param name="Figures">By id (upper case).</param>
    /// <param name="Problems">One message per bad file or entry: the file, the entry, what is wrong and what to do.</param>
    public sealed record Catalog(IReadOnlyDictionary<string, Figure> Figures, IReadOnlyList<string> Problems);

    /// <summary>A figure as the files hold it.</summary>
    /// <param name="Id">Course id.</param>
    /// <param name="Post">The post's title.</param>
    /// <param name="Machine">The post's machine, in words.</param>
    /// <param name="Node">The figure's JSON.</param>
    public sealed record Figure(string Id, string Post, string Machine, JsonObject Node);

    /// <summary>Problems with the shipped files (empty when they are sound).</summary>
    public static IReadOnlyList<string> Problems => Shipped.Value.Problems;

    /// <summary>
    /// What the case reproduces, when one of its categories names a figure: "N10-J01" links the case to
    /// that figure's row for the case's method (by name; the only method; or, in an old-vs-new figure,
    /// the baseline for a baseline method and the other row for the other method); "N10-C05:DistinctContains"
    /// names the post's row explicitly when the course's method has another name.
    /// </summary>
    /// <param name="categories">The case's [BenchmarkCategory] names.</param>
    /// <param name="method">The case's method.</param>
    /// <param name="parameters">The case's parameters (matched with the rows' parameter columns by value).</param>
    /// <param name="isBaseline">Whether the case's method is the class's Baseline.</param>
    public static PublishedComparison? Find(IEnumerable<string>? categories, string method, IReadOnlyList<CaseParameter> parameters, bool isBaseline) =>
        Find(Shipped.Value, categories, method, parameters, isBaseline);

    /// <summary><see cref="Find(IEnumerable{string}?, string, IReadOnlyList{CaseParameter}, bool)"/> in a given catalog.</summary>
    /// <param name="catalog">The figures.</param>
    /// <param name="categories">The case's categories.</param>
    /// <param name="method">The case's method.</param>
    /// <param name="parameters">The case's parameters.</param>
    /// <param name="isBaseline">Whether the case's method is the baseline.</param>
    public static PublishedComparison? Find(Catalog catalog, IEnumerable<string>? categories, string method, IReadOnlyList<CaseParameter> parameters, bool isBaseline)
    {
        ArgumentNullException.ThrowIfNull(catalog);
        foreach (var category in categories ?? [])
        {
            var (id, row) = category.Split(':', 2) is [var a, var b] ? (a.Trim(), b.Trim()) : (category.Trim(), null);
            if (catalog.Figures.TryGetValue(id.ToUpperInvariant(), out var figure))
            {
                return Compare(figure, row ?? method, explicitRow: row is not null, parameters, isBaseline);
            }
        }

        return null;
    }

    /// <summary>Reads every *.json in <paramref name="folder"/>, checking ids against <paramref name="outlinePath"/>.</summary>
    /// <param name="folder">data/published.</param>
    /// <param name="outlinePath">data/outline.json: the ids the course cites.</param>
    public static Catalog Load(string folder, string outlinePath)
    {
        var figures = new Dictionary<string, Figure>(StringComparer.Ordinal);
        var problems = new List<string>();
        if (!Directory.Exists(folder))
        {
            return new Catalog(figures, problems);
        }

        var known = KnownIds(outlinePath, problems);
        foreach (var file in Directory.EnumerateFiles(folder, "*.json").Order(StringComparer.Ordinal))
        {
            var name = Path.GetFileName(file);
            JsonObject? document;
            try
            {
                document = JsonNode.Parse(File.ReadAllText(file)) as JsonObject;
            }
            catch (JsonException ex)
            {
                problems.Add($"data/published/{name} is not valid JSON ({ex.Message}). Fix the file (layout: data/README.md).");
                continue;
            }

            if ((string?)document?["schema"] != Schema)
            {
                problems.Add($"data/published/{name} declares schema {(string?)document?["schema"] ?? "(none)"}; this PerfLab reads {Schema}. Convert the file (layout: data/README.md).");
                continue;
            }

            var post = (string?)document["post"] ?? name;
            var machine = MachineText(document["machine"] as JsonObject);
            var fileProblems = new List<string>();
            var fileFigures = new List<Figure>();
            foreach (var node in document["figures"] as JsonArray ?? [])
            {
                if (node is not JsonObject figure || (string?)figure["id"] is not { Length: > 0 } id)
                {
                    fileProblems.Add($"data/published/{name}: a figure has no id.");
                    continue;
                }

                var entry = $"data/published/{name}, {id}";
                if (known is not null && !known.Contains(id))
                {
                    fileProblems.Add($"{entry}: the course outline (data/outline.json) cites no such id. Add it to the notebook that cites it, or correct the id.");
                }

                if (figures.ContainsKey(id.ToUpperInvariant()) || fileFigures.Any(f => f.Id == id))
                {
                    fileProblems.Add($"{entry}: the id appears twice. Keep one entry per figure.");
                }

                fileProblems.AddRange(CheckFigure(figure, entry));
                fileFigures.Add(new Figure(id, post, machine, figure));
            }

            if (fileProblems.Count > 0)
            {
                problems.AddRange(fileProblems);
                continue;
            }

            foreach (var figure in fileFigures)
            {
                figures[figure.Id.ToUpperInvariant()] = figure;
            }
        }

        return new Catalog(figures, problems);
    }

    /// <summary>The rows of a figure's tables, as the course reads them.</summary>
    /// <param name="figure">The figure.</param>
    public static IReadOnlyList<(JsonObject Table, IReadOnlyList<PublishedRow> Rows)> Tables(Figure figure)
    {
        ArgumentNullException.ThrowIfNull(figure);
        return (figure.Node["tables"] as JsonArray ?? []).OfType<JsonObject>()
            .Select(t => (t, (IReadOnlyList<PublishedRow>)(t["rows"] as JsonArray ?? []).OfType<JsonObject>().Select(Row).ToArray()))
            .ToArray();
    }

    private static HashSet<string>? KnownIds(string outlinePath, List<string> problems)
    {
        if (!File.Exists(outlinePath))
        {
            return null;
        }

        try
        {
            var outline = JsonNode.Parse(File.ReadAllText(outlinePath))!;
            return (outline["notebooks"] as JsonObject ?? []).SelectMany(n => (n.Value as JsonArray ?? []).Select(i => (string?)i)).OfType<string>().ToHashSet(StringComparer.Ordinal);
        }
        catch (JsonException ex)
        {
            problems.Add($"data/outline.json is not valid JSON ({ex.Message}); published ids are not checked against it. Fix the file.");
            return null;
        }
    }

    private static IEnumerable<string> CheckFigure(JsonObject figure, string entry)
    {
        var kind = (string?)figure["kind"];
        if (kind is not ("runtimes" or "variants" or "asm" or "output"))
        {
            yield return $"{entry}: kind is {kind ?? "(none)"}; expected runtimes, variants, asm or output.";
            yield break;
        }

        if (kind == "output")
        {
            if (figure["output"] is not JsonObject output || (string?)output["source"] is not { Length: > 0 } || output["printed"] is not JsonObject { Count: > 0 })
            {
                yield return $"{entry}: an output figure needs output.source (the post's lines) and output.printed (runtime -> what the program printed).";
            }

            yield break;
        }

        if (kind == "asm")
        {
            if (figure["asm"] is not JsonObject asm || ((string?)asm["source"] is not { Length: > 0 } && asm["codeBytes"] is not JsonObject))
            {
                yield return $"{entry}: an asm figure needs asm.source (the post's listing lines) or asm.codeBytes (runtime -> bytes).";
            }

            yield break;
        }

        var tables = (figure["tables"] as JsonArray ?? []).OfType<JsonObject>().ToArray();
        if (tables.Length == 0)
        {
            yield return $"{entry}: a {kind} figure needs at least one table of rows.";
        }

        foreach (var (table, t) in tables.Select((t, i) => (t, i + 1)))
        {
            foreach (var (row, r) in (table["rows"] as JsonArray ?? []).OfType<JsonObject>().Select((row, i) => (row, i + 1)))
            {
                var at = $"{entry}, table {t}, row {r}";
                if ((string?)row["method"] is not { Length: > 0 } || (string?)row["runtime"] is not { Length: > 0 })
                {
                    yield return $"{at}: every row needs method and runtime.";
                }

                if (row["mean"] is not JsonValue mean || !mean.TryGetValue<double>(out var value) || value < 0)
                {
                    yield return $"{at}: mean is missing or not a non-negative number.";
                }

                if ((string?)row["unit"] is not { } unit || !Units.Contains(unit))
                {
                    yield return $"{at}: unit is {(string?)row["unit"] ?? "(none)"}; use one of {string.Join(", ", Units)} (us for microseconds).";
                }
            }
        }
    }

    private static PublishedRow Row(JsonObject row)
    {
        var scale = (string?)row["unit"] switch { "us" => 1e3, "ms" => 1e6, "s" => 1e9, _ => 1.0 };
        var parameters = (row["params"] as JsonObject ?? []).ToDictionary(p => p.Key, p => p.Value?.ToString() ?? "", StringComparer.Ordinal);
        return new PublishedRow(
            (string)row["method"]!,
            (string)row["runtime"]!,
            parameters,
            (double)row["mean"]! * scale,
            (double?)row["ratio"],
            (long?)row["allocatedBytes"],
            (long?)row["codeBytes"]);
    }

    private static PublishedComparison Compare(Figure figure, string method, bool explicitRow, IReadOnlyList<CaseParameter> parameters, bool isBaseline)
    {
        var node = figure.Node;
        var kind = (string)node["kind"]!;
        var prs = string.Join(", ", (node["prs"] as JsonArray ?? []).Select(p => (string?)p));
        var shown = kind == "output" ? OutputText(node["output"] as JsonObject) : AsmText(node["asm"] as JsonObject);
        var comparison = new PublishedComparison(figure.Id, figure.Post, (string?)node["section"] ?? "", prs, figure.Machine, kind, null, null, shown, (string?)node["hardware"]);
        if (kind is "asm" or "output")
        {
            return comparison;
        }

        // The last table that holds the method: later tables are the post's final numbers (after fixes).
        foreach (var (table, rows) in Tables(figure).Reverse())
        {
            var methods = rows.Select(r => r.Method).Distinct(StringComparer.Ordinal).ToArray();
            var baseline = (string?)table["baseline"] ?? methods[0];
            var chosen = methods.FirstOrDefault(m => string.Equals(m, method, StringComparison.OrdinalIgnoreCase))
                ?? (explicitRow ? null
                    : methods.Length == 1 ? methods[0]
                    : kind == "variants" && methods.Length == 2 ? (isBaseline ? baseline : methods.First(m => m != baseline))
                    : null);
            var candidates = rows.Where(r => r.Method == chosen && SameParameters(r, parameters)).ToArray();
            if (candidates.Length == 0 && explicitRow && OneParameterSet(rows, chosen) is { } named)
            {
                // The row is named and the post ran it with one input: the course's own input stands in for the post's.
                candidates = named;
            }

            if (candidates.Length == 0)
            {
                continue;
            }

            if (kind == "runtimes" && candidates.Select(r => r.Runtime).Distinct().Count() >= 2)
            {
                return comparison with { Before = candidates[0], After = candidates[^1] };
            }

            if (kind == "variants" && rows.FirstOrDefault(r => r.Method == baseline && r.Runtime == candidates[^1].Runtime && SameParameters(r, parameters)) is { } before)
            {
                return comparison with { Before = before, After = candidates[^1] };
            }
        }

        return comparison;
    }

    private static string? AsmText(JsonObject? asm)
    {
        if (asm is null)
        {
            return null;
        }

        var sizes = (asm["codeBytes"] as JsonObject ?? []).Select(p => $"{p.Key} {p.Value} B").ToArray();
        var where = (string?)asm["source"] is { } source ? $" (the post's listing at {source})" : "";
        return (sizes.Length > 0 ? "code size " + string.Join(" -> ", sizes) : "a listing") + where;
    }

    private static string? OutputText(JsonObject? output) => output is null
        ? null
        : string.Join("; ", (output["printed"] as JsonObject ?? []).Select(p => $"{p.Key} printed {p.Value}")) + $" (the post's program at {(string?)output["source"]})";

    // The rows of a method the post ran with a single set of parameter values, or null.
    private static PublishedRow[]? OneParameterSet(IReadOnlyList<PublishedRow> rows, string? method)
    {
        var named = rows.Where(r => r.Method == method).ToArray();
        return named.Length > 0 && named.Select(r => string.Join(",", r.Parameters.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => p.Key + "=" + p.Value))).Distinct().Count() == 1 ? named : null;
    }

    // A row without parameter columns fits any case; a row with them needs the case's values.
    private static bool SameParameters(PublishedRow row, IReadOnlyList<CaseParameter> parameters) =>
        row.Parameters.All(p => parameters.Any(c => string.Equals(c.Name, p.Key, StringComparison.OrdinalIgnoreCase) && c.Value == p.Value.Replace(",", "", StringComparison.Ordinal)));

    private static string MachineText(JsonObject? machine) => machine is null
        ? "the post's machine"
        : "the post's machine (" + string.Join(", ", new[] { "cpu", "os", "runtimes", "gc" }.Select(k => (string?)machine[k]).OfType<string>()) + ")";
}
