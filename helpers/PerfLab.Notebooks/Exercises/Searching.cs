using System.Buffers;
using System.Reflection;
using PerfLab.Results;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/regex/03-searching.ipynb: count the lines of a log that mention "error", "fail" or
/// "fatal" in any case, with one <see cref="SearchValues{T}"/> of strings built once and no string per line. The
/// check counts logs whose answer is known (case, line ends, a word cut by a line break, several words on one
/// line), reads from the IL whether the method creates strings, builds its SearchValues per call or searches
/// without one, and, outside smoke mode, the bytes the run measured on .NET 9 and 10.
/// </summary>
public static class Searching
{
    private const string MethodName = "CountAlarms";

    private static readonly string[] Words = ["error", "fail", "fatal"];

    /// <summary>Checks the reader's class and, when given, its run.</summary>
    /// <param name="exercise">The exercise class, e.g. <c>typeof(Alarms)</c>.</param>
    /// <param name="run">The exercise cell's run on .NET 9 and 10.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckAlarmCount(Type exercise, BenchmarkRun? run)
    {
        if (!ExerciseSteps.TryFindMethod<int>(exercise, "Searching.CheckAlarmCount(typeof(Alarms), exercise)", $"public static int {MethodName}(string log)", MethodName, [typeof(string)], out var method, out var hint))
        {
            return hint;
        }

        var wrong = ExerciseSteps.FirstWrongAnswer(
            method,
            Cases(),
            c => [c.Log],
            c => ExerciseSteps.CountLines(c.Log, line => Words.Any(word => line.Contains(word, StringComparison.OrdinalIgnoreCase))),
            (c, thrown) => $"{MethodName} threw {thrown.GetType().Name} for {c.What}: {thrown.Message}",
            (c, answer, expected) => $"{MethodName} returns {answer} for {c.What}; {expected} of its lines mention error, fail or fatal.{Hint(c.What)}");
        if (wrong is not null)
        {
            return wrong;
        }

        var instructions = IlScanner.Read(method);
        foreach (var called in instructions.Select(i => i.Called).OfType<MethodInfo>())
        {
            if (NewStrings.Returned(called))
            {
                return ExerciseResult.NotYet($"{MethodName} still calls {NewStrings.Describe(called)} on every call. Walk the log as a ReadOnlySpan<char> (EnumerateLines, or IndexOfAny then skip to the line's end) instead.");
            }

            if (called.DeclaringType == typeof(SearchValues) && called.Name == "Create")
            {
                return ExerciseResult.NotYet($"{MethodName} builds its SearchValues on every call, which is the expensive part: SearchValues.Create analyses the words and picks an algorithm. Build it once, in a static readonly field of the class, and only search with it in {MethodName}.");
            }
        }

        if (!instructions.Any(i => i.Called?.GetParameters().Any(p => p.ParameterType == typeof(SearchValues<string>)) == true))
        {
            return ExerciseResult.NotYet($"the counts are right, but {MethodName} does not search with a SearchValues<string>: each word is a separate search, so a line is read once per word. One SearchValues<string> of the three words, with StringComparison.OrdinalIgnoreCase, finds any of them in one pass (span.ContainsAny or span.IndexOfAny).");
        }

        return MeasuredBytes.Check(run, ["net9.0", "net10.0"], "the counts are right, one SearchValues<string> does the search and no string is created", "the counts are right, one SearchValues<string> does the search", $"Look for a string, an array or a SearchValues created in {MethodName} or in a method it calls.");
    }

    private static string Hint(string what) => what switch
    {
        _ when what.Contains("three alarm lines", StringComparison.Ordinal) => " Count the lines that hold a word, not whether the log holds one: search each line, or go on searching after each line you counted.",
        _ when what.Contains("capitals", StringComparison.Ordinal) => " The words can be written in any case: search with StringComparison.OrdinalIgnoreCase.",
        _ when what.Contains("cut", StringComparison.Ordinal) => " A word cut by a line break is on no line: search line by line, or make sure a hit does not cross a line's end.",
        _ when what.Contains("same line", StringComparison.Ordinal) => " Count each line once, however many words it holds: after a hit, go on from the next line.",
        _ => "",
    };

    private static IEnumerable<(string What, string Log)> Cases()
    {
        yield return ("a log with one alarm line", "service started\r\nerror: disk full\r\nretrying in 5 s\r\n");
        yield return ("a log with three alarm lines", "error reading the disk\nfail over to the spare\nfatal: no spare\nfine\n");
        yield return ("a log in capitals and mixed case (\"Fail\", \"FATAL\", \"eRRor\")", "Fail\nFATAL\neRRor\nfine\n");
        yield return ("an empty log", "");
        yield return ("a last line without a line end", "all good\r\nshutting down: fatal");
        yield return ("three alarm words on the same line (\"error ... fail ... error\")", "error while reading, fail over, error again\r\nok\r\n");
        yield return ("words cut by line breaks (\"fa\" + \"tal\", \"err\" + \"or\")", "the job was fa\r\ntal only in name; err\nor not\n");
        yield return ("longer words that contain them (\"failure\", \"terrors\")", "a failure\nno terrors here\nnothing\n");
        yield return ("empty lines between alarms", "FATAL\r\n\r\n\r\nError\r\n\r\n");
        yield return ("a 5,000-character line ending in \"Fail\"", new string('.', 4996) + "Fail\nok\n");
        yield return ("600 lines, every 7th an alarm", string.Concat(Enumerable.Range(0, 600).Select(i => i % 7 == 3 ? $"line {i}: request failed\r\n" : $"line {i}: request served\r\n")));
    }
}
