using System.Reflection;
using System.Reflection.Emit;
using PerfLab.Results;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/collections/03-dictionaries-and-frozen.ipynb: price an order string such as
/// "apple=3;fig=1" against a price list without allocating per call on .NET 9 and 10. The check prices orders
/// whose totals are known, reads from the IL whether the method creates strings or objects, and, outside
/// smoke mode, the bytes the run measured (one cold call in smoke mode allocates what tiering later removes).
/// </summary>
public static class Dictionaries
{
    private const string MethodName = "TotalOf";

    private static readonly Dictionary<string, int> Prices = new(StringComparer.Ordinal) { ["apple"] = 30, ["pear"] = 45, ["fig"] = 120, ["plum"] = 25, ["kiwi"] = 60 };

    /// <summary>Checks the reader's class and, when given, its run.</summary>
    /// <param name="exercise">The exercise class, e.g. <c>typeof(OrderTotal)</c>.</param>
    /// <param name="run">The exercise cell's run on .NET 9 and 10.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckOrderWithoutStrings(Type exercise, BenchmarkRun? run)
    {
        if (!ExerciseSteps.TryFindMethod<int>(exercise, "Dictionaries.CheckOrderWithoutStrings(typeof(OrderTotal), exercise)", $"public static int {MethodName}(string order)", MethodName, [typeof(string)], out var method, out var hint))
        {
            return hint;
        }

        if (exercise.GetField("Prices", BindingFlags.Public | BindingFlags.Static)?.GetValue(null) is not Dictionary<string, int> prices
            || prices.Count != Prices.Count || Prices.Any(p => !prices.TryGetValue(p.Key, out var cents) || cents != p.Value))
        {
            return ExerciseResult.NotYet($"keep {exercise.Name}.Prices as given (apple 30, pear 45, fig 120, plum 25, kiwi 60): the check prices orders against it.");
        }

        string[] orders = ["apple=3;fig=1;plum=12;kiwi=2;apple=1", "fig=10", "pear=2;pear=3", "kiwi=0;plum=4", "apple=1000000", "plum=7;pear=1;kiwi=5;fig=2;apple=9"];
        var wrong = ExerciseSteps.FirstWrongAnswer(
            method,
            orders,
            order => [order],
            order => order.Split(';').Sum(item => Prices[item.Split('=')[0]] * int.Parse(item.Split('=')[1], System.Globalization.CultureInfo.InvariantCulture)),
            (order, thrown) => $"{MethodName}(\"{order}\") threw {thrown.GetType().Name}: {thrown.Message}",
            (order, answer, expected) => $"{MethodName}(\"{order}\") returns {answer}; the order costs {expected} cents.");
        if (wrong is not null)
        {
            return wrong;
        }

        foreach (var instruction in IlScanner.Read(method))
        {
            if (instruction.Called is MethodInfo called && NewStrings.Returned(called))
            {
                return ExerciseResult.NotYet($"{MethodName} still calls {NewStrings.Describe(called)} on every call. Keep the order as a ReadOnlySpan<char> and look prices up with a span.");
            }

            if (instruction.OpCode == OpCodes.Newobj && instruction.Called?.DeclaringType is { IsValueType: false } created)
            {
                return ExerciseResult.NotYet($"{MethodName} creates a {created.Name} on every call; everything it needs exists already or fits in a struct.");
            }

            if (instruction.OpCode == OpCodes.Newarr)
            {
                return ExerciseResult.NotYet($"{MethodName} creates an array on every call; span-based splitting needs none.");
            }
        }

        return MeasuredBytes.Check(run, ["net9.0", "net10.0"], "the totals are right and no string is created", "the totals are right", $"Look for a string, an array or a lambda created in {MethodName} or in a method it calls.");
    }
}
