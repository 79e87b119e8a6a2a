using System.Globalization;
using System.Text.RegularExpressions;

namespace PerfLab.Tests.Support;

/// <summary>
/// How the posts' digests (../shared/reference) name their figures: each digest's file and the prefix of its
/// figure ids in data/published, and the lines that start an entry: <c>**J27 — </c> or <c>**S09–S13 — </c>
/// (the .NET 9 and 10 digests), <c>#### LQ03 · </c> (the .NET Core 3.0 digest).
/// </summary>
public static partial class DigestEntries
{
    /// <summary>Each digest's file name and the prefix of its figure ids in data/published.</summary>
    public static IReadOnlyDictionary<string, string> Prefixes { get; } = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["post-net10-digest.md"] = "N10",
        ["post-net9-digest.md"] = "N9",
        ["post-netcore30-digest.md"] = "C30",
    };

    /// <summary>The figure ids (e.g. N10-J27) whose entry <paramref name="line"/> starts; none when it starts none.</summary>
    public static IReadOnlyList<string> Starting(string prefix, string line)
    {
        if (EntryStart().Match(line) is not { Success: true } start)
        {
            return [];
        }

        var from = int.Parse(start.Groups["from"].Value, CultureInfo.InvariantCulture);
        var to = start.Groups["to"].Success ? int.Parse(start.Groups["to"].Value, CultureInfo.InvariantCulture) : from;
        return Enumerable.Range(from, to - from + 1).Select(n => $"{prefix}-{start.Groups["letters"].Value}{n:00}").ToArray();
    }

    /// <summary>Whether <paramref name="line"/> ends the entry before it (a heading or a rule).</summary>
    public static bool Ends(string line) => line.StartsWith('#') || line.StartsWith("---", StringComparison.Ordinal);

    [GeneratedRegex(@"^(?:\*\*|#### )(?<letters>[A-Z]{1,2})(?<from>\d\d)(?:[–-](?:[A-Z]{1,2})?(?<to>\d\d))? (?:—|·) ")]
    private static partial Regex EntryStart();
}
