using System.Text;

namespace PerfLab.Inputs;

/// <summary>
/// Writes the text of <see cref="Corpus.MadeUpWords"/>: word forms spelled from syllables, drawn with Zipf
/// weights in integers from <see cref="SplitMix64"/>, so a seed gives the same text on every runtime.
/// </summary>
internal static class MadeUpWordsWriter
{
    // Words per sentence: each sentence ends with a period and a line break.
    private const int WordsPerSentence = 15;

    // Sixteen syllables of two letters: a rank's hexadecimal digits, least significant first.
    private static readonly string[] Syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "te", "vo", "zi", "pa", "do", "fe", "gu", "ha", "ji", "bo"];

    // Rank 1 weighs this much, rank r this divided by r: large enough that rank 20,000 still weighs 50,000,000.
    private const long TopWeight = 1_000_000_000_000L;

    public static string Write(int count, int vocabulary, int seed)
    {
        var forms = new string[vocabulary];
        var cumulative = new long[vocabulary];
        long total = 0;
        for (var i = 0; i < vocabulary; i++)
        {
            forms[i] = Spelling(i + 1);
            total += TopWeight / (i + 1);
            cumulative[i] = total;
        }

        var random = new SplitMix64(seed);
        var text = new StringBuilder(count * 8);
        for (var i = 0; i < count; i++)
        {
            var draw = (long)(random.NextUInt64() % (ulong)total);
            text.Append(forms[CumulativeWeights.IndexOf(cumulative, draw)]);
            text.Append(i % WordsPerSentence == WordsPerSentence - 1 ? ".\n" : " ");
        }

        return text.ToString();
    }

    // The spelling of a rank (from 1): one syllable per hexadecimal digit, so every rank has its own.
    private static string Spelling(int rank)
    {
        var word = new StringBuilder(8);
        for (var rest = rank; rest > 0; rest /= Syllables.Length)
        {
            word.Append(Syllables[rest % Syllables.Length]);
        }

        return word.ToString();
    }
}
