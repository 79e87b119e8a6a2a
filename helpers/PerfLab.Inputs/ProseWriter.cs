using System.Text;

namespace PerfLab.Inputs;

/// <summary>
/// Writes the prose of <see cref="Corpus.Prose"/>: one endless stream per seed, of which a text of
/// length n is the first n chars (see <see cref="Text"/> for the one exception, at the very end).
/// Every choice is a draw from <see cref="SplitMix64"/>, every weight an integer.
/// </summary>
internal sealed class ProseWriter
{
    /// <summary>The longest line, without its CRLF.</summary>
    public const int LineWidth = 72;

    /// <summary>Word slots are drawn out of this many: a special's weight is its rate per million slots.</summary>
    public const int SlotsPerDraw = 1_000_000;

    private static readonly Special[] Specials =
    [
        new(SpecialKind.Text, 1_200, "Tom"),
        new(SpecialKind.Text, 1_000, "Huck"),
        new(SpecialKind.Text, 900, "Jim"),
        new(SpecialKind.Text, 400, "Becky"),
        new(SpecialKind.Text, 300, "Tom Sawyer"),
        new(SpecialKind.Text, 250, "Huck Finn"),
        new(SpecialKind.Text, 150, "Mark Twain"),
        new(SpecialKind.Text, 60, "Mark"),
        new(SpecialKind.Text, 40, "Twain"),
        new(SpecialKind.Text, 80, "the Connecticut Yankee"),
        new(SpecialKind.Text, 40, "Connecticut"),
        new(SpecialKind.Text, 80, "Yankee"),
        new(SpecialKind.Text, 300, "the Mississippi"),
        new(SpecialKind.Text, 60, "Mississippi"),
        new(SpecialKind.Text, 200, "Hannibal"),
        new(SpecialKind.Text, 1_800, "something"),
        new(SpecialKind.Text, 20, "hello"),
        new(SpecialKind.Number, 1_500),
        new(SpecialKind.LongDate, 150),
        new(SpecialKind.IsoDate, 150),
        new(SpecialKind.Email, 100),
    ];

    // Who says a line of dialogue, with integer weights.
    private static readonly (string Name, int Weight)[] Speakers = [("Tom", 3), ("Huck", 3), ("Jim", 2), ("Becky", 1), ("he", 3), ("she", 2)];

    private static readonly string[] Months =
        ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

    private static readonly string[] MailboxNames =
        ["huck.finn", "tom.sawyer", "becky.thatcher", "joe.harper", "ben.rogers", "sid.sawyer", "mary.jane", "hank.morgan", "sam.clemens", "pap.finn"];

    private static readonly string[] MailDomains = ["river.example", "hannibal.example", "camelot.example", "steamboat.example"];

    private readonly StringBuilder _text;
    private readonly List<string> _sentence = new(32);
    private SplitMix64 _random;
    private int _lineLength;
    private int _chapter;
    private int _paragraphsLeft;

    /// <summary>Starts the stream of <paramref name="seed"/>.</summary>
    public ProseWriter(int seed, int capacity)
    {
        _random = new SplitMix64(seed);
        _text = new StringBuilder(capacity);
    }

    private enum SpecialKind
    {
        Text,
        Number,
        LongDate,
        IsoDate,
        Email,
    }

    /// <summary>
    /// The first <paramref name="length"/> chars of the stream, except when that would end between the
    /// CR and the LF of a line break: then the line break moves one char earlier (the line loses its last
    /// char), or, after a blank line, the text ends with the first char of the next line instead.
    /// </summary>
    public string Text(int length)
    {
        while (_text.Length < length + 2)
        {
            WriteParagraph();
        }

        if (length == 0 || _text[length - 1] != '\r')
        {
            return _text.ToString(0, length);
        }

        var chars = new char[length];
        if (_text[length - 2] != '\n')
        {
            _text.CopyTo(0, chars, length - 2);
            chars[length - 2] = '\r';
            chars[length - 1] = '\n';
        }
        else
        {
            _text.CopyTo(0, chars, length - 1);
            chars[length - 1] = _text[length + 1];
        }

        return new string(chars);
    }

    // A paragraph of 1 to 7 sentences, after a chapter heading when the chapter (20 to 80 paragraphs) is over.
    private void WriteParagraph()
    {
        if (_paragraphsLeft == 0)
        {
            _chapter++;
            _text.Append("CHAPTER ").Append(Roman(_chapter)).Append(".\r\n\r\n");
            _paragraphsLeft = 20 + _random.Next(31) + _random.Next(31);
        }

        _paragraphsLeft--;
        var sentences = 1 + _random.Next(4) + _random.Next(4);
        for (var i = 0; i < sentences; i++)
        {
            WriteSentence();
        }

        _text.Append("\r\n\r\n");
        _lineLength = 0;
    }

    // 4 to 22 word slots; a comma after 7 % of them and a semicolon after 1 %; ends with '.' (78 %), '?' (12 %)
    // or '!' (10 %). 15 % of sentences are dialogue: "Words," said Tom. 2 in 1,000 of those open with "Hello,".
    private void WriteSentence()
    {
        _sentence.Clear();
        var dialogue = _random.Next(100) < 15;
        var slots = 4 + _random.Next(8) + _random.Next(8) + _random.Next(6);
        var terminator = _random.Next(100) switch
        {
            < 78 => '.',
            < 90 => '?',
            _ => '!',
        };
        string? previous = null;
        var slot = 0;
        if (dialogue && _random.Next(1_000) < 2)
        {
            _sentence.Add("hello,");
            slot = 1;
        }

        for (; slot < slots; slot++)
        {
            previous = AddSlot(slot == 0, previous);
            if (slot < slots - 1)
            {
                var pause = _random.Next(100);
                if (pause < 7)
                {
                    _sentence[^1] += ",";
                }
                else if (pause < 8)
                {
                    _sentence[^1] += ";";
                }
            }
        }

        _sentence[0] = Capitalized(_sentence[0]);
        if (dialogue)
        {
            _sentence[0] = "\"" + _sentence[0];
            _sentence[^1] += (terminator == '.' ? "," : terminator.ToString()) + "\"";
            _sentence.Add("said");
            _sentence.Add(Speaker() + ".");
        }
        else
        {
            _sentence[^1] += terminator.ToString();
        }

        foreach (var word in _sentence)
        {
            AppendWord(word);
        }
    }

    // One word slot: a special at its rate per million slots, else a vocabulary word (not the one just
    // before it). Numbers, ISO dates and e-mail addresses never start a sentence: a vocabulary word does.
    private string? AddSlot(bool first, string? previous)
    {
        var draw = _random.Next(SlotsPerDraw);
        foreach (var special in Specials)
        {
            if (draw >= special.Weight)
            {
                draw -= special.Weight;
                continue;
            }

            switch (special.Kind)
            {
                case SpecialKind.Text:
                    AddWords(special.Text!);
                    return null;
                case SpecialKind.LongDate:
                    AddWords(Months[_random.Next(12)] + " " + Digits(1 + _random.Next(28), 1) + ", " + Digits(1800 + _random.Next(100), 4));
                    return null;
                case SpecialKind.Number when !first:
                    _sentence.Add(_random.Next(3) switch
                    {
                        0 => Digits(1800 + _random.Next(100), 4),
                        1 => Digits(2 + _random.Next(98), 1),
                        _ => Digits(1 + _random.Next(9), 1) + "," + Digits(_random.Next(1000), 3),
                    });
                    return null;
                case SpecialKind.IsoDate when !first:
                    _sentence.Add(Digits(1800 + _random.Next(100), 4) + "-" + Digits(1 + _random.Next(12), 2) + "-" + Digits(1 + _random.Next(28), 2));
                    return null;
                case SpecialKind.Email when !first:
                    _sentence.Add(MailboxNames[_random.Next(MailboxNames.Length)] + "@" + MailDomains[_random.Next(MailDomains.Length)]);
                    return null;
            }

            break;
        }

        var word = Vocabulary.Pick(_random.NextUInt64());
        if (word == previous)
        {
            word = Vocabulary.Pick(_random.NextUInt64());
        }

        _sentence.Add(word);
        return word;
    }

    private void AddWords(string words)
    {
        foreach (var word in words.Split(' '))
        {
            _sentence.Add(word);
        }
    }

    private string Speaker()
    {
        var draw = _random.Next(14);
        foreach (var (name, weight) in Speakers)
        {
            if (draw < weight)
            {
                return name;
            }

            draw -= weight;
        }

        throw new InvalidOperationException("The speakers' weights do not add up to 14.");
    }

    // Greedy wrapping at word boundaries: a word goes on the line if the line stays within LineWidth.
    private void AppendWord(string word)
    {
        if (_lineLength == 0)
        {
            _lineLength = word.Length;
        }
        else if (_lineLength + 1 + word.Length <= LineWidth)
        {
            _text.Append(' ');
            _lineLength += 1 + word.Length;
        }
        else
        {
            _text.Append("\r\n");
            _lineLength = word.Length;
        }

        _text.Append(word);
    }

    // ASCII only: a first char in 'a'..'z' becomes 'A'..'Z'; anything else is kept.
    private static string Capitalized(string word) =>
        word[0] is >= 'a' and <= 'z' ? (char)(word[0] - 'a' + 'A') + word[1..] : word;

    // A non-negative number in decimal, zero-padded to at least width digits (no culture involved).
    private static string Digits(int value, int width)
    {
        Span<char> buffer = stackalloc char[10];
        var position = buffer.Length;
        do
        {
            buffer[--position] = (char)('0' + (value % 10));
            value /= 10;
        }
        while (value > 0);

        while (buffer.Length - position < width)
        {
            buffer[--position] = '0';
        }

        return new string(buffer[position..]);
    }

    private static string Roman(int number)
    {
        ReadOnlySpan<int> values = [1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1];
        string[] symbols = ["M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"];
        var roman = new StringBuilder();
        for (var i = 0; i < values.Length; i++)
        {
            while (number >= values[i])
            {
                roman.Append(symbols[i]);
                number -= values[i];
            }
        }

        return roman.ToString();
    }

    private sealed record Special(SpecialKind Kind, int Weight, string? Text = null);
}
