using System.Reflection;
using System.Reflection.Emit;
using PerfLab.Contract;
using PerfLab.Results;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/jit/02-stack-allocation.ipynb: let .NET 9 and 10 keep two short-lived
/// objects of a class on the stack. The check reads the class (the objects' type still a class, the
/// inputs read from fields, no method receiving them hidden from the JIT), calls the benchmark for its
/// answer, and in quick or full mode reads the bytes .NET 9 and 10 allocated. A smoke run is one cold
/// call of Tier0 code, which never stack-allocates, so its bytes are not used.
/// </summary>
public static class StackAllocation
{
    /// <summary>Checks the reader's <paramref name="benchmark"/> class and, when given, its <paramref name="run"/>.</summary>
    /// <param name="benchmark">The exercise class, e.g. <c>typeof(Segment)</c>.</param>
    /// <param name="run">The exercise cell's run.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckNoEscape(Type benchmark, BenchmarkRun? run)
    {
        if (benchmark is null)
        {
            return ExerciseResult.NotYet("pass the exercise class, e.g. StackAllocation.CheckNoEscape(typeof(Segment), exercise).");
        }

        var length = ReaderCode.InstanceMethod<double>(benchmark, "Length");
        if (length is null)
        {
            return ExerciseResult.NotYet($"{benchmark.Name} needs its benchmark `public double Length()`: keep it and change what it calls.");
        }

        var instructions = IlScanner.Read(length);
        // A class is built with newobj; a struct's constructor is called on a local (call .ctor).
        var created = instructions.Where(i => i.Called is ConstructorInfo).Select(i => i.Called!.DeclaringType!).ToArray();
        var point = created.FirstOrDefault(t => t.Name == "Point");
        if (point is null)
        {
            return ExerciseResult.NotYet("Length should still create its two Point objects: the exercise is to let the JIT keep them on the stack, not to remove them.");
        }

        if (point.IsValueType)
        {
            return ExerciseResult.NotYet("Point became a struct. That avoids the allocation on every runtime, and is often the right fix; but this exercise is about escape analysis: keep Point a class and let the JIT see where the points go.");
        }

        if (!instructions.Any(i => i.OpCode == OpCodes.Ldfld))
        {
            return ExerciseResult.NotYet("Length reads none of the fields, so every input is a constant: read the coordinates from _x1, _y1, _x2 and _y2.");
        }

        var hidden = benchmark.GetMethods(ReaderCode.Declared)
            .FirstOrDefault(m => m.GetParameters().Any(p => p.ParameterType == point) && m.MethodImplementationFlags.HasFlag(MethodImplAttributes.NoInlining));
        if (hidden is not null)
        {
            return ExerciseResult.NotYet($"{hidden.Name} receives the points and is marked NoInlining, so the JIT cannot see what it does with them: for escape analysis they escape. Let the JIT inline it.");
        }

        if (!ReaderCode.TryRun(() => (double)length.Invoke(Activator.CreateInstance(benchmark), null)!, out var answer, out var thrown))
        {
            return ExerciseResult.NotYet($"calling Length failed with {thrown.GetType().Name}: {thrown.Message}");
        }

        if (Math.Abs(answer - 5.0) > 1e-9)
        {
            return ExerciseResult.NotYet($"Length returns {answer}, but the segment from (1, 2) to (4, 6) is 5 long: keep computing the distance.");
        }

        var structure = "the points no longer pass through a call the JIT cannot see, and Length still returns 5";
        if (run is null || run.Mode == BenchmarkMode.Smoke)
        {
            var why = run is null ? "Run the exercise cell and pass its result" : $"{ModeChoice.Heading(BenchmarkMode.Smoke)} runs one cold call of Tier0 code, which never stack-allocates: run it in {ModeChoice.Name(BenchmarkMode.Quick)} mode";
            return ExerciseResult.Pass($"{structure}. {why} to see the bytes go to 0 on .NET 9 and 10.");
        }

        var rows = run.Results.Where(r => r.Method == "Length" && r.Error is null && r.Runtime is "net9.0" or "net10.0").ToList();
        if (rows.Count == 0)
        {
            return ExerciseResult.NotYet("the run has no .NET 9 or .NET 10 row of Length: keep runtimes: [\"net9.0\", \"net10.0\"] in the exercise cell.");
        }

        if (rows.FirstOrDefault(r => AllocationNoise.AllocatesObjects(r.AllocatedBytes)) is { } allocating)
        {
            return ExerciseResult.NotYet($"Length still allocates {allocating.AllocatedBytes} B per call on {allocating.Runtime}: something still lets the points escape (a field, an array, a call that is not inlined).");
        }

        return ExerciseResult.Pass($"{structure}; .NET 9 and 10 allocated 0 B per call ({ModeChoice.Name(run.Mode)} mode): both points live in Length's stack frame, or in registers.");
    }
}
