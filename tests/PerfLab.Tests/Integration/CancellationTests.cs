using System.Diagnostics;
using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>
/// A cancel (Ctrl+C in `perflab bench`, a notebook's interrupt) that lands at any step of a case's way from
/// source to result ends the run cancelled, takes no lock and starts no host after it, and leaves no process
/// behind. The real compiler and host on .NET 10 in smoke mode; the engine names each step it passes
/// (<see cref="CaseStep"/>) and the test cancels right there, on the thread that passes it.
/// </summary>
public class CancellationTests
{
    // The source has a case that finishes, one that ends its process, then one that never ends
    // (Sources.FinishesThenLoops): a host's steps are passed once by the process of the first two cases and a second
    // time by the endless one's, where a lost cancel would hang.
    [Theory]
    [InlineData(CaseStep.Compiled, 1)]
    [InlineData(CaseStep.Locked, 1)]
    [InlineData(CaseStep.Exited, 1)]
    [InlineData(CaseStep.ResultRead, 1)]
    [InlineData(CaseStep.Started, 2)]
    [InlineData(CaseStep.FirstEvent, 2)]
    public async Task A_cancel_at_any_step_of_a_cases_start_ends_the_run_cancelled_and_leaves_no_process(string step, int pass)
    {
        using var home = new TempFolder();
        using var cancel = new CancellationTokenSource();
        var reached = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var gate = new Lock();
        var passes = 0;
        var cancelled = false;
        var stepsAfterCancel = new List<string>();
        var engine = new BenchmarkEngine(new PerfLabHome(home.Path))
        {
            OnStep = s =>
            {
                lock (gate)
                {
                    if (cancelled)
                    {
                        stepsAfterCancel.Add(s);
                        return;
                    }

                    cancelled = s == step && ++passes == pass;
                }

                if (cancelled)
                {
                    cancel.Cancel();
                    reached.SetResult();
                }
            },
        };
        var request = new BenchmarkRequest
        {
            Source = Sources.FinishesThenLoops(),
            SourcePath = Path.Combine(home.Path, "FinishesThenLoops.cs"),
            Mode = BenchmarkMode.Smoke,
            Runtimes = RuntimeCatalog.FindAll(["net10.0"]),
            CaseTimeout = TimeSpan.FromMinutes(2),
        };

        try
        {
            var run = engine.RunAsync(request, null, cancel.Token);
            await Task.WhenAny(reached.Task, run).WaitAsync(TimeSpan.FromMinutes(3));
            Assert.True(reached.Task.IsCompleted, $"the run ended before passing '{step}' {pass} time(s): {(run.IsFaulted ? run.Exception!.InnerException : run.Status)}");

            var clock = Stopwatch.StartNew();
            var ended = await Record.ExceptionAsync(() => run.WaitAsync(TimeSpan.FromSeconds(10)));
            Assert.False(ended is TimeoutException, $"the run did not end within 10 s of a cancel at '{step}' (pass {pass}); processes mentioning its home: {string.Join(", ", CliProcess.ProcessesMentioning(home.Path))}");
            Assert.True(ended is OperationCanceledException, $"a cancel at '{step}' (pass {pass}) ended the run with {ended?.ToString() ?? "results"}, not cancelled");
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(10), $"ended {clock.Elapsed.TotalSeconds:F1} s after the cancel");
            Assert.Empty(CliProcess.ProcessesMentioning(home.Path));
            lock (gate)
            {
                Assert.DoesNotContain(CaseStep.Locked, stepsAfterCancel);
                Assert.DoesNotContain(CaseStep.Started, stepsAfterCancel);
            }
        }
        finally
        {
            KillLeftovers(home.Path);
        }
    }

    // A failing run must not leave its endless host spinning for the tests after it.
    private static void KillLeftovers(string marker)
    {
        foreach (var line in CliProcess.ProcessesMentioning(marker))
        {
            try
            {
                using var process = Process.GetProcessById(int.Parse(line[..line.IndexOf(':', StringComparison.Ordinal)], System.Globalization.CultureInfo.InvariantCulture));
                process.Kill(entireProcessTree: true);
            }
            catch (Exception ex) when (ex is ArgumentException or InvalidOperationException)
            {
                // Already gone.
            }
        }
    }
}
