using PerfLab.Contract;
using PerfLab.Results;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/jit/01-tiering-and-pgo.ipynb: prove that .NET 10 keeps the enumerator
/// of N10-J19 off the heap thanks to dynamic PGO, by finding an environment setting that takes the
/// profile away and watching the allocation come back. In quick and full mode the run's own
/// allocations decide; a smoke run times one cold call of Tier0 code, which allocates whatever the
/// setting, so there only settings known to turn the profile off pass.
/// </summary>
public static class TieringAndPgo
{
    // Each of these leaves the JIT without a profile: no instrumented Tier0, or no tiering at all.
    private static readonly Dictionary<string, string> ProfileOff = new(StringComparer.OrdinalIgnoreCase)
    {
        ["TieredPGO"] = "0",
        ["TieredCompilation"] = "0",
        ["TC_QuickJit"] = "0",
    };

    /// <summary>
    /// Checks the exercise run: .NET 10, an environment setting, and (in quick or full mode) bytes
    /// allocated per call again.
    /// </summary>
    /// <param name="run">The exercise cell's run of the hot-path class.</param>
    /// <returns>"✓ ..." when the setting brought the allocation back, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckProfileOff(BenchmarkRun? run)
    {
        if (run is null)
        {
            return ExerciseResult.NotYet("run the exercise cell first and pass its result: TieringAndPgo.CheckProfileOff(exercise).");
        }

        var rows = run.Results.Where(r => r.Runtime == "net10.0" && r.Error is null).ToList();
        if (rows.Count == 0)
        {
            return ExerciseResult.NotYet("the run has no .NET 10 row: keep runtimes: [\"net10.0\"] in the exercise cell, that is where the enumerator stays on the stack.");
        }

        if (run.Environment.Count == 0)
        {
            return ExerciseResult.NotYet("the run had no environment setting. Put one NAME=VALUE in env: [...]: which switch of the runtime turns the profile off?");
        }

        var settings = string.Join(", ", run.Environment.Select(e => $"{e.Key}={e.Value}"));
        var knownOff = run.Environment.Any(e => (e.Key.StartsWith("DOTNET_", StringComparison.OrdinalIgnoreCase) || e.Key.StartsWith("COMPlus_", StringComparison.OrdinalIgnoreCase))
            && ProfileOff.TryGetValue(e.Key[(e.Key.IndexOf('_', StringComparison.Ordinal) + 1)..], out var off) && e.Value.Trim() == off);

        if (run.Mode == BenchmarkMode.Smoke)
        {
            return knownOff
                ? ExerciseResult.Pass($"{settings} leaves the JIT without a profile. ({ModeChoice.Heading(BenchmarkMode.Smoke)} times one cold call of Tier0 code, which allocates either way: run it in {ModeChoice.Name(BenchmarkMode.Quick)} mode to see the bytes come back.)")
                : ExerciseResult.NotYet($"{settings} does not take the profile away from the JIT. Dynamic PGO has its own switch (DOTNET_...), and turning tiering off altogether removes it too.");
        }

        var allocated = rows.Max(r => r.AllocatedBytes ?? 0);
        if (!AllocationNoise.AllocatesObjects(allocated))
        {
            return ExerciseResult.NotYet($"with {settings} .NET 10 still allocated {allocated} B per call, so the JIT still had its profile. Look for the runtime switch that turns dynamic PGO off.");
        }

        return ExerciseResult.Pass(
            $"with {settings} .NET 10 allocated {allocated} B per call: without a profile the JIT does not know the IEnumerable<int> is an int[], " +
            "cannot devirtualize GetEnumerator, and the enumerator goes back to the heap. The 0 B you saw before was PGO's doing.");
    }
}
