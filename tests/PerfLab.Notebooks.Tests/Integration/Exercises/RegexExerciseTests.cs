using PerfLab.Contract;
using static PerfLab.Notebooks.Tests.Support.ExerciseAnswers;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>The regex track's exercises (notebooks/regex): each check on the answers a reader is likely to write.</summary>
public sealed class RegexExerciseTests
{
    private static readonly Exercise LogDates = new(
        "regex/01-engines.ipynb", "class LogDates", null, "regex-01-engines.exercise.cs",
        "Engines.CheckGeneratedStamps(typeof(LogDates))");

    private static readonly Exercise LinePattern = new(
        "regex/02-backtracking-and-atomicity.ipynb", "string linePattern", null, "regex-02-backtracking-and-atomicity.exercise.cs",
        "Backtracking.CheckLinePattern(linePattern)");

    // regex/02's exercise cell as the notebook has it: the exploding pattern a reader replaces.
    private const string UnsolvedLinePattern = "@\"^(\\w+\\s?)*$\"";

    private static readonly Exercise Alarms = new(
        "regex/03-searching.ipynb", "class Alarms", "\nvar exercise", "regex-03-searching.exercise.cs",
        "Searching.CheckAlarmCount(typeof(Alarms), exercise)");

    private static readonly Exercise Images = new(
        "regex/04-count-split-and-vector-width.ipynb", "class ImageFiles", "\nvar exercise", "regex-04-count-split-and-vector-width.exercise.cs",
        "Spans.CheckImageCount(typeof(ImageFiles), exercise)");

    /// <summary>
    /// regex/01's exercise, compiled by the kernel's session with the source generator: the unsolved class (a
    /// Regex built at run time) is refused; the kept solution passes, also with RegexOptions.Compiled left in;
    /// a lost IgnoreCase and a changed pattern are refused with what differs.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", null, null, "✗ Not yet: Stamps returns a regex built at run time")]
    [InlineData("the kept solution", "", "", "✓ Stamps is generated code")]
    [InlineData("Compiled left in", "RegexOptions.IgnoreCase)]", "RegexOptions.IgnoreCase | RegexOptions.Compiled)]", "✓ Stamps is generated code")]
    [InlineData("IgnoreCase lost", ", RegexOptions.IgnoreCase)]", ")]", "✗ Not yet: on \"2026-11-25t07:41z retry scheduled\" the generated regex finds 0 stamp(s), the original 1")]
    [InlineData("the pattern changed", "Z?\\b", "\\b", "✗ Not yet: the generated pattern is ")]
    public async Task Generated_stamps_check_passes_only_generated_code_with_the_same_matches(string answer, string? find, string? replaceWith, string expectedStart)
    {
        await CheckedAnswerAsync(LogDates, answer, AnswerStart.Solution, find, replaceWith, expectedStart);
    }

    /// <summary>
    /// regex/02's exercise: the pattern as the notebook's exercise cell has it explodes; the kept solution and an
    /// atomic group pass; patterns that accept other lines (a plain set, no empty line) or still explode (a lazy
    /// loop) and one that does not parse are refused with what went wrong.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", null, "✗ Not yet: matching \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\" took more than 250 ms: it still explodes")]
    [InlineData("the kept solution", "solution", "✓ your pattern accepts the same lines")]
    [InlineData("an atomic group", @"^(?>\w+\s?)*$", "✓ your pattern accepts the same lines")]
    [InlineData("a set of word and space characters", @"^[\w\s]*$", "✗ Not yet: \" leading\" is accepted by your pattern but refused by the original")]
    [InlineData("words with single spaces between, no empty line", @"^\w+(\s\w+)*\s?$", "✗ Not yet: \"\" is refused by your pattern but accepted by the original")]
    [InlineData("a lazy loop", @"^(\w+\s?)*?$", "✗ Not yet: matching \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\" took more than 250 ms")]
    [InlineData("an unclosed group", @"^(\w+\s?*$", "✗ Not yet: the pattern does not parse: Invalid pattern")]
    public async Task Line_pattern_check_passes_only_the_same_lines_without_explosion(string answer, string? pattern, string expectedStart)
    {
        // A pattern replaces the exercise's in its cell; null is the cell as it stands, "solution" the kept one.
        var (from, find, replaceWith) = pattern switch
        {
            null => (AnswerStart.Exercise, null, null),
            "solution" => (AnswerStart.Solution, "", ""),
            _ => (AnswerStart.Exercise, UnsolvedLinePattern, $"@\"{pattern}\""),
        };
        await CheckedAnswerAsync(LinePattern, answer, from, find, replaceWith, expectedStart);
    }

    /// <summary>
    /// regex/03's exercise: counts and the IL are checked in every mode, the bytes in quick mode on .NET 9 and 10.
    /// The kept solution (one search over the whole log) and a search per line pass; the unsolved Split, a
    /// SearchValues built per call, case-sensitive words, one hit per log, a line counted once per word, three
    /// span searches instead of one SearchValues, and a SearchValues hidden in a local function (only the bytes
    /// can see it) are refused.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", "exercise", "Smoke", null, null, "✗ Not yet: CountAlarms still calls String.Split, which returns a new array of strings")]
    [InlineData("the kept solution", "solution", "Smoke", "", "", "✓ the counts are right, one SearchValues<string> does the search and no string is created (smoke mode")]
    [InlineData("a search per line", "solution", "Smoke", SearchFromHitToLineEnd, SearchEachLine, "✓ the counts are right, one SearchValues<string> does the search")]
    [InlineData("a SearchValues built per call", "solution", "Smoke", "ReadOnlySpan<char> rest = log;", SearchValuesBuiltPerCall, "✗ Not yet: CountAlarms builds its SearchValues on every call")]
    [InlineData("case-sensitive words", "solution", "Smoke", "StringComparison.OrdinalIgnoreCase);", "StringComparison.Ordinal);", "✗ Not yet: CountAlarms returns 0 for a log in capitals and mixed case (\"Fail\", \"FATAL\", \"eRRor\"); 3 of its lines mention error, fail or fatal. The words can be written in any case")]
    [InlineData("one answer for the whole log", "solution", "Smoke", SearchFromHitToLineEnd, WholeLogOnce, "✗ Not yet: CountAlarms returns 1 for a log with three alarm lines; 3 of its lines mention error, fail or fatal. Count the lines")]
    [InlineData("a line counted once per word", "solution", "Smoke", "rest = rest.Slice(hit + lineEnd + 1);", "rest = rest.Slice(hit + 1);", "✗ Not yet: CountAlarms returns 3 for three alarm words on the same line (\"error ... fail ... error\"); 1 of its lines mention error, fail or fatal. Count each line once")]
    [InlineData("three searches per line", "exercise", "Smoke", SplitAndLowerCase, ThreeSpanSearches, "✗ Not yet: the counts are right, but CountAlarms does not search with a SearchValues<string>")]
    [InlineData("the kept solution, measured", "solution", "Quick", "", "", "✓ the counts are right, one SearchValues<string> does the search and nothing is allocated per call on net9.0 and net10.0.")]
    [InlineData("a SearchValues built in a local function", "solution", "Quick", SearchLoopHead, SearchValuesFromALocalFunction, "✗ Not yet: Count still allocates ")]
    public async Task Alarm_count_check_passes_only_right_counts_from_one_prebuilt_search_without_strings_or_allocation(string answer, string start, string mode, string? find, string? replaceWith, string expectedStart)
    {
        var from = start == "exercise" ? AnswerStart.Exercise : AnswerStart.Solution;
        await CheckedAnswerAsync(Alarms, answer, from, find, replaceWith, expectedStart, Enum.Parse<BenchmarkMode>(mode));
    }

    /// <summary>
    /// regex/04's exercise: counts and the IL are checked in every mode, the bytes in quick mode on .NET 9 and 10.
    /// The kept solution (a span per line, constant suffixes ignoring case) passes; the unsolved Split, suffixes
    /// compared case by case, a span split at '\n' that keeps each line's '\r', Contains instead of EndsWith and a
    /// string made of each line are refused.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", "exercise", "Smoke", null, null, "✗ Not yet: CountImages still calls String.Split, which returns a new array of strings")]
    [InlineData("the kept solution", "solution", "Smoke", "", "", "✓ the counts are right and no string is created (smoke mode")]
    [InlineData("suffixes compared case by case", "solution", "Smoke", "StringComparison.OrdinalIgnoreCase", "StringComparison.Ordinal", "✗ Not yet: CountImages returns 0 for names in capitals and mixed case (\"LOGO.PNG\", \"Photo.Jpg\", \"anim.GIF\"); 3 of its names end in .png, .jpg or .gif. Names keep the case")]
    [InlineData("a split at '\\n' that keeps the '\\r'", "solution", "Smoke", EachLineAsASpan, SplitAtLineFeeds, "✗ Not yet: CountImages returns 0 for lines that end in \"\\r\\n\"; 2 of its names end in .png, .jpg or .gif. A line that ends in")]
    [InlineData("Contains instead of EndsWith", "solution", "Smoke", ".EndsWith(", ".Contains(", "✗ Not yet: CountImages returns 2 for extensions that are not at the end of the name")]
    [InlineData("a string made of each line", "solution", "Smoke", "if (name.EndsWith(", "if (name.ToString().EndsWith(", "✗ Not yet: CountImages still calls ToString(), which returns a new string")]
    [InlineData("the kept solution, measured", "solution", "Quick", "", "", "✓ the counts are right and nothing is allocated per call on net9.0 and net10.0.")]
    public async Task Image_count_check_passes_only_right_counts_from_spans_without_strings_or_allocation(string answer, string start, string mode, string? find, string? replaceWith, string expectedStart)
    {
        var from = start == "exercise" ? AnswerStart.Exercise : AnswerStart.Solution;
        await CheckedAnswerAsync(Images, answer, from, find, replaceWith, expectedStart, Enum.Parse<BenchmarkMode>(mode));
    }

    // regex/04: the kept solution's loop over the listing's lines, as it starts.
    private const string EachLineAsASpan =
        "foreach (ReadOnlySpan<char> name in listing.AsSpan().EnumerateLines())\n" +
        "        {";

    // regex/04: the span Split at '\n', which leaves a CRLF line's '\r' at the end of its piece.
    private const string SplitAtLineFeeds =
        "foreach (Range line in listing.AsSpan().Split('\\n'))\n" +
        "        {\n" +
        "            ReadOnlySpan<char> name = listing.AsSpan()[line];";

    // regex/03: the kept solution's search, from each hit to its line's end.
    private const string SearchFromHitToLineEnd =
        "ReadOnlySpan<char> rest = log;\n" +
        "        int alarms = 0;\n" +
        "        int hit;\n" +
        "        while ((hit = rest.IndexOfAny(AlarmWords)) >= 0)\n" +
        "        {\n" +
        "            alarms++;\n" +
        "            int lineEnd = rest.Slice(hit).IndexOfAny('\\r', '\\n');\n" +
        "            if (lineEnd < 0)\n" +
        "            {\n" +
        "                break;\n" +
        "            }\n" +
        "\n" +
        "            rest = rest.Slice(hit + lineEnd + 1);\n" +
        "        }";

    // regex/03: one search per line.
    private const string SearchEachLine =
        "int alarms = 0;\n" +
        "        foreach (ReadOnlySpan<char> line in log.AsSpan().EnumerateLines())\n" +
        "        {\n" +
        "            if (line.ContainsAny(AlarmWords))\n" +
        "            {\n" +
        "                alarms++;\n" +
        "            }\n" +
        "        }";

    // regex/03: one answer for the whole log.
    private const string WholeLogOnce = "int alarms = log.AsSpan().ContainsAny(AlarmWords) ? 1 : 0;";

    // regex/03: the SearchValues built again on every call.
    private const string SearchValuesBuiltPerCall =
        "SearchValues<string> AlarmWords = SearchValues.Create([\"error\", \"fail\", \"fatal\"], StringComparison.OrdinalIgnoreCase);\n" +
        "        ReadOnlySpan<char> rest = log;";

    // regex/03: the kept solution's search loop, as it starts.
    private const string SearchLoopHead =
        "int hit;\n" +
        "        while ((hit = rest.IndexOfAny(AlarmWords)) >= 0)";

    // regex/03: a fresh SearchValues from a local function, which only the bytes can see.
    private const string SearchValuesFromALocalFunction =
        "static SearchValues<string> Fresh() => SearchValues.Create([\"error\", \"fail\", \"fatal\"], StringComparison.OrdinalIgnoreCase);\n" +
        "        int hit;\n" +
        "        while ((hit = rest.IndexOfAny(Fresh())) >= 0)";

    // regex/03: the exercise's Split and lower-casing, as the notebook has it.
    private const string SplitAndLowerCase =
        "foreach (string line in log.Split('\\n'))\n" +
        "        {\n" +
        "            string lower = line.ToLowerInvariant();\n" +
        "            if (lower.Contains(\"error\") || lower.Contains(\"fail\") || lower.Contains(\"fatal\"))";

    // regex/03: three span searches per line instead of one SearchValues.
    private const string ThreeSpanSearches =
        "foreach (ReadOnlySpan<char> line in log.AsSpan().EnumerateLines())\n" +
        "        {\n" +
        "            if (line.Contains(\"error\", StringComparison.OrdinalIgnoreCase) || line.Contains(\"fail\", StringComparison.OrdinalIgnoreCase) || line.Contains(\"fatal\", StringComparison.OrdinalIgnoreCase))";
}
