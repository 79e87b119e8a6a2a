using System.Text.RegularExpressions;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/regex/02-backtracking-and-atomicity.ipynb: rewrite the explosive <c>^(\w+\s?)*$</c>
/// so that it accepts the same lines and cannot explode. The check compares the reader's pattern with the
/// original on lines chosen to tell near misses apart (compared through NonBacktracking, where the original
/// runs in linear time), then runs the reader's pattern with the backtracking interpreter and a match timeout
/// on inputs built to explode it.
/// </summary>
public static class Backtracking
{
    private const string Original = @"^(\w+\s?)*$";
    private static readonly TimeSpan Patience = TimeSpan.FromMilliseconds(250);

    /// <summary>Checks the reader's pattern.</summary>
    /// <param name="pattern">The exercise cell's <c>linePattern</c>.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckLinePattern(string? pattern)
    {
        if (string.IsNullOrEmpty(pattern))
        {
            return ExerciseResult.NotYet("linePattern is empty: write a pattern that accepts the same lines as " + Original + ".");
        }

        Regex answer;
        try
        {
            answer = new Regex(pattern, RegexOptions.None, Patience);
        }
        catch (ArgumentException ex)
        {
            return ExerciseResult.NotYet($"the pattern does not parse: {ex.Message}");
        }

        var reference = new Regex(Original, RegexOptions.NonBacktracking);
        foreach (var line in Lines())
        {
            bool accepted;
            try
            {
                accepted = answer.IsMatch(line);
            }
            catch (RegexMatchTimeoutException)
            {
                return ExerciseResult.NotYet($"matching {Show(line)} took more than {Patience.TotalMilliseconds} ms: the pattern still backtracks through the ways of splitting a run of letters.");
            }

            if (accepted != reference.IsMatch(line))
            {
                return ExerciseResult.NotYet($"{Show(line)} is {(accepted ? "accepted" : "refused")} by your pattern but {(accepted ? "refused" : "accepted")} by the original. Same lines, remember: whitespace only right after a word character, one at a time; the empty line is a line.");
            }
        }

        foreach (var line in Explosive())
        {
            try
            {
                answer.IsMatch(line);
            }
            catch (RegexMatchTimeoutException)
            {
                return ExerciseResult.NotYet($"matching {Show(line)} took more than {Patience.TotalMilliseconds} ms: it still explodes. Make sure a run of word characters can be split only one way (an atomic group, or whitespace that is not optional between iterations).");
            }
        }

        return ExerciseResult.Pass("your pattern accepts the same lines as the original and no input built to explode it takes more than " + Patience.TotalMilliseconds + " ms.");
    }

    // Lines that separate the original from plausible near misses: doubled, leading or trailing whitespace,
    // tabs and line breaks (\s), the empty line, `$` before a final \n, non-word characters.
    private static IEnumerable<string> Lines() =>
    [
        "", "a", "word", "two words", "three short words", "trailing space ", "ends with tab\t", "tab\tinside",
        " leading", "double  space", "  ", " ", "a b c d e f", "under_score and digits 42", "line\n", "line\n\n",
        "two\nlines", "\n", "x \n", "punctuation!", "comma, here", "hyphen-ated", "a\r\nb", "é accents à", "abc ",
        "abc  ", "ab c ", "a b  c",
    ];

    private static IEnumerable<string> Explosive() =>
    [
        new string('a', 30) + "!",
        string.Concat(Enumerable.Repeat("ab ", 12)) + "!",
        new string('x', 25) + " " + new string('y', 25) + "?",
    ];

    private static string Show(string line) => "\"" + line.Replace("\n", "\\n", StringComparison.Ordinal).Replace("\r", "\\r", StringComparison.Ordinal).Replace("\t", "\\t", StringComparison.Ordinal) + "\"";
}
