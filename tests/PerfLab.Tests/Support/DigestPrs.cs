using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;

namespace PerfLab.Tests.Support;

/// <summary>
/// Which pull requests the digests of the "Performance Improvements in .NET" posts (../shared/reference, not in
/// the repository) name in each figure's entry, so that data/published's <c>prs</c> can be checked where the
/// digests are not. The result is committed (Data/digest-prs.json) with the SHA-256 of the digests it was made
/// from; where the digests are, the committed file must equal a fresh extraction.
/// <para>
/// An entry starts at a line <see cref="DigestEntries"/> recognizes and runs to the next entry, heading or rule. A reference is
/// <c>dotnet/repo#N</c>, or a bare <c>#N</c>: that one belongs to the repository of the reference before it on
/// the same line, unless a sentence or the word "PR" comes between (then to dotnet/runtime in the .NET 9 and 10
/// digests). Text in code spans and anything called an issue are skipped. "Same PRs as J15" credits that entry's
/// PRs too.
/// </para>
/// <para>
/// A PR is an <em>aside</em> when the entry names it only in a side remark: a bullet whose label says so
/// ("Prose only:", "No-benchmark note:", "Related PRs with no benchmark:"), or a parenthesis or sentence
/// holding a marker such as "mentioned without a benchmark", "also mentioned", "same bullet" or "not
/// benchmarked". The others are the entry's <em>PRs</em>: what it credits for the figure's change.
/// </para>
/// </summary>
public static partial class DigestPrs
{
    /// <summary>The schema the committed file declares.</summary>
    public const string Schema = "perflab-digest-prs/1";

    /// <summary>The PRs one digest entry credits, and those it names only in a side remark.</summary>
    public sealed record Entry(IReadOnlyList<string> Prs, IReadOnlyList<string> Asides);

    /// <summary>Every figure's entry by id (e.g. N10-J40), and the SHA-256 (hex) of the digests they come from.</summary>
    public sealed record Extraction(string DigestsSha256, IReadOnlyDictionary<string, Entry> Figures)
    {
        /// <summary>The committed file's text: one figure a line, ids and PRs in order, '\n' line ends.</summary>
        public string ToJson()
        {
            var text = new StringBuilder();
            text.Append("{\n");
            text.Append(CultureInfo.InvariantCulture, $"  \"schema\": {Quote(Schema)},\n");
            text.Append(CultureInfo.InvariantCulture, $"  \"madeBy\": {Quote("tests/PerfLab.Tests/Support/DigestPrs.cs from ../shared/reference/post-*-digest.md; remake: PERFLAB_UPDATE_DIGEST_PRS=1")},\n");
            text.Append(CultureInfo.InvariantCulture, $"  \"digestsSha256\": {Quote(DigestsSha256)},\n");
            text.Append("  \"figures\": {\n");
            var ids = Figures.Keys.Order(StringComparer.Ordinal).ToArray();
            for (var i = 0; i < ids.Length; i++)
            {
                var entry = Figures[ids[i]];
                text.Append(CultureInfo.InvariantCulture, $"    {Quote(ids[i])}: {{ \"prs\": [{string.Join(", ", entry.Prs.Select(Quote))}], \"asides\": [{string.Join(", ", entry.Asides.Select(Quote))}] }}");
                text.Append(i < ids.Length - 1 ? ",\n" : "\n");
            }

            text.Append("  }\n}\n");
            return text.ToString();
        }

        /// <summary>Reads a file <see cref="ToJson"/> wrote.</summary>
        public static Extraction Read(string path)
        {
            var root = JsonNode.Parse(File.ReadAllText(path))!;
            if ((string?)root["schema"] != Schema)
            {
                throw new InvalidDataException($"{path} declares schema {(string?)root["schema"]}, not {Schema}: make it again (PERFLAB_UPDATE_DIGEST_PRS=1).");
            }

            static string[] List(JsonNode? node) => (node as JsonArray ?? []).Select(n => (string)n!).ToArray();
            var figures = root["figures"]!.AsObject().ToDictionary(
                f => f.Key,
                f => new Entry(List(f.Value!["prs"]), List(f.Value!["asides"])),
                StringComparer.Ordinal);
            return new Extraction((string)root["digestsSha256"]!, figures);
        }

        private static string Quote(string value) => JsonSerializer.Serialize(value);
    }

    /// <summary>The three digests of a folder as (file name, text), in file-name order.</summary>
    public static IReadOnlyList<(string Name, string Text)> ReadDigests(string folder) =>
        DigestEntries.Prefixes.Keys.Order(StringComparer.Ordinal)
            .Select(name => (name, File.ReadAllText(Path.Combine(folder, name))))
            .ToList();

    /// <summary>Every entry of the digests, by figure id.</summary>
    public static Extraction Extract(IReadOnlyList<(string Name, string Text)> digests)
    {
        var figures = new Dictionary<string, Entry>(StringComparer.Ordinal);
        foreach (var (name, text) in digests)
        {
            var prefix = DigestEntries.Prefixes.TryGetValue(name, out var known) ? known : throw new ArgumentException($"{name}: not a digest this extraction knows ({string.Join(", ", DigestEntries.Prefixes.Keys)}).", nameof(digests));
            foreach (var (id, entry) in ExtractDigest(prefix, text))
            {
                figures.Add(id, entry);
            }
        }

        using var sha = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        foreach (var (name, text) in digests.OrderBy(d => d.Name, StringComparer.Ordinal))
        {
            sha.AppendData(Encoding.UTF8.GetBytes(name + "\0" + text + "\0"));
        }

        return new Extraction(Convert.ToHexStringLower(sha.GetHashAndReset()), figures);
    }

    /// <summary>The entries of one digest whose ids take <paramref name="prefix"/> (N9, N10, C30).</summary>
    public static IReadOnlyDictionary<string, Entry> ExtractDigest(string prefix, string text)
    {
        var prs = new Dictionary<string, SortedSet<string>>(StringComparer.Ordinal);
        var asides = new Dictionary<string, SortedSet<string>>(StringComparer.Ordinal);
        var same = new Dictionary<string, string>(StringComparer.Ordinal);
        var defaultRepo = prefix is "N9" or "N10" ? "dotnet/runtime" : null;
        IReadOnlyList<string> current = [];
        var lineNumber = 0;
        foreach (var raw in text.Split('\n'))
        {
            lineNumber++;
            var line = raw.TrimEnd('\r');
            if (DigestEntries.Starting(prefix, line) is { Count: > 0 } started)
            {
                current = started;
                foreach (var id in current)
                {
                    prs[id] = new SortedSet<string>(PrOrder);
                    asides[id] = new SortedSet<string>(PrOrder);
                }
            }
            else if (DigestEntries.Ends(line))
            {
                current = [];
            }

            if (current.Count == 0)
            {
                continue;
            }

            var plain = CodeSpan().Replace(line, m => new string(' ', m.Length));
            (string Repo, int End)? previous = null;
            foreach (Match reference in Reference().Matches(plain))
            {
                if (IssueBefore().IsMatch(plain.AsSpan(0, reference.Index)))
                {
                    previous = null;
                    continue;
                }

                var repo = reference.Groups["repo"].Success ? reference.Groups["repo"].Value
                    : previous is { } before && !NewSentenceOrPr().IsMatch(plain[before.End..reference.Index]) ? before.Repo
                    : defaultRepo ?? throw new InvalidDataException($"{prefix} digest, line {lineNumber}: #{reference.Groups["number"].Value} names no repository.");
                previous = (repo, reference.Index + reference.Length);
                var pr = $"{repo}#{reference.Groups["number"].Value}";
                var aside = IsAside(plain, reference.Index);
                foreach (var id in current)
                {
                    (aside ? asides : prs)[id].Add(pr);
                }
            }

            if (SamePrsAs().Match(plain) is { Success: true } sameAs)
            {
                foreach (var id in current)
                {
                    same[id] = $"{prefix}-{sameAs.Groups["id"].Value}";
                }
            }
        }

        foreach (var (id, other) in same)
        {
            prs[id].UnionWith(prs.TryGetValue(other, out var credited) ? credited : throw new InvalidDataException($"{id} names {other}'s PRs, but the digest has no entry {other}."));
        }

        return prs.ToDictionary(
            p => p.Key,
            p => new Entry(p.Value.ToArray(), asides[p.Key].Where(a => !p.Value.Contains(a)).ToArray()),
            StringComparer.Ordinal);
    }

    /// <summary>
    /// The PRs data/published lists for a figure that its digest entry does not credit: one message each, naming
    /// the figure and the PR (a figure without an entry is one message).
    /// </summary>
    public static IEnumerable<string> Uncredited(string figureId, IEnumerable<string> listed, Extraction digests)
    {
        // A figure that lists no PR has nothing to credit: the digests' index of tables beyond their sections
        // (N9-V01's exception throughput) gives numbers and no PR.
        var prs = listed.ToList();
        if (prs.Count == 0)
        {
            yield break;
        }

        if (!digests.Figures.TryGetValue(figureId, out var entry))
        {
            yield return $"{figureId}: the digests have no entry for this figure.";
            yield break;
        }

        foreach (var pr in prs)
        {
            if (entry.Asides.Contains(pr, StringComparer.Ordinal))
            {
                yield return $"{figureId} lists {pr}, which its digest entry names only in a side remark (no benchmark of its own).";
            }
            else if (!entry.Prs.Contains(pr, StringComparer.Ordinal))
            {
                yield return $"{figureId} lists {pr}, which its digest entry does not name.";
            }
        }
    }

    // Whether the reference at `position` of a line (code spans blanked) sits in a side remark: a bullet labelled
    // as one, or a parenthesis (without the parentheses inside it) or sentence (without its parentheses) that says so.
    private static bool IsAside(string line, int position)
    {
        var label = BulletLabel().Match(line);
        if (label.Success && Marker().IsMatch(label.Groups["label"].Value))
        {
            return true;
        }

        var spans = Parentheses(line);
        foreach (var (open, close) in spans.Where(s => s.Open < position && position < s.Close))
        {
            var inside = Blank(line, spans.Where(s => s.Open > open && s.Close < close))[open..(close + 1)];
            if (Marker().IsMatch(inside))
            {
                return true;
            }
        }

        var outside = Blank(line, spans.Where(s => !spans.Any(o => o.Open < s.Open && s.Close < o.Close)));
        var sentenceStart = 0;
        foreach (Match end in SentenceEnd().Matches(outside))
        {
            if (end.Index + end.Length > position)
            {
                return Marker().IsMatch(outside[sentenceStart..(end.Index + 1)]);
            }

            sentenceStart = end.Index + end.Length;
        }

        return Marker().IsMatch(outside[sentenceStart..]);
    }

    private static List<(int Open, int Close)> Parentheses(string line)
    {
        var spans = new List<(int, int)>();
        var open = new Stack<int>();
        for (var i = 0; i < line.Length; i++)
        {
            if (line[i] == '(')
            {
                open.Push(i);
            }
            else if (line[i] == ')' && open.Count > 0)
            {
                spans.Add((open.Pop(), i));
            }
        }

        return spans;
    }

    private static string Blank(string line, IEnumerable<(int Open, int Close)> spans)
    {
        var chars = line.ToCharArray();
        foreach (var (open, close) in spans)
        {
            Array.Fill(chars, ' ', open, close - open + 1);
        }

        return new string(chars);
    }

    // dotnet/coreclr#9 before dotnet/runtime#10 before dotnet/runtime#100.
    private static readonly Comparer<string> PrOrder = Comparer<string>.Create((a, b) =>
    {
        var (repoA, numberA) = (a[..a.IndexOf('#')], long.Parse(a[(a.IndexOf('#') + 1)..], CultureInfo.InvariantCulture));
        var (repoB, numberB) = (b[..b.IndexOf('#')], long.Parse(b[(b.IndexOf('#') + 1)..], CultureInfo.InvariantCulture));
        var byRepo = string.CompareOrdinal(repoA, repoB);
        return byRepo != 0 ? byRepo : numberA.CompareTo(numberB);
    });

    [GeneratedRegex(@"`[^`\n]*`")]
    private static partial Regex CodeSpan();

    [GeneratedRegex(@"(?:(?<repo>dotnet/[A-Za-z0-9.-]+)|(?<![\w&]))#(?<number>\d+)")]
    private static partial Regex Reference();

    [GeneratedRegex(@"\bissue\s*$", RegexOptions.IgnoreCase)]
    private static partial Regex IssueBefore();

    [GeneratedRegex(@"\.\s+[A-Z]|\bPRs?\b")]
    private static partial Regex NewSentenceOrPr();

    [GeneratedRegex(@"same PRs? (?:family )?as (?<id>[A-Z]{1,2}\d\d)")]
    private static partial Regex SamePrsAs();

    // "- *Prose only:* ...", "- No-benchmark note: ...", "*(Not benchmarked in Other Collections: ...": the text before the first colon.
    [GeneratedRegex(@"^[\s\-*(]*(?<label>[^:]{1,60}):")]
    private static partial Regex BulletLabel();

    [GeneratedRegex(@"prose[ -]only|no[ -]benchmark|not benchmarked|without (?:a |their own )?benchmarks?|also mentioned|mentioned without|same bullet", RegexOptions.IgnoreCase)]
    private static partial Regex Marker();

    [GeneratedRegex(@"\.\s+(?=[A-Z*])")]
    private static partial Regex SentenceEnd();
}
