using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;
using PerfLab.Inputs;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>The generated corpus: exact lengths, the same text for a seed, Gutenberg's shape, nothing forbidden, the pinned counts.</summary>
public class CorpusTests
{
    private static readonly Lazy<string> Pinned = new(() => Corpus.Prose(CorpusFacts.Length, CorpusFacts.Seed));

    private static readonly string[] DayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

    public static TheoryData<int> PatternIndexes => new(Enumerable.Range(0, CorpusFacts.Patterns.Count));

    public static TheoryData<int> CharIndexes => new(Enumerable.Range(0, CorpusFacts.Chars.Count));

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(72)]
    [InlineData(1_000)]
    [InlineData(65_537)]
    [InlineData(1_000_000)]
    public void Prose_has_exactly_the_length_asked_for(int length)
    {
        Assert.Equal(length, Corpus.Prose(length).Length);
        Assert.Equal(length, Corpus.ProseUtf8(length, seed: 7).Length);
    }

    [Fact]
    public void A_negative_length_is_refused_by_name()
    {
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => Corpus.Prose(-1));
        Assert.Equal("length", ex.ParamName);
        Assert.Equal("length", Assert.Throws<ArgumentOutOfRangeException>(() => Corpus.ProseUtf8(-5)).ParamName);
    }

    [Fact]
    public void The_same_seed_gives_the_same_text_and_another_seed_another()
    {
        Assert.Equal(Corpus.Prose(50_000, 3), Corpus.Prose(50_000, 3));
        Assert.NotEqual(Corpus.Prose(50_000, 3), Corpus.Prose(50_000, 4));
        Assert.NotEqual(Corpus.Prose(50_000, 0), Corpus.Prose(50_000, -1));
        Assert.Equal(Corpus.Prose(1_000), Corpus.Prose(1_000, seed: 1));
    }

    [Fact]
    public void The_pinned_text_has_the_pinned_sha256()
    {
        Assert.Equal(CorpusFacts.Sha256, Convert.ToHexStringLower(SHA256.HashData(Encoding.ASCII.GetBytes(Pinned.Value))));
        Assert.Equal(CorpusFacts.Sha256, Convert.ToHexStringLower(SHA256.HashData(Corpus.ProseUtf8(CorpusFacts.Length, CorpusFacts.Seed))));
    }

    [Fact]
    public void It_starts_like_a_gutenberg_chapter()
    {
        Assert.StartsWith("CHAPTER I.\r\n\r\n", Pinned.Value, StringComparison.Ordinal);
    }

    [Fact]
    public void Lines_are_at_most_72_chars_and_end_with_crlf_only()
    {
        AssertShape(Pinned.Value);
        var lines = Pinned.Value.Split("\r\n");
        Assert.Contains(lines, l => l.Length == 72);
        Assert.Contains(lines, l => l.Length == 0);
    }

    [Fact]
    public void Chapter_headings_are_numbered_in_roman_numerals_on_their_own_lines()
    {
        var headings = Regex.Matches(Pinned.Value, @"(?<=\r\n\r\n)CHAPTER ([IVXLCDM]+)\.\r\n\r\n").Select(m => m.Groups[1].Value).ToArray();

        Assert.Equal(Regex.Count(Pinned.Value, "CHAPTER"), headings.Length + 1); // the first one starts the text
        Assert.Equal(["II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI"], headings.Take(10));
        Assert.True(headings.Length > 40, $"{headings.Length} chapters");
    }

    [Fact]
    public void A_shorter_text_is_the_longer_ones_prefix_and_a_cut_never_splits_a_line_break()
    {
        var full = Corpus.Prose(4_002, seed: 5);
        var movedBreaks = 0;
        var afterBlankLine = 0;
        for (var length = 0; length <= 4_000; length++)
        {
            var text = Corpus.Prose(length, seed: 5);
            Assert.Equal(length, text.Length);
            AssertShape(text);
            if (length == 0 || full[length - 1] != '\r')
            {
                Assert.Equal(full[..length], text);
            }
            else if (full[length - 2] != '\n')
            {
                movedBreaks++;
                Assert.Equal(full[..(length - 2)] + "\r\n", text);
            }
            else
            {
                afterBlankLine++;
                Assert.Equal(full[..(length - 1)] + full[length + 1], text);
            }
        }

        Assert.True(movedBreaks > 10, $"{movedBreaks} cuts inside a line's CRLF");
        Assert.True(afterBlankLine > 3, $"{afterBlankLine} cuts inside a blank line's CRLF");
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(-12345)]
    public void Only_printable_ascii_and_nothing_a_benchmark_plants_or_searches_for_in_vain(int seed)
    {
        var text = seed == CorpusFacts.Seed ? Pinned.Value : Corpus.Prose(CorpusFacts.Length, seed);

        var bad = text.Select((c, i) => (c, i)).FirstOrDefault(x => x.c is not ('\r' or '\n') and (< ' ' or > '~'));
        Assert.True(bad == default, $"char U+{(int)bad.c:X4} at {bad.i}");
        foreach (var forbidden in "`\0&<~^\t")
        {
            Assert.True(text.IndexOf(forbidden, StringComparison.Ordinal) < 0, $"U+{(int)forbidden:X4} at {text.IndexOf(forbidden, StringComparison.Ordinal)}");
        }

        foreach (var word in DayNames.Concat(["Sherlock", "Holmes"]))
        {
            var at = text.IndexOf(word, StringComparison.OrdinalIgnoreCase);
            Assert.True(at < 0, $"{word} at {at}: {(at < 0 ? "" : text.Substring(Math.Max(0, at - 20), 40))}");
        }

        Assert.False(text.StartsWith("hello", StringComparison.OrdinalIgnoreCase));
    }

    [Fact]
    public void The_bytes_are_the_texts_ascii()
    {
        Assert.Equal(Encoding.ASCII.GetBytes(Corpus.Prose(30_000, 9)), Corpus.ProseUtf8(30_000, 9));
    }

    [Theory]
    [MemberData(nameof(PatternIndexes))]
    public void Pattern_counts_are_pinned(int index)
    {
        var (pattern, options, expected) = CorpusFacts.Patterns[index];
        Assert.Equal(expected, Regex.Count(Pinned.Value, pattern, options));
    }

    [Theory]
    [MemberData(nameof(CharIndexes))]
    public void Char_counts_are_pinned(int index)
    {
        var (c, expected) = CorpusFacts.Chars[index];
        Assert.Equal(expected, Pinned.Value.Count(x => x == c));
    }

    [Fact]
    public void The_names_and_shapes_the_generator_promises_are_there()
    {
        var text = Pinned.Value;
        foreach (var name in new[] { "Tom", "Sawyer", "Huck", "Finn", "Becky", "Jim", "Mark", "Twain", "Connecticut", "Yankee", "Mississippi", "Hannibal" })
        {
            Assert.True(Regex.Count(text, $@"\b{name}\b") >= 10, name);
        }

        foreach (var shape in new[] { @"\bA\b", @"\bThe\b", @"\bHello\b", @"\bdon't\b", @"\bit's\b", @"\b1[89]\d\d\b", @"\b\d,\d{3}\b", @"\b[A-Z][a-z]+ \d{1,2}, 18\d\d\b", "\"[A-Z]", @"[a-z]\?", @"[a-z]!", @"[a-z];", @"\b[a-z]+\.[a-z]+@[a-z]+\.example\b" })
        {
            Assert.True(Regex.IsMatch(text, shape), shape);
        }
    }

    [Fact]
    public void Plant_writes_each_word_over_the_text_at_its_position()
    {
        var text = Corpus.Prose(1_000);

        var planted = Corpus.Plant(text, (500, "Sunday"), (10, "Wednesday"), (994, "Friday"));

        Assert.Equal(text.Length, planted.Length);
        Assert.Equal(10, planted.IndexOf("Wednesday", StringComparison.Ordinal));
        Assert.Equal(500, planted.IndexOf("Sunday", StringComparison.Ordinal));
        Assert.Equal(994, planted.IndexOf("Friday", StringComparison.Ordinal));
        Assert.Equal(text[..10] + "Wednesday" + text[19..500] + "Sunday" + text[506..994] + "Friday", planted);
        Assert.Equal(text, Corpus.Plant(text));
    }

    [Fact]
    public void Plant_refuses_words_that_overlap_or_do_not_fit()
    {
        var text = Corpus.Prose(100);

        var overlap = Assert.Throws<ArgumentException>(() => Corpus.Plant(text, (20, "Friday"), (10, "Wednesday"), (17, "Monday")));
        Assert.StartsWith("\"Monday\" at 17 overlaps \"Wednesday\" at 10 (chars 10 to 18).", overlap.Message, StringComparison.Ordinal);
        Assert.Equal("words", overlap.ParamName);

        var tooFar = Assert.Throws<ArgumentException>(() => Corpus.Plant(text, (95, "Monday")));
        Assert.StartsWith("\"Monday\" at 95 does not fit in a text of 100 chars: a position from 0 to 94 does.", tooFar.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => Corpus.Plant(text, (-1, "Monday")));
        Assert.Throws<ArgumentException>(() => Corpus.Plant(text, (3, "")));
        Assert.Throws<ArgumentException>(() => Corpus.Plant(text, (3, "Monday"), (3, "Monday")));
        Assert.Throws<ArgumentNullException>(() => Corpus.Plant(text, (3, null!)));
        Assert.Throws<ArgumentNullException>(() => Corpus.Plant(null!, (3, "Monday")));
        Assert.Equal(text[..94] + "Monday", Corpus.Plant(text, (94, "Monday")));
    }

    [Fact]
    public void Lengths_are_the_pinned_draws_of_their_seed_each_from_0_to_the_longest()
    {
        // regex/04's pieces: 10,000 lengths of 0 to 127 chars, 64.1 on average.
        var lengths = Corpus.Lengths(10_000, maxLength: 127, seed: 1_403);

        Assert.Equal([55, 68, 23, 114, 87, 94, 62, 105, 1, 69], lengths[..10]);
        Assert.Equal(641_398, lengths.Sum());
        Assert.Equal(Enumerable.Range(0, 128), lengths.Distinct().Order());
        Assert.Equal(lengths, Corpus.Lengths(10_000, 127, 1_403));
        Assert.Equal(lengths[..100], Corpus.Lengths(100, 127, 1_403));
        Assert.NotEqual(lengths, Corpus.Lengths(10_000, 127, 1_404));
        Assert.Equal(new int[5], Corpus.Lengths(5, maxLength: 0));
        Assert.Empty(Corpus.Lengths(0, 127));
    }

    [Fact]
    public void Lengths_refuse_a_negative_count_or_longest_by_name()
    {
        Assert.Equal("count", Assert.Throws<ArgumentOutOfRangeException>(() => Corpus.Lengths(-1, 127)).ParamName);
        Assert.Equal("maxLength", Assert.Throws<ArgumentOutOfRangeException>(() => Corpus.Lengths(10, -1)).ParamName);
        Assert.Equal("maxLength", Assert.Throws<ArgumentOutOfRangeException>(() => Corpus.Lengths(10, int.MaxValue)).ParamName);
    }

    [Fact]
    public void Made_up_words_are_the_pinned_text_of_200000_words_from_16891_forms()
    {
        var text = Corpus.MadeUpWords(CorpusFacts.MadeUpWords, CorpusFacts.MadeUpVocabulary, CorpusFacts.MadeUpSeed);
        var counts = Regex.Matches(text, "[a-z]+").GroupBy(m => m.Value).ToDictionary(g => g.Key, g => g.Count());

        Assert.Equal(CorpusFacts.MadeUpSha256, Convert.ToHexStringLower(SHA256.HashData(Encoding.ASCII.GetBytes(text))));
        Assert.Equal(CorpusFacts.MadeUpWords, counts.Values.Sum());
        Assert.Equal(16_891, counts.Count);
        var commonest = counts.MaxBy(c => c.Value);
        Assert.Equal(("lo", 18_759), (commonest.Key, commonest.Value));
        Assert.Equal(CorpusFacts.MadeUpWords / 15, Regex.Count(text, @"[a-z]\.\n"));
    }

    [Fact]
    public void Made_up_words_spell_rank_1_lo_and_end_every_15th_word_with_a_period_and_a_line_break()
    {
        var fifteen = string.Join(' ', Enumerable.Repeat("lo", 15)) + ".\n";

        Assert.Equal(fifteen + fifteen, Corpus.MadeUpWords(30, vocabulary: 1));
        Assert.Equal("", Corpus.MadeUpWords(0, vocabulary: 5));
        Assert.Subset(
            new HashSet<string>(["lo", "mi", "ne", "ru", "sa", "te", "vo", "zi", "pa", "do", "fe", "gu", "ha", "ji", "bo", "kalo", "lolo"]),
            Regex.Matches(Corpus.MadeUpWords(1_000, vocabulary: 17, seed: 3), "[a-z]+").Select(m => m.Value).ToHashSet());
    }

    [Fact]
    public void Made_up_words_are_the_same_for_a_seed_and_other_for_another()
    {
        Assert.Equal(Corpus.MadeUpWords(5_000, 300, 7), Corpus.MadeUpWords(5_000, 300, 7));
        Assert.NotEqual(Corpus.MadeUpWords(5_000, 300, 7), Corpus.MadeUpWords(5_000, 300, 8));
        Assert.Equal(Corpus.MadeUpWords(100, 50), Corpus.MadeUpWords(100, 50, seed: 1));
    }

    [Fact]
    public void Made_up_words_refuse_a_negative_count_and_an_empty_vocabulary_by_name()
    {
        Assert.Equal("count", Assert.Throws<ArgumentOutOfRangeException>(() => Corpus.MadeUpWords(-1, 10)).ParamName);
        Assert.Equal("vocabulary", Assert.Throws<ArgumentOutOfRangeException>(() => Corpus.MadeUpWords(10, 0)).ParamName);
    }

    [Fact]
    public void Post_inputs_are_the_posts_strings()
    {
        Assert.Matches(new Regex(PostInputs.EmailPattern, RegexOptions.IgnoreCase | RegexOptions.ExplicitCapture), PostInputs.EmailAddress);
        Assert.Equal(905, PostInputs.EmailPattern.Length);
        Assert.Equal(3, new Regex(@"/\*(?:.|\n)*?\*/").Count(PostInputs.CComments));
        Assert.Equal(["/* This is a comment. */", "/* Another comment */", "/* Multi-line", "   comment */"], PostInputs.CComments.Split('\n'));
        Assert.Equal(0, new Regex(@"^[A-Za-z]+\b").Count(PostInputs.LongWord));
        Assert.Equal(PostInputs.PeriodSentence.Length - 14, PostInputs.PeriodSentence.IndexOf('.', StringComparison.Ordinal));
        Assert.Equal(48, Encoding.UTF8.GetBytes(PostInputs.QuestionSentence).AsSpan().IndexOfAny((byte)'.', (byte)'?'));
        Assert.Equal("aaaaabbbbb" + PostInputs.NormalizeInput[^2..], Uri.UnescapeDataString(PostInputs.UrlEncoded));
    }

    // Every line break is CRLF and every line (the last one too) has at most 72 chars.
    private static void AssertShape(string text)
    {
        var lines = text.Split("\r\n");
        for (var i = 0; i < lines.Length; i++)
        {
            Assert.True(lines[i].Length <= 72, $"line {i + 1} has {lines[i].Length} chars: {lines[i]}");
            Assert.True(lines[i].IndexOfAny(['\r', '\n']) < 0, $"line {i + 1} holds a lone CR or LF: {lines[i].Replace("\r", "\\r", StringComparison.Ordinal).Replace("\n", "\\n", StringComparison.Ordinal)}");
        }
    }
}
