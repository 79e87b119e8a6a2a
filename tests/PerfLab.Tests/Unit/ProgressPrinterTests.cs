using PerfLab.Benchmarks;
using PerfLab.Cli;

namespace PerfLab.Tests.Unit;

/// <summary>`perflab`'s progress written as lines (a log, --verbose): one per step of each runtime, not per iteration.</summary>
public class ProgressPrinterTests
{
    [Fact]
    public void Launches_taking_turns_write_one_line_per_runtime_and_phase_not_one_per_turn()
    {
        var lines = new StringWriter();
        var printer = new ProgressPrinter(lines, verbose: true);
        string[] runtimes = ["net8.0", "net9.0", "net10.0"];
        foreach (var phase in new[] { "WorkloadWarmup", "WorkloadActual" })
        {
            for (var iteration = 1; iteration <= 5; iteration++)
            {
                foreach (var runtime in runtimes)
                {
                    printer.Report(new RunProgress("measure", TimeSpan.FromSeconds(iteration), null, runtime, 1, 2, "Sum(N=100)", phase, iteration, 1, 4));
                }
            }
        }

        var written = lines.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.True(written.Length == 6, $"expected one line per runtime and phase (6), got {written.Length}:\n{lines}");
        Assert.Contains(written, l => l.Contains("net8.0 case 1/2 launch 1/4 Sum(N=100) WorkloadActual 1", StringComparison.Ordinal));
    }
}
