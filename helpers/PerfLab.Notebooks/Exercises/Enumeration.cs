using System.Reflection;
using PerfLab.Contract;
using PerfLab.Results;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/collections/01-enumeration.ipynb: sum a List&lt;int&gt; without
/// allocating on any runtime. The check reads the class (no enumeration through the IEnumerable
/// interface), calls the benchmark for its answer, and reads the bytes each runtime allocated. A
/// struct enumerator, a span or an index loop allocates nothing even in a cold call, so the bytes
/// count in every mode.
/// </summary>
public static class Enumeration
{
    /// <summary>Checks the reader's <paramref name="benchmark"/> class and, when given, its <paramref name="run"/>.</summary>
    /// <param name="benchmark">The exercise class, e.g. <c>typeof(ScoreTotal)</c>.</param>
    /// <param name="run">The exercise cell's run.</param>
    /// <returns>"✓ ..." when no runtime allocates and the total is right, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckAllocationFree(Type benchmark, BenchmarkRun? run)
    {
        if (benchmark is null)
        {
            return ExerciseResult.NotYet("pass the exercise class, e.g. Enumeration.CheckAllocationFree(typeof(ScoreTotal), exercise).");
        }

        var scores = benchmark.GetField("_scores", ReaderCode.Declared);
        var total = ReaderCode.InstanceMethod<int>(benchmark, "Total");
        if (scores?.FieldType != typeof(List<int>) || total is null)
        {
            return ExerciseResult.NotYet($"{benchmark.Name} needs its field `List<int> _scores` and its benchmark `public int Total()`: keep them and change how the numbers are added up.");
        }

        var throughInterface = benchmark.GetMethods(ReaderCode.Declared).Concat<MethodBase>(benchmark.GetConstructors(ReaderCode.Declared))
            .FirstOrDefault(m => IlScanner.Read(m).Any(i => i.Called is { Name: "GetEnumerator", DeclaringType: { IsInterface: true } }));
        if (throughInterface is not null)
        {
            return ExerciseResult.NotYet(
                $"{throughInterface.Name} still enumerates through the IEnumerable<int> interface, which boxes the list's enumerator on .NET 8 and 9. " +
                "Let the method see the List<int> itself (its parameter type), so foreach uses the struct enumerator.");
        }

        if (!ReaderCode.TryRun(() => Total(benchmark, scores, total), out var call, out var thrown))
        {
            return ExerciseResult.NotYet($"calling Total failed with {thrown.GetType().Name}: {thrown.Message}");
        }

        var (numbers, answer) = call;

        var expected = numbers.Sum();
        if (answer != expected)
        {
            return ExerciseResult.NotYet($"Total returns {answer}, but the scores add up to {expected}: keep adding every score.");
        }

        if (run is null)
        {
            return ExerciseResult.Pass("no enumeration through the interface, and the total is right. Run the exercise cell and pass its result to check the bytes too.");
        }

        var rows = run.Results.Where(r => r.Method == "Total" && r.Error is null).ToList();
        if (rows.Count == 0)
        {
            return ExerciseResult.NotYet("the run given has no Total row: run the exercise cell again and pass its result.");
        }

        if (rows.FirstOrDefault(r => AllocationNoise.AllocatesObjects(r.AllocatedBytes)) is { } allocating)
        {
            return ExerciseResult.NotYet($"Total still allocates {allocating.AllocatedBytes} B per call on {allocating.Runtime}. Something in it creates an object per call (a copy such as ToArray, a boxed enumerator, a lambda): sum the list where it is.");
        }

        var runtimes = string.Join(", ", rows.Select(r => r.Runtime).Distinct());
        var note = run.Mode == BenchmarkMode.Smoke ? $" ({ModeChoice.Name(BenchmarkMode.Smoke)} mode: one cold call, and even that allocated nothing)" : "";
        return ExerciseResult.Pass($"Total adds up to {expected} and allocates nothing on {runtimes}{note}.");
    }

    private static (List<int> Numbers, int Answer) Total(Type benchmark, FieldInfo scores, MethodInfo total)
    {
        var instance = Activator.CreateInstance(benchmark)!;
        return ((List<int>)scores.GetValue(instance)!, (int)total.Invoke(instance, null)!);
    }
}
