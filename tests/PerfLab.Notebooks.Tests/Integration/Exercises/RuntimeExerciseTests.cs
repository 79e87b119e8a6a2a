using static PerfLab.Notebooks.Tests.Support.ExerciseAnswers;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>The runtime track's exercises (notebooks/runtime): each check on the answers a reader is likely to write.</summary>
public sealed class RuntimeExerciseTests
{
    private static readonly Exercise MeterLog = new(
        "runtime/01-exceptions.ipynb", "class MeterLog", "\nawait Lab.RunAsync", "runtime-01-exceptions.exercise.cs",
        "Exceptions.CheckNoThrow(typeof(MeterLog))")
    {
        // The check calls the reader's method itself: no benchmark runs.
        Call = "",
    };

    private const string OverflowCatch = "\n            catch (OverflowException)\n            {\n            }";

    private const string TryParseInt = "int.TryParse(line, NumberStyles.Integer, CultureInfo.InvariantCulture, out int reading)";

    /// <summary>
    /// runtime/01's exercise: the unsolved parse-and-catch keeps the sums but throws, the kept solution throws nothing, and
    /// answers that change which lines count (a long for a reading, digits only) or let an exception out are refused.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", "exercise", null, null, "✗ Not yet: the sums are right, but SumReadings threw 11 exceptions (FormatException and OverflowException) while adding up 20 lines")]
    [InlineData("the kept solution", "solution", "", "", "✓ SumReadings keeps every sum and throws nothing")]
    [InlineData("a long for a reading", "solution", TryParseInt, "long.TryParse(line, NumberStyles.Integer, CultureInfo.InvariantCulture, out long reading)", "✗ Not yet: SumReadings([\"2147483647\", \"2147483648\", \"-2147483648\", \"-2147483649\"]) returns -2, but the readings add up to -1.")]
    [InlineData("digits only", "solution", TryParseInt, "line.Length > 0 && line.All(char.IsDigit) && int.TryParse(line, out int reading)", "✗ Not yet: SumReadings([\"-3\", \" 40 \", \"\", \"+5\", \"12a\", \"--4\"]) returns 0, but the readings add up to 42.")]
    [InlineData("the overflow no longer caught", "exercise", OverflowCatch, "", "✗ Not yet: SumReadings([\"2147483647\", \"2147483648\", \"-2147483648\", \"-2147483649\"]) threw OverflowException out of the method")]
    public async Task No_throw_check_passes_only_the_same_sums_without_an_exception(string answer, string start, string? find, string? replaceWith, string expectedStart)
    {
        var from = start == "exercise" ? AnswerStart.Exercise : AnswerStart.Solution;
        await CheckedAnswerAsync(MeterLog, answer, from, find, replaceWith, expectedStart);
    }
}
