using PerfLab.Notebooks;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>
/// The public surface of the libraries a notebook cell calls, pinned as reviewed files (Snapshots/public-api-*.txt):
/// a changed signature, or a member added or removed, fails with the changed lines, so the surface changes only on
/// purpose. Accept a change with PERFLAB_UPDATE_SNAPSHOTS=1 (or by renaming the .received.txt file the test writes).
/// </summary>
public class PublicApiTests
{
    [Fact]
    public void The_engine_s_public_surface_is_the_reviewed_one() => Snapshot.Match("public-api-PerfLab", PublicApi.Of(typeof(PerfLabException).Assembly));

    [Fact]
    public void The_notebook_helpers_public_surface_is_the_reviewed_one() => Snapshot.Match("public-api-PerfLab.Notebooks", PublicApi.Of(typeof(Lab).Assembly));

    [Fact]
    public void A_signature_reads_as_in_csharp()
    {
        var api = PublicApi.Of(typeof(Lab).Assembly);

        Assert.Contains(
            "\n  static PerfLab.Results.BreakEven BreakEven(PerfLab.Results.BenchmarkRun run, int readsPerCall, (string Name, string Build, string Read) plain, (string Name, string Build, string Read) prepared)\n",
            api,
            StringComparison.Ordinal);
        Assert.Contains(
            "\n  static PerfLab.Notebooks.Exercises.ExerciseResult CheckDeadCode(System.Type benchmark, PerfLab.Results.BenchmarkRun? run = null)\n",
            api,
            StringComparison.Ordinal);
    }
}
