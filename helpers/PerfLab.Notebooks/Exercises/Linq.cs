using PerfLab.Results;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/collections/02-linq.ipynb: the first value above 500 in a list, without an
/// allocation per call on .NET 9 and 10. The check calls the reader's method on lists where the answer is
/// known (and on lists without one, where First throws), reads from the IL which LINQ operators it builds a
/// pipeline with, and, outside smoke mode, the bytes the run measured. In smoke mode a lambda's first call
/// allocates its cached delegate, so the bytes of one cold call say nothing there.
/// </summary>
public static class Linq
{
    private const string MethodName = "FirstAbove";

    // Operators that return a new iterator (or a copy): each is an object per call.
    private static readonly string[] Allocating = ["Where", "Select", "ToList", "ToArray", "OrderBy", "Skip", "SkipWhile", "Take", "TakeWhile", "Reverse", "Distinct", "AsEnumerable"];

    /// <summary>Checks the reader's class and, when given, its run.</summary>
    /// <param name="exercise">The exercise class, e.g. <c>typeof(FirstLarge)</c>.</param>
    /// <param name="run">The exercise cell's run on .NET 9 and 10.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckFirstWithoutIterator(Type exercise, BenchmarkRun? run)
    {
        if (!ExerciseSteps.TryFindMethod<int>(exercise, "Linq.CheckFirstWithoutIterator(typeof(FirstLarge), exercise)", $"public static int {MethodName}(List<int> values)", MethodName, [typeof(List<int>)], out var method, out var hint))
        {
            return hint;
        }

        (List<int> Values, int? Expected)[] cases =
        [
            (Enumerable.Range(0, 1000).ToList(), 501),
            ([600, 1, 700], 600),
            ([3, 500, 501, 502], 501),
            ([int.MaxValue], int.MaxValue),
            ([5, 500, -1], null),
            ([], null),
        ];
        foreach (var (values, expected) in cases)
        {
            var shown = values.Count > 6 ? $"[0, 1, ..., {values[^1]}]" : $"[{string.Join(", ", values)}]";
            if (!ReaderCode.TryCall(method, [values], out int answer, out var thrown))
            {
                if (expected is null && thrown is InvalidOperationException)
                {
                    continue; // As First does.
                }

                return ExerciseResult.NotYet($"{MethodName}({shown}) threw {thrown.GetType().Name}" + (expected is null ? ", not InvalidOperationException as First does." : $"; the first value above 500 is {expected}."));
            }

            if (expected is null)
            {
                return ExerciseResult.NotYet($"{MethodName}({shown}) returns {answer}, but no value is above 500: like First, it must throw InvalidOperationException.");
            }

            if (answer != expected)
            {
                return ExerciseResult.NotYet($"{MethodName}({shown}) returns {answer}; the first value above 500 is {expected}.");
            }
        }

        var builds = IlScanner.Read(method).Select(i => i.Called).FirstOrDefault(c => c?.DeclaringType?.FullName == "System.Linq.Enumerable" && Allocating.Contains(c.Name));
        if (builds is not null)
        {
            return ExerciseResult.NotYet($"{MethodName} still calls Enumerable.{builds.Name}, which creates an object on every call. First has an overload that takes the condition itself.");
        }

        return MeasuredBytes.Check(run, ["net9.0", "net10.0"], "the answers are right and no iterator is built", "the answers are right", $"A lambda that captures a variable or `this` is a new object on every call; the condition needs only its parameter and a constant.");
    }
}
