using System.Reflection;
using System.Reflection.Emit;
using PerfLab.Contract;
using PerfLab.Results;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/00-start-here.ipynb: repair a benchmark that falls into dead-code
/// elimination. The check reads the reader's benchmark class by reflection, so it gives the same
/// answer in every mode (smoke numbers are meaningless); given a quick or full run, it also looks at
/// the numbers.
/// </summary>
public static class StartHere
{
    private const string BenchmarkAttributeName = "BenchmarkAttribute";

    /// <summary>Below this mean a case did less than a clock cycle of work per call.</summary>
    private const double SubNanosecond = 1.0;

    private static readonly HashSet<string> ConsumingMethods = new(StringComparer.Ordinal)
    {
        "Consume",                // BenchmarkDotNet.Engines.Consumer
        "KeepAliveWithoutBoxing", // BenchmarkDotNet.Engines.DeadCodeEliminationHelper
        "KeepAlive",              // GC.KeepAlive
        "Write",                  // Volatile.Write
    };

    /// <summary>
    /// Checks that every [Benchmark] method of <paramref name="benchmark"/> reads its inputs (a field,
    /// a property or an argument, not only constants) and hands its result on (returns it, stores it
    /// in a field or array, or gives it to a consumer), so the JIT cannot delete the work; and that
    /// what it hands on is the path length, so a method that keeps the loop but returns 0 does not pass.
    /// </summary>
    /// <param name="benchmark">The reader's benchmark class, e.g. <c>typeof(PathLength)</c>.</param>
    /// <param name="run">The run of that class, when there is one: in quick and full mode its numbers are checked too.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws for unsolved code.</returns>
    public static ExerciseResult CheckDeadCode(Type benchmark, BenchmarkRun? run = null)
    {
        if (benchmark is null)
        {
            return ExerciseResult.NotYet("pass the benchmark class, e.g. StartHere.CheckDeadCode(typeof(PathLength), exercise).");
        }

        var methods = BenchmarkMethods(benchmark);
        if (methods.Count == 0)
        {
            return ExerciseResult.NotYet($"{benchmark.Name} has no public [Benchmark] method. Keep the [Benchmark] attribute on the method you measure.");
        }

        var kept = new List<string>();
        foreach (var method in methods)
        {
            var instructions = IlScanner.Read(method);
            if (!ReadsInputs(method, instructions))
            {
                return ExerciseResult.NotYet(
                    $"{method.Name} reads no field, property or argument, so every input is a constant and the JIT can compute the answer " +
                    "while compiling (the trap behind the .NET Core 3.0 post's 0.0002 ns). Read the inputs from the class's fields.");
            }

            if (method.ReturnType != typeof(void))
            {
                kept.Add($"{method.Name} returns its result");
            }
            else if (Consumes(instructions))
            {
                kept.Add($"{method.Name} stores or consumes its result");
            }
            else
            {
                return ExerciseResult.NotYet(
                    $"{method.Name} still throws its result away, so the JIT is free to delete the computation. " +
                    "Return it: change `void` to the result's type (here `double`) and end the method with `return` and the result.");
            }
        }

        if (WrongAnswer(benchmark, methods) is { } wrong)
        {
            return wrong;
        }

        var structure = string.Join("; ", kept) + ", so the JIT has to do the work.";
        if (run is null)
        {
            return ExerciseResult.Pass(structure + " Run the exercise cell and pass its result to check the numbers too.");
        }

        if (run.Mode == BenchmarkMode.Smoke)
        {
            return ExerciseResult.Pass($"{structure} ({ModeChoice.Heading(BenchmarkMode.Smoke)}: the structure is checked, the numbers mean nothing.)");
        }

        var rows = run.Results
            .Where(r => r.Statistics is not null && SameType(r.Type, benchmark) && methods.Any(m => m.Name == r.Method))
            .ToList();
        if (rows.Count == 0)
        {
            return ExerciseResult.Pass(structure + $" (The run given holds no measured row of {benchmark.Name}: run the exercise cell again to see the numbers.)");
        }

        var tooFast = rows.FirstOrDefault(r => r.Statistics!.Mean < SubNanosecond);
        if (tooFast is not null)
        {
            return ExerciseResult.NotYet(
                $"{tooFast.DisplayName} on {tooFast.Runtime} took {QuantityText.Time(tooFast.Statistics!.Mean)} per call: less than a clock cycle, " +
                "so the JIT still removed the work. Does the value you return depend on the whole loop?");
        }

        var measured = string.Join(", ", rows.Select(r => $"{r.DisplayName} on {r.Runtime} {QuantityText.Time(r.Statistics!.Mean)}"));
        return ExerciseResult.Pass($"{structure} Measured ({ModeChoice.Name(run.Mode)} mode): {measured}.");
    }

    // The shape alone cannot tell `return length;` from `return 0;` after the same loop: call each
    // method on a fresh instance and compare what it hands on with the length of the path in its fields.
    private static ExerciseResult? WrongAnswer(Type benchmark, List<MethodInfo> methods)
    {
        var xs = benchmark.GetField("_xs", BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public);
        var ys = benchmark.GetField("_ys", BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public);
        if (xs?.FieldType != typeof(double[]) || ys?.FieldType != typeof(double[]))
        {
            return ExerciseResult.NotYet($"{benchmark.Name} needs its fields `double[] _xs` and `double[] _ys`: keep them, the check computes the path length from them.");
        }

        foreach (var method in methods.Where(m => !m.IsStatic && m.GetParameters().Length == 0))
        {
            if (!ReaderCode.TryRun(() => Activator.CreateInstance(benchmark)!, out var instance, out var thrown)
                || !ReaderCode.TryRun(() => method.Invoke(instance, null), out var returned, out thrown))
            {
                return ExerciseResult.NotYet($"calling {method.Name} failed with {thrown.GetType().Name}: {thrown.Message}");
            }

            var expected = PathLengthOf((double[])xs.GetValue(instance)!, (double[])ys.GetValue(instance)!);
            var handedOn = method.ReturnType == typeof(void)
                ? StoredDoubles(benchmark, instance).Cast<double?>().FirstOrDefault(v => Same(v!.Value, expected))
                : returned switch { double d => d, float f => f, int i => i, long l => l, _ => (double?)null };
            if (handedOn is not { } value || !Same(value, expected))
            {
                var what = method.ReturnType == typeof(void) ? "stores no field holding the path length" : $"returns {returned}";
                return ExerciseResult.NotYet(
                    $"{method.Name} {what}, but the path through these points is {expected:F3} long. " +
                    "Hand on the length the loop adds up, not another value: a benchmark that returns a constant measures nothing either.");
            }
        }

        return null;
    }

    private static double PathLengthOf(double[] xs, double[] ys)
    {
        double length = 0;
        for (var i = 1; i < Math.Min(xs.Length, ys.Length); i++)
        {
            length += Math.Sqrt(((xs[i] - xs[i - 1]) * (xs[i] - xs[i - 1])) + ((ys[i] - ys[i - 1]) * (ys[i] - ys[i - 1])));
        }

        return length;
    }

    private static IEnumerable<double> StoredDoubles(Type type, object instance) =>
        type.GetFields(BindingFlags.Instance | BindingFlags.Static | BindingFlags.NonPublic | BindingFlags.Public)
            .Where(f => f.FieldType == typeof(double))
            .Select(f => (double)f.GetValue(f.IsStatic ? null : instance)!);

    private static bool Same(double actual, double expected) => Math.Abs(actual - expected) <= 1e-9 * Math.Max(1, Math.Abs(expected));

    private static List<MethodInfo> BenchmarkMethods(Type type) =>
        type.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static)
            .Where(m => m.GetCustomAttributes(inherit: true).Any(a => a.GetType().Name == BenchmarkAttributeName))
            .ToList();

    private static bool ReadsInputs(MethodInfo method, IReadOnlyList<IlScanner.Instruction> instructions)
    {
        if (method.GetParameters().Length > 0)
        {
            return true; // [Arguments] values arrive at run time.
        }

        return instructions.Any(i =>
            i.OpCode == OpCodes.Ldfld || i.OpCode == OpCodes.Ldflda || i.OpCode == OpCodes.Ldsfld || i.OpCode == OpCodes.Ldsflda ||
            (i.Called is { IsSpecialName: true } called && called.Name.StartsWith("get_", StringComparison.Ordinal) && called.DeclaringType == method.DeclaringType));
    }

    private static bool Consumes(IReadOnlyList<IlScanner.Instruction> instructions) => instructions.Any(i =>
        i.OpCode == OpCodes.Stfld || i.OpCode == OpCodes.Stsfld || i.OpCode == OpCodes.Stobj ||
        i.OpCode.Name!.StartsWith("stelem", StringComparison.Ordinal) || i.OpCode.Name.StartsWith("stind", StringComparison.Ordinal) ||
        (i.Called is { } called && ConsumingMethods.Contains(called.Name)));

    // A notebook compiles the class inside a script submission ("Submission#3+PathLength"); the
    // benchmark process compiles it on its own: compare the simple names.
    private static bool SameType(string resultType, Type type)
    {
        var simple = resultType[(resultType.LastIndexOfAny(['.', '+']) + 1)..];
        return simple == type.Name;
    }
}
