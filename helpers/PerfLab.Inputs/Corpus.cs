using System.Text;

namespace PerfLab.Inputs;

/// <summary>
/// A deterministic stand-in for the Project Gutenberg texts the "Performance Improvements in .NET" posts
/// downloaded (The Complete Works of Mark Twain for .NET 10's regex benchmarks, War and Peace for .NET 9's
/// string searches): English-like prose, generated, the same bytes on every runtime and machine.
/// data/corpora/README.md gives its statistics and how they differ from the real texts.
/// </summary>
public static class Corpus
{
    /// <summary>
    /// English-like prose of exactly <paramref name="length"/> chars, the same for a seed on every runtime.
    /// </summary>
    /// <param name="length">How many chars (not lines or words). 1,000,000 is the course's usual size.</param>
    /// <param name="seed">Which text: another seed gives other prose with the same statistics.</param>
    /// <returns>The text; a shorter text of the same seed is a prefix of a longer one, except maybe its last line break (see remarks).</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="length"/> is negative.</exception>
    /// <remarks>
    /// <para>
    /// The shape of a Gutenberg file: printable ASCII only, lines of at most 72 chars wrapped at word
    /// boundaries and ended by CRLF ("\r\n"), paragraphs separated by a blank line, and a chapter heading
    /// ("CHAPTER XII.") on its own line every 20 to 80 paragraphs; the text starts with "CHAPTER I.".
    /// Sentences of 4 to 22 word slots start with a capital and end with '.' (78 %), '?' (12 %) or '!'
    /// (10 %); 7 % of slots are followed by a comma and 1 % by a semicolon; 15 % of sentences are dialogue
    /// in double quotes followed by "said" and Tom, Huck, Jim, Becky, he or she, and 2 in 1,000 of those
    /// open with "Hello,".
    /// </para>
    /// <para>
    /// A word slot is a vocabulary word (443 common English words, contractions such as "don't" and
    /// "it's" among them, with Zipf-like integer weights: "the" is 5.5 % of them, "a" 2.6 %), or, at
    /// these rates per million slots: Tom 1,200, Huck 1,000, Jim 900, Becky 400, "Tom Sawyer" 300,
    /// "Huck Finn" 250, "Mark Twain" 150, Mark 60, Twain 40, "the Connecticut Yankee" 80, Connecticut 40,
    /// Yankee 80, "the Mississippi" 300, Mississippi 60, Hannibal 200, "something" 1,800, "hello" 20
    /// (capitalized when it starts a sentence, never at position 0), a number 1,500 ("1884", "42" or
    /// "3,200"), a date 150 ("March 3, 1884") and another 150 ("1884-03-03"), an e-mail address 100
    /// ("huck.finn@river.example"). Numbers, ISO dates and e-mail addresses never start a sentence.
    /// A million chars hold about 209,000 words.
    /// </para>
    /// <para>
    /// Never in the text: the day names Monday to Sunday in any case (benchmarks plant them with
    /// <see cref="Plant"/>), "Sherlock", "Holmes", '`', '\0', '&amp;', '&lt;', '~', '^', tabs and non-ASCII chars.
    /// </para>
    /// <para>
    /// Every choice comes from a SplitMix64 generator seeded with <paramref name="seed"/> and integer
    /// weights: no floating point, no System.Random, no hashing, nothing culture-sensitive. When the
    /// length would end the text between the CR and the LF of a line break, the break moves one char
    /// earlier (the last line loses its last char), or, after a blank line, the text ends with the first
    /// char of the next paragraph instead.
    /// </para>
    /// </remarks>
    public static string Prose(int length, int seed = 1)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        return new ProseWriter(seed, length + 256).Text(length);
    }

    /// <summary>
    /// A text of made-up words with the frequencies of a natural language's, for counting words: far more distinct
    /// words than <see cref="Prose"/> has (a few hundred), as a long book has, the same for a seed on every runtime.
    /// </summary>
    /// <param name="count">How many words.</param>
    /// <param name="vocabulary">How many word forms they are drawn from (rank 1 to this).</param>
    /// <param name="seed">Which text: another seed draws other words with the same statistics.</param>
    /// <returns>The words, lower-case ASCII letters, separated by one space; every 15th word ends a sentence with ".\n".</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative or <paramref name="vocabulary"/> is below 1.</exception>
    /// <remarks>
    /// The form of rank r is spelled from sixteen two-letter syllables ("ka", "lo", "mi", ...), one per hexadecimal
    /// digit of r, least significant first: rank 1 is "lo", rank 16 "kalo", so no two ranks share a spelling. Each
    /// word is drawn with Zipf's weights, rank r about as often as 1 / r (10^12 / r in integers), from a SplitMix64
    /// generator seeded with <paramref name="seed"/>: no floating point, no System.Random.
    /// </remarks>
    public static string MadeUpWords(int count, int vocabulary, int seed = 1)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfLessThan(vocabulary, 1);
        return MadeUpWordsWriter.Write(count, vocabulary, seed);
    }

    /// <summary>
    /// Lengths from 0 to <paramref name="maxLength"/>, each as likely as the others, the same for a seed on every
    /// runtime: the pieces of a text cut into fields of varied length, as a benchmark of short spans needs.
    /// </summary>
    /// <param name="count">How many lengths.</param>
    /// <param name="maxLength">The longest a length can be.</param>
    /// <param name="seed">Which lengths: another seed draws others with the same statistics.</param>
    /// <returns>The lengths, in the order drawn.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> or <paramref name="maxLength"/> is negative, or <paramref name="maxLength"/> is <see cref="int.MaxValue"/>.</exception>
    /// <remarks>
    /// Drawn from a SplitMix64 generator seeded with <paramref name="seed"/>, as the texts are: no System.Random,
    /// whose algorithm each runtime may change.
    /// </remarks>
    public static int[] Lengths(int count, int maxLength, int seed = 1)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfNegative(maxLength);
        ArgumentOutOfRangeException.ThrowIfEqual(maxLength, int.MaxValue);
        var random = new SplitMix64(seed);
        var lengths = new int[count];
        for (var i = 0; i < lengths.Length; i++)
        {
            lengths[i] = random.Next(maxLength + 1);
        }

        return lengths;
    }

    /// <summary>The text of <see cref="Prose"/> as bytes: ASCII, so one byte per char (and also valid UTF-8).</summary>
    /// <param name="length">How many bytes.</param>
    /// <param name="seed">Which text, as for <see cref="Prose"/>.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="length"/> is negative.</exception>
    public static byte[] ProseUtf8(int length, int seed = 1) => Encoding.ASCII.GetBytes(Prose(length, seed));

    /// <summary>
    /// A copy of <paramref name="text"/> with each word written over it at its position (the text keeps
    /// its length), e.g. day names where War and Peace had them for .NET 9's multi-string searches.
    /// </summary>
    /// <param name="text">The text.</param>
    /// <param name="words">Positions (0-based char indexes) and the words to write there; in any order.</param>
    /// <returns>The new text.</returns>
    /// <exception cref="ArgumentNullException">The text, the array or a word is null.</exception>
    /// <exception cref="ArgumentException">A word is empty, does not fit inside the text at its position, or overlaps another.</exception>
    public static string Plant(string text, params (int Position, string Word)[] words)
    {
        ArgumentNullException.ThrowIfNull(text);
        ArgumentNullException.ThrowIfNull(words);
        var sorted = new (int Position, string Word)[words.Length];
        for (var i = 0; i < words.Length; i++)
        {
            var (position, word) = words[i];
            if (word is null)
            {
                throw new ArgumentNullException(nameof(words), $"The word to plant at {position} is null.");
            }

            if (word.Length == 0)
            {
                throw new ArgumentException($"The word to plant at {position} is empty.", nameof(words));
            }

            if (position < 0 || position > text.Length - word.Length)
            {
                throw new ArgumentException(
                    $"\"{word}\" at {position} does not fit in a text of {text.Length} chars: a position from 0 to {text.Length - word.Length} does.",
                    nameof(words));
            }

            sorted[i] = (position, word);
        }

        Array.Sort(sorted, static (a, b) => a.Position.CompareTo(b.Position));
        for (var i = 1; i < sorted.Length; i++)
        {
            var before = sorted[i - 1];
            if (before.Position + before.Word.Length > sorted[i].Position)
            {
                throw new ArgumentException(
                    $"\"{sorted[i].Word}\" at {sorted[i].Position} overlaps \"{before.Word}\" at {before.Position} (chars {before.Position} to {before.Position + before.Word.Length - 1}).",
                    nameof(words));
            }
        }

        var chars = text.ToCharArray();
        foreach (var (position, word) in sorted)
        {
            word.CopyTo(0, chars, position, word.Length);
        }

        return new string(chars);
    }
}
