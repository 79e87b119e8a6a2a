using PerfLab.Benchmarks;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>A cell's progress lines: one per step of each runtime, however the runtimes' iterations interleave.</summary>
public class NotebookProgressTests
{
    private static readonly string[] Runtimes = ["net8.0", "net9.0", "net10.0"];

    private static RunProgress Step(string runtime, int launch, string phase, int iteration) =>
        new("measure", TimeSpan.FromSeconds(iteration), null, runtime, 1, 1, "Sum(N=100)", phase, iteration, launch, 4);

    [Fact]
    public void Launches_taking_turns_write_one_line_per_runtime_and_launch_not_one_per_turn()
    {
        var lines = new StringWriter();
        var progress = new NotebookProgress(lines, show: null, observer: null);
        foreach (var launch in new[] { 1, 2 })
        {
            // A round in turns: each runtime's first iteration, then each one's second, and so on.
            for (var iteration = 1; iteration <= 5; iteration++)
            {
                foreach (var runtime in Runtimes)
                {
                    progress.Report(Step(runtime, launch, "WorkloadActual", iteration));
                }
            }
        }

        var written = lines.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.True(written.Length == 6, $"expected one line per runtime and launch (6), got {written.Length}:\n{lines}");
        Assert.Equal(2, written.Count(l => l.Contains("net9.0 case 1/1", StringComparison.Ordinal)));
        Assert.Contains(written, l => l.Contains("net10.0 case 1/1 launch 2/4 Sum(N=100)", StringComparison.Ordinal));
    }
}
