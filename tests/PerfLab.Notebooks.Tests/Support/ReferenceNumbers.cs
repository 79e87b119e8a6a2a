using System.Globalization;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using PerfLab.Course;
using PerfLab.Notebooks.Documents;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// Numbers a notebook's prose quotes from the course's reference run (data/reference/machines, full mode), each
/// followed by a marker naming what it quotes, hidden from readers as an HTML comment:
/// <code>
/// 0.73&lt;!-- reference: SharedGenericEquality.TextsMatch@net10.0 / SharedGenericEquality.TextsMatch@net9.0 --&gt;
/// 2.1 µs&lt;!-- reference: ConcurrentWalk.SumValues@net10.0 µs --&gt;
/// 56 B&lt;!-- reference: ConcurrentWalk.SumValues@net9.0 B --&gt;
/// </code>
/// A point is <c>Class.Method[(Param=value, ...)]@runtime[{NAME=value, ...}]</c> (the braces: the run's environment,
/// e.g. <c>{DOTNET_TieredCompilation=0}</c>); two points with <c>/</c> between them are the ratio of their means (a
/// number written "3.45x" is read as 3.45; <c>bytes A / B</c> is the ratio of their bytes allocated per call). One point ends with its unit: <c>ns</c>, <c>µs</c>, <c>ms</c> (its mean) or
/// <c>B</c> (bytes allocated per call). The number must be the reference value at the precision it is written with.
/// </summary>
public static partial class ReferenceNumbers
{
    /// <summary>The reference machine whose file the prose quotes.</summary>
    public const string MachineFile = CourseRepository.ReferenceMachinesFolder + "/course-machine-linux-x64.json";

    /// <summary>One marked number.</summary>
    /// <param name="Notebook">The notebook, relative to the repository root with forward slashes.</param>
    /// <param name="Cell">The markdown cell's name, e.g. "cell 17".</param>
    /// <param name="Written">The number as the prose writes it.</param>
    /// <param name="Expression">The marker's text after "reference:".</param>
    public sealed record Quote(string Notebook, string Cell, string Written, string Expression)
    {
        public override string ToString() => $"{Notebook} {Cell}: {Written} <!-- reference: {Expression} -->";
    }

    /// <summary>Every marked number in the markdown cells of <paramref name="notebookPath"/>.</summary>
    public static IReadOnlyList<Quote> In(string notebookPath, string repositoryRoot)
    {
        var relative = Path.GetRelativePath(repositoryRoot, notebookPath).Replace('\\', '/');
        return NotebookDocument.Load(notebookPath).Cells
            .Where(c => c.Kind == CellKind.Markdown)
            .SelectMany(c => Marker().Matches(c.Source).Select(m => new Quote(relative, c.Name, m.Groups["number"].Value, m.Groups["expression"].Value.Trim())))
            .ToList();
    }

    /// <summary>Markers whose number is not directly before them, or that say something other than "reference:".</summary>
    public static IEnumerable<string> Stray(string notebookPath, string repositoryRoot)
    {
        var relative = Path.GetRelativePath(repositoryRoot, notebookPath).Replace('\\', '/');
        foreach (var cell in NotebookDocument.Load(notebookPath).Cells.Where(c => c.Kind == CellKind.Markdown))
        {
            var anchored = Marker().Matches(cell.Source).Select(m => m.Groups["marker"].Index).ToHashSet();
            foreach (Match any in AnyMarker().Matches(cell.Source))
            {
                if (!anchored.Contains(any.Index))
                {
                    yield return $"{relative} {cell.Name}: \"{any.Value}\" does not follow a number (write it right after the number it names, e.g. 0.73<!-- reference: ... -->)";
                }
            }
        }
    }

    /// <summary>
    /// Sentences that present a measurement without saying whose it is: "our machine", "our runs", "we ran"
    /// (the course's reference run, with markers, or quick runs, said so), and sentences that quote the reference
    /// run with a number but carry no marker.
    /// </summary>
    public static IEnumerable<string> Unquoted(string notebookPath, string repositoryRoot)
    {
        var relative = Path.GetRelativePath(repositoryRoot, notebookPath).Replace('\\', '/');
        foreach (var cell in NotebookDocument.Load(notebookPath).Cells.Where(c => c.Kind == CellKind.Markdown))
        {
            foreach (var sentence in SentenceEnd().Split(cell.Source))
            {
                var bare = AnyMarker().Replace(sentence, "");
                var problem = FirstPerson().IsMatch(bare)
                    ? "says \"our\" or \"we\" about a measurement: name it (the course's reference run, with markers, or quick runs on the course machine)"
                    : ReferenceRun().IsMatch(bare) && MeasuredNumber().IsMatch(bare) && !AnyMarker().IsMatch(sentence)
                        ? "quotes the reference run without a marker after its numbers"
                        : null;
                if (problem is not null)
                {
                    yield return $"{relative} {cell.Name}: \"{bare.ReplaceLineEndings(" ").Trim()}\" {problem}";
                }
            }
        }
    }

    /// <summary>Null when <paramref name="quote"/> is the reference file's value; otherwise why not.</summary>
    public static string? Check(Quote quote, JsonObject reference)
    {
        double expected;
        try
        {
            expected = Evaluate(quote, reference, out var unitless);
            if (unitless is false && quote.Written.EndsWith('x'))
            {
                return $"{quote}: a mean or a byte count is not written with an x";
            }
        }
        catch (FormatException ex)
        {
            return $"{quote}: {ex.Message}";
        }

        return AtPrecision(quote.Written.TrimEnd('x'), expected) is { } says ? $"{quote}: the reference run says {says}, not {quote.Written}" : null;
    }

    /// <summary>
    /// Null when <paramref name="number"/> (digits, optional decimals) is <paramref name="expected"/> at the precision it
    /// is written with; otherwise what it should say, e.g. "0.7312 (0.73 at the precision written)". Every quoted number
    /// is compared this way: the reference run's here, the timings file's in <see cref="TimingQuotes"/>.
    /// </summary>
    /// <param name="number">The number as written.</param>
    /// <param name="expected">The value it quotes.</param>
    /// <param name="unit">Written after each value in the answer, e.g. " s".</param>
    public static string? AtPrecision(string number, double expected, string unit = "")
    {
        var decimals = number.Contains('.', StringComparison.Ordinal) ? number.Length - number.IndexOf('.', StringComparison.Ordinal) - 1 : 0;
        var written = double.Parse(number, CultureInfo.InvariantCulture);
        var tolerance = 0.5 * Math.Pow(10, -decimals) + 1e-9;
        return Math.Abs(expected - written) <= tolerance
            ? null
            : string.Create(CultureInfo.InvariantCulture, $"{Math.Round(expected, decimals + 2)}{unit} ({expected.ToString("F" + decimals, CultureInfo.InvariantCulture)}{unit} at the precision written)");
    }

    private static double Evaluate(Quote quote, JsonObject reference, out bool unitless)
    {
        var bytes = quote.Expression.StartsWith("bytes ", StringComparison.Ordinal);
        var parts = quote.Expression[(bytes ? "bytes ".Length : 0)..].Split(" / ", StringSplitOptions.TrimEntries);
        if (parts.Length == 2)
        {
            unitless = true;
            if (bytes)
            {
                return BytesOf(Result(quote.Notebook, Point(parts[0]), reference), Point(parts[0])) / BytesOf(Result(quote.Notebook, Point(parts[1]), reference), Point(parts[1]));
            }

            var (over, under) = (Point(parts[0]), Point(parts[1]));

            // A ratio reads both points from one run when one run has both (a cell can run a class twice).
            var together = Matches(quote.Notebook, over, reference).Select(m => m.Run)
                .Intersect(Matches(quote.Notebook, under, reference).Select(m => m.Run))
                .ToList();
            return together.Count == 1
                ? MeanOf(Matches(quote.Notebook, over, reference).Single(m => m.Run == together[0]).Result, over) / MeanOf(Matches(quote.Notebook, under, reference).Single(m => m.Run == together[0]).Result, under)
                : Mean(quote.Notebook, over, reference) / Mean(quote.Notebook, under, reference);
        }

        unitless = false;
        var lastSpace = quote.Expression.LastIndexOf(' ');
        if (parts.Length != 1 || lastSpace < 0)
        {
            throw new FormatException("expected \"POINT / POINT\" or \"POINT UNIT\" (ns, µs, ms, B)");
        }

        var point = Point(quote.Expression[..lastSpace]);
        return quote.Expression[(lastSpace + 1)..] switch
        {
            "ns" => Mean(quote.Notebook, point, reference),
            "µs" or "us" => Mean(quote.Notebook, point, reference) / 1e3,
            "ms" => Mean(quote.Notebook, point, reference) / 1e6,
            "B" => BytesOf(Result(quote.Notebook, point, reference), point),
            var unit => throw new FormatException($"unknown unit \"{unit}\" (ns, µs, ms or B)"),
        };
    }

    private sealed record Target(string Case, string Runtime, IReadOnlyDictionary<string, string> Environment)
    {
        public override string ToString() =>
            $"{Case}@{Runtime}" + (Environment.Count == 0 ? "" : "{" + string.Join(", ", Environment.Select(e => $"{e.Key}={e.Value}")) + "}");
    }

    private static Target Point(string text)
    {
        var match = PointSyntax().Match(text.Trim());
        if (!match.Success)
        {
            throw new FormatException($"\"{text}\" is not Class.Method[(Param=value)]@runtime[{{NAME=value}}]");
        }

        var environment = match.Groups["env"].Success
            ? match.Groups["env"].Value.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries).Select(p => p.Split('=', 2)).ToDictionary(p => p[0], p => p[1])
            : [];
        return new Target(match.Groups["case"].Value, match.Groups["runtime"].Value, environment);
    }

    private static double Mean(string notebook, Target point, JsonObject reference) => MeanOf(Result(notebook, point, reference), point);

    private static double BytesOf(JsonNode result, Target point) =>
        (double?)result["allocatedBytes"] ?? throw new FormatException($"{point} has no bytes allocated in the reference run");

    private static double MeanOf(JsonNode result, Target point) =>
        (double?)result["statistics"]?["mean"] ?? throw new FormatException($"{point} has no mean in the reference run (it failed there)");

    // The one result of the notebook's runs with this case, runtime and environment.
    private static JsonNode Result(string notebook, Target point, JsonObject reference)
    {
        var found = Matches(notebook, point, reference);
        return found.Count switch
        {
            1 => found[0].Result,
            0 => throw new FormatException($"the reference run has no {point} for {notebook} (it has {string.Join(", ", RunsOf(notebook, reference).SelectMany(r => r["results"]!.AsArray().Select(CaseOf)).Distinct().Take(12))})"),
            _ => throw new FormatException($"the reference run has {found.Count} results for {point} ({string.Join(", ", found.Select(f => (string?)f.Run["source"]))}): name its environment, or quote it as a ratio with a point of the same run"),
        };
    }

    private static List<(JsonNode Run, JsonNode Result)> Matches(string notebook, Target point, JsonObject reference) =>
        RunsOf(notebook, reference)
            .Where(r => SameEnvironment(r["environment"] as JsonObject, point.Environment))
            .SelectMany(r => r["results"]!.AsArray().Select(x => (Run: r, Result: x!)))
            .Where(x => CaseOf(x.Result) == point.Case && (string?)x.Result["runtime"] == point.Runtime)
            .ToList();

    private static IEnumerable<JsonNode> RunsOf(string notebook, JsonObject reference) =>
        reference["runs"]!.AsArray()
            .Select(r => r!["run"]!)
            .Where(r => ((string?)r["source"] ?? "").StartsWith(notebook + ",", StringComparison.Ordinal));

    private static string CaseOf(JsonNode? result)
    {
        var type = (string?)result!["type"] ?? "";
        return $"{type[(type.LastIndexOfAny(['.', '+']) + 1)..]}.{(string?)result["displayName"]}";
    }

    private static bool SameEnvironment(JsonObject? run, IReadOnlyDictionary<string, string> wanted) =>
        (run?.Count ?? 0) == wanted.Count && wanted.All(w => (string?)run?[w.Key] == w.Value);

    // A number (digits, optional decimals, optional x), an optional unit word, then the marker.
    [GeneratedRegex(@"(?<number>\d+(?:\.\d+)?x?)(?:\s?(?:ns|µs|us|ms|B))?(?<marker><!--\s*reference:(?<expression>.*?)-->)")]
    private static partial Regex Marker();

    [GeneratedRegex(@"(?<=[.!?])\s+")]
    private static partial Regex SentenceEnd();

    // Whitespace, not a space: a line break may fall between the words.
    [GeneratedRegex(@"\b(?:our\s+machine|our\s+runs?|we\s+ran|we\s+measured|in\s+our)\b", RegexOptions.IgnoreCase)]
    private static partial Regex FirstPerson();

    [GeneratedRegex(@"reference (?:run|machine)", RegexOptions.IgnoreCase)]
    private static partial Regex ReferenceRun();

    // A time, a size or a ratio: a number with a unit, or with decimals (not a figure id such as N10-C11).
    [GeneratedRegex(@"\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|B|x)\b|\b\d+\.\d+\b")]
    private static partial Regex MeasuredNumber();

    [GeneratedRegex(@"<!--\s*reference\b.*?-->")]
    private static partial Regex AnyMarker();

    // The parameters may hold one level of parentheses: BenchmarkDotNet shows a long array argument as "00390(...)91056 [81]".
    [GeneratedRegex(@"^(?<case>[A-Za-z_][\w]*\.[A-Za-z_]\w*(?:\((?:[^()]|\([^()]*\))*\))?)@(?<runtime>net\d+\.\d+)(?:\{(?<env>[^}]*)\})?$")]
    private static partial Regex PointSyntax();
}
