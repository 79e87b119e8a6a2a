using System.Diagnostics;
using System.Text;
using PerfLab.Processes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>`perflab bench` runs side by side: who waits for the measuring lock, who shares it, and who reads whose result.</summary>
[Collection(BusyCliRuns.Name)]
public class BenchMeasuringLockTests
{
    [Fact]
    public async Task A_second_run_waits_for_the_one_measuring_and_says_so()
    {
        using var home = new TempFolder();
        using var folder = new TempFolder();
        var file = folder.Write("Tiny.cs", Sources.Tiny());
        var waiting = new TaskCompletionSource();
        var errors = new StringBuilder();

        Process process;
        using (await FileLock.AcquireAsync(Path.Combine(home.Path, "locks", "measure.lock"), shared: false, null, CancellationToken.None))
        {
            process = WatchedCli.Start(["bench", file, "--mode", "smoke", "--runtimes", "net10.0"], home.Path, errors, "another PerfLab run is measuring", waiting);
            await waiting.Task.WaitAsync(TimeSpan.FromMinutes(2));
            Assert.False(process.HasExited);
        }

        await process.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(2));
        Assert.True(process.ExitCode == 0, errors.ToString());
        Assert.Contains($"another PerfLab run is measuring (process {Environment.ProcessId}", errors.ToString(), StringComparison.Ordinal);
        process.Dispose();
    }

    [Fact]
    public async Task Two_runs_at_the_same_time_both_succeed()
    {
        using var folder = new TempFolder();
        var a = folder.Write("A.cs", Sources.Tiny());
        var b = folder.Write("B.cs", Sources.Tiny());

        var results = await Task.WhenAll(
            CliProcess.RunAsync(["bench", a, "--mode", "smoke", "--runtimes", "net10.0", "net8.0"], TestHome.Environment),
            CliProcess.RunAsync(["bench", b, "--mode", "smoke", "--runtimes", "net10.0", "net8.0"], TestHome.Environment));

        Assert.All(results, r => Assert.True(r.ExitCode == 0, r.ToString()));
    }

    [Fact]
    public async Task Two_identical_quick_runs_at_the_same_time_measure_once_and_the_one_that_waited_reads_the_other()
    {
        using var folder = new TempFolder();
        var source = Sources.Tiny() + $"\n// {Guid.NewGuid():N}: a source no earlier run measured\n";
        var a = folder.Write("A.cs", source);
        var b = folder.Write("B.cs", source);

        var results = await Task.WhenAll(
            // One launch each: the lock is the subject, and every launch holds the measuring lock the notebook tests wait for.
            CliProcess.RunAsync(["bench", a, "--mode", "quick", "--launches", "1", "--runtimes", "net10.0"], TestHome.Environment),
            CliProcess.RunAsync(["bench", b, "--mode", "quick", "--launches", "1", "--runtimes", "net10.0"], TestHome.Environment));

        Assert.All(results, r => Assert.True(r.ExitCode == 0, r.ToString()));
        var measured = results.Where(r => r.Error.Contains("net10.0 case 1/1", StringComparison.Ordinal)).ToList();
        // Usually the second waits for the lock and reads the first's result then; one that starts late reads it before.
        var read = results.Where(r => r.Error.Contains("net10.0: cached result", StringComparison.Ordinal)).ToList();
        Assert.True(measured.Count == 1 && read.Count == 1, $"Expected one run to measure and the other to read its result:\n{string.Join("\n====\n", results.Select(r => r.ToString()))}");
    }

    [Fact]
    public async Task A_smoke_run_shares_the_lock_with_work_that_measures_nothing_and_a_quick_run_waits_for_it()
    {
        using var home = new TempFolder();
        using var folder = new TempFolder();
        var file = folder.Write("Tiny.cs", Sources.Tiny());
        var waiting = new TaskCompletionSource();
        var errors = new StringBuilder();

        Process quick;
        using (await FileLock.AcquireAsync(Path.Combine(home.Path, "locks", "measure.lock"), shared: true, null, CancellationToken.None))
        {
            // net10.0 is the SDK's runtime: nothing to provision in an empty home.
            var smoke = await CliProcess.RunAsync(["bench", file, "--mode", "smoke", "--runtimes", "net10.0"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path }, TimeSpan.FromMinutes(2));
            Assert.True(smoke.ExitCode == 0, smoke.ToString());
            Assert.DoesNotContain("another PerfLab run is measuring", smoke.Error, StringComparison.Ordinal);

            quick = WatchedCli.Start(["bench", file, "--mode", "quick", "--launches", "1", "--runtimes", "net10.0"], home.Path, errors, "another PerfLab run is measuring", waiting);
            await waiting.Task.WaitAsync(TimeSpan.FromMinutes(2));
            Assert.False(quick.HasExited);
        }

        await quick.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(2));
        Assert.True(quick.ExitCode == 0, errors.ToString());
        quick.Dispose();
    }
}
