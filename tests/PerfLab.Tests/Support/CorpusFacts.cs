using System.Text.RegularExpressions;

namespace PerfLab.Tests.Support;

/// <summary>One pattern counted on the pinned corpus with <see cref="Regex.Count(string, string, RegexOptions)"/>.</summary>
/// <param name="Pattern">The pattern (the posts' patterns, and the corpus's e-mail and date shapes).</param>
/// <param name="Options">The options it is counted with.</param>
/// <param name="Expected">The count on the pinned corpus (<see cref="CorpusFacts"/>).</param>
public sealed record PatternCount(string Pattern, RegexOptions Options, int Expected)
{
    public override string ToString() => Options == RegexOptions.None ? Pattern : $"{Pattern} ({Options})";
}

/// <summary>How often one char occurs in the pinned corpus (as bytes: the text is ASCII).</summary>
public sealed record CharCount(char Char, int Expected)
{
    public override string ToString() => $"U+{(int)Char:X4}";
}

/// <summary>
/// What <c>Corpus.Prose(1_000_000, 1)</c> is, pinned: its SHA-256 and the counts below; and the SHA-256 of the
/// made-up words collections/03 counts. CorpusTests checks them on the test's runtime, CorpusRuntimesTests on
/// .NET 8, 9 and 10. A change to a generator changes them; change them with it, deliberately, and
/// data/corpora/README.md's statistics too.
/// </summary>
public static class CorpusFacts
{
    public const int Length = 1_000_000;
    public const int Seed = 1;

    /// <summary>SHA-256 of the text's bytes (<c>Corpus.ProseUtf8(Length, Seed)</c>), lower-case hex.</summary>
    public const string Sha256 = "98fe7af678f7433f65fcd80c356b0e25b0d29da391233e0cada17f7cfbdb3cb3";

    /// <summary>Regex counts (RegexOptions.None unless said): the posts' regex benchmarks and the corpus's planted shapes.</summary>
    public static readonly IReadOnlyList<PatternCount> Patterns =
    [
        new(@"\bTwain\b", RegexOptions.None, 46),
        new(@"\bConnecticut\b", RegexOptions.None, 20),
        new(@"\bMark\b", RegexOptions.None, 48),
        new("Mark", RegexOptions.None, 48),
        new(@"\ba\b", RegexOptions.IgnoreCase, 5_305),
        new("hello", RegexOptions.None, 4),
        new("(?=^)hello", RegexOptions.None, 0),
        new("the", RegexOptions.IgnoreCase, 17_056),
        new("something", RegexOptions.IgnoreCase, 383),
        new(@"\b\w+\b", RegexOptions.None, 212_958),
        new("([a-z]+ )+[A-Z]", RegexOptions.None, 6_906),
        new("ab|a", RegexOptions.None, 60_363),
        new(@"(?=.*\bTwain\b.*\bConnecticut\b)*.*Mark", RegexOptions.None, 48),
        new(@"\s+\S+", RegexOptions.None, 208_776),
        new(@"[\w.+-]+@[\w-]+\.[\w.-]+", RegexOptions.None, 21),
        new(@"\d{4}-\d{2}-\d{2}", RegexOptions.None, 25),
    ];

    /// <summary>The made-up words collections/03 counts: <c>Corpus.MadeUpWords(MadeUpWords, MadeUpVocabulary, MadeUpSeed)</c>.</summary>
    public const int MadeUpWords = 200_000;
    public const int MadeUpVocabulary = 20_000;
    public const int MadeUpSeed = 2600;

    /// <summary>SHA-256 of that text's ASCII bytes, lower-case hex.</summary>
    public const string MadeUpSha256 = "5df36eac13dcb4256df1d5aab5a73ba7a5c342f65ab0923a9c7ba73f9dfc6792";

    /// <summary>Char counts: .NET 10's SearchValues benchmark looks for "\0\r&amp;&lt;"; '@' counts the e-mail addresses.</summary>
    public static readonly IReadOnlyList<CharCount> Chars =
    [
        new('\r', 19_352),
        new('&', 0),
        new('<', 0),
        new('\0', 0),
        new('@', 21),
        new('`', 0),
    ];
}
