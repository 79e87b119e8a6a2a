using System.Globalization;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/runtime/01-exceptions.ipynb: a meter log summed without an exception per bad line.
/// The check calls the reader's method on logs whose sums are known (bad lines, blanks, signs, spaces, a number
/// one past <see cref="int.MaxValue"/>) and counts the exceptions thrown on its thread while it runs, caught
/// inside or not: the answer must keep every sum and throw none. It reads no benchmark run, so it answers the
/// same in every mode.
/// </summary>
public static class Exceptions
{
    private const string MethodName = "SumReadings";
    private const string CheckCall = "Exceptions.CheckNoThrow(typeof(MeterLog))";

    // Logs whose sums the hints can name. A reading is what int.Parse accepts with the invariant culture:
    // an optional sign, ASCII digits, spaces around, within int's range.
    private static readonly string[][] Logs =
    [
        ["12", "7", "n/a", "30"],
        ["-3", " 40 ", "", "+5", "12a", "--4"],
        ["2147483647", "2147483648", "-2147483648", "-2147483649"],
        ["1e3", "0x1F", "4.5", "٣", "\t9\t", "1 000"],
        [],
    ];

    /// <summary>Checks the reader's class.</summary>
    /// <param name="exercise">The exercise class, e.g. <c>typeof(MeterLog)</c>.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckNoThrow(Type exercise)
    {
        if (!ExerciseSteps.TryFindMethod<long>(exercise, CheckCall, $"public static long {MethodName}(string[] lines)", MethodName, [typeof(string[])], out var method, out var hint))
        {
            return hint;
        }

        var thread = Environment.CurrentManagedThreadId;
        var thrown = new List<string>();
        void Count(object? sender, System.Runtime.ExceptionServices.FirstChanceExceptionEventArgs e)
        {
            if (Environment.CurrentManagedThreadId == thread)
            {
                thrown.Add(e.Exception.GetType().Name);
            }
        }

        AppDomain.CurrentDomain.FirstChanceException += Count;
        ExerciseResult? wrong;
        try
        {
            wrong = ExerciseSteps.FirstWrongAnswer(
                method,
                Logs,
                log => [log.ToArray()],
                KnownSum,
                (log, error) => $"{MethodName}({Show(log)}) threw {error.GetType().Name} out of the method: a bad line must be skipped, not end the sum.",
                (log, answer, expected) => $"{MethodName}({Show(log)}) returns {answer}, but the readings add up to {expected}. {WhatCounts}");
        }
        finally
        {
            AppDomain.CurrentDomain.FirstChanceException -= Count;
        }

        if (wrong is not null)
        {
            return wrong;
        }

        if (thrown.Count > 0)
        {
            var kinds = string.Join(" and ", thrown.Distinct(StringComparer.Ordinal));
            return ExerciseResult.NotYet(
                $"the sums are right, but {MethodName} threw {thrown.Count} exceptions ({kinds}) while adding up {Logs.Sum(l => l.Length)} lines: every bad line still pays for a throw and a catch. Ask whether a line is a number before using it, with a method that answers instead of throwing.");
        }

        return ExerciseResult.Pass($"{MethodName} keeps every sum and throws nothing: a bad line now costs a failed parse, not an exception.");
    }

    private const string WhatCounts = "A reading is what int.Parse(line, CultureInfo.InvariantCulture) accepts: a sign, ASCII digits, spaces around, and a value that fits in an int.";

    private static long KnownSum(string[] log) =>
        log.Sum(line => int.TryParse(line, NumberStyles.Integer, CultureInfo.InvariantCulture, out var reading) ? (long)reading : 0);

    private static string Show(string[] log) =>
        "[" + string.Join(", ", log.Select(line => "\"" + line.Replace("\t", "\\t", StringComparison.Ordinal) + "\"")) + "]";
}
