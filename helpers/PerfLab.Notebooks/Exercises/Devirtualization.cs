using PerfLab.Contract;
using PerfLab.Results;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/jit/03-devirtualization.ipynb: read the reader's own run of the
/// ReadOnlyCollection loops and say which was faster on .NET 9 and on .NET 10. In quick and full mode the
/// run decides (it is the reader's machine); in smoke mode the numbers are one cold call each and mean
/// nothing, so the answer is checked against the post (N10-J04: foreach on .NET 9, for on .NET 10).
/// </summary>
public static class Devirtualization
{
    private static readonly Dictionary<string, string> Loops = new(StringComparer.Ordinal)
    {
        ["foreach"] = "ByEnumerator",
        ["for"] = "ByPosition",
    };

    /// <summary>Checks the answers against <paramref name="run"/>.</summary>
    /// <param name="run">The run of the ReadOnlyReadings class.</param>
    /// <param name="fasterOnNet9">"foreach" or "for".</param>
    /// <param name="fasterOnNet10">"foreach" or "for".</param>
    /// <returns>"✓ ..." when both answers match, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckFasterLoop(BenchmarkRun? run, string? fasterOnNet9, string? fasterOnNet10)
    {
        if (run is null)
        {
            return ExerciseResult.NotYet("run the ReadOnlyReadings cell first and pass its result: Devirtualization.CheckFasterLoop(wrapper, fasterOnNet9, fasterOnNet10).");
        }

        foreach (var (runtime, answer) in new[] { ("net9.0", fasterOnNet9), ("net10.0", fasterOnNet10) })
        {
            var given = answer?.Trim().ToLowerInvariant();
            if (given is null || !Loops.ContainsKey(given))
            {
                return ExerciseResult.NotYet($"answer \"foreach\" or \"for\" for {runtime} (you wrote \"{answer}\").");
            }

            var expected = run.Mode == BenchmarkMode.Smoke ? (runtime == "net9.0" ? "foreach" : "for") : Faster(run, runtime);
            if (expected is null)
            {
                return ExerciseResult.NotYet($"the run has no measured ByEnumerator and ByPosition rows on {runtime}: run the ReadOnlyReadings cell on all runtimes.");
            }

            if (given != expected)
            {
                var where = run.Mode == BenchmarkMode.Smoke ? "in the post (smoke numbers mean nothing)" : "in your run";
                return ExerciseResult.NotYet($"on {runtime} the faster loop {where} was {expected}, not {given}. Compare the two methods' Mean within the {runtime} rows, not the Ratio column.");
            }
        }

        return run.Mode == BenchmarkMode.Smoke
            ? ExerciseResult.Pass($"foreach on .NET 9, for on .NET 10, as in the post. ({ModeChoice.Heading(BenchmarkMode.Smoke)}: run the cell in {ModeChoice.Name(BenchmarkMode.Quick)} mode to see it on your machine.)")
            : ExerciseResult.Pass($"{fasterOnNet9} on .NET 9 and {fasterOnNet10} on .NET 10, as your run shows: .NET 10 devirtualizes the array's IList<int> indexer, so the for loop no longer pays an interface call per element.");
    }

    private static string? Faster(BenchmarkRun run, string runtime)
    {
        double? Mean(string method) => run.Results.FirstOrDefault(r => r.Runtime == runtime && r.Method == method)?.Statistics?.Mean;
        return (Mean("ByEnumerator"), Mean("ByPosition")) switch
        {
            ({ } each, { } index) => each <= index ? "foreach" : "for",
            _ => null,
        };
    }
}
