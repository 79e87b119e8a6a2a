using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Runtimes;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The last step of every exercise whose answer must allocate nothing: the code is already right and its IL
/// clean, so only the bytes the run measured are left to check. Smoke mode measures one cold call, which
/// allocates what tiering later removes, so there the bytes are not held against the reader.
/// </summary>
internal static class MeasuredBytes
{
    /// <summary>Checks the run's bytes per call on <paramref name="runtimes"/>.</summary>
    /// <param name="run">The exercise cell's run, or null when the reader checked the class alone.</param>
    /// <param name="runtimes">The monikers whose rows are checked, e.g. ["net9.0", "net10.0"].</param>
    /// <param name="solved">What the reader got right so far, as a clause: "the totals are right and no string is created".</param>
    /// <param name="solvedLead">The part of <paramref name="solved"/> kept before "and nothing is allocated": "the totals are right".</param>
    /// <param name="whereToLook">The hint when a row allocates, after "M still allocates N B per call on R.".</param>
    public static ExerciseResult Check(BenchmarkRun? run, IReadOnlyList<string> runtimes, string solved, string solvedLead, string whereToLook)
    {
        if (run is null)
        {
            return ExerciseResult.Pass($"{solved}. Run the exercise cell and pass its result to check the bytes too.");
        }

        var rows = run.Results.Where(r => r.Error is null && runtimes.Contains(r.Runtime)).ToList();
        if (rows.Count == 0)
        {
            var names = string.Join(" or ", runtimes.Select(r => RuntimeCatalog.Find(r).Major));
            return ExerciseResult.NotYet($"the run given has no row on .NET {names}: run the exercise cell again and pass its result.");
        }

        if (run.Mode == BenchmarkMode.Smoke)
        {
            return ExerciseResult.PassWithoutBytes(solved);
        }

        if (rows.FirstOrDefault(r => AllocationNoise.AllocatesObjects(r.AllocatedBytes)) is { } allocating)
        {
            return ExerciseResult.NotYet($"{allocating.Method} still allocates {allocating.AllocatedBytes} B per call on {allocating.Runtime}. {whereToLook}");
        }

        return ExerciseResult.Pass($"{solvedLead} and nothing is allocated per call on {string.Join(" and ", rows.Select(r => r.Runtime).Distinct())}.");
    }
}
