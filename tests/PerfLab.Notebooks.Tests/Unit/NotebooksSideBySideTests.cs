using System.Collections.Concurrent;
using PerfLab.Contract;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;
using PerfLab.Results;
using PerfLab.Views.Html;
using static PerfLab.Notebooks.Tests.Support.TestNotebooks;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>
/// Two notebook runs in one process, as two jobs sharing it would be: what answers a benchmark call and whether
/// a page has plotly.js belong to each run, not to the process. Replayed, so nothing is measured.
/// </summary>
public class NotebooksSideBySideTests
{
    private const string Usings = "using BenchmarkDotNet.Attributes;\nusing PerfLab.Notebooks;";

    private const string SumsCell = """
        public class Sums
        {
            private readonly int[] _values = Enumerable.Range(0, 100).ToArray();

            [Benchmark] public int Total() => _values.Sum();
        }

        await Lab.RunAsync<Sums>(runtimes: ["net8.0", "net10.0"])
        """;

    private const string SumsAgainCell = "await Lab.RunAsync<Sums>(runtimes: [\"net8.0\", \"net10.0\"])";

    // How long a notebook's first call waits for the other notebook's: far more than compiling a cell takes.
    private static readonly TimeSpan Meeting = TimeSpan.FromSeconds(30);

    private static BenchmarkRun Recorded(string net10Version) => Fake.Run(
        BenchmarkMode.Full,
        Fake.Outcome("net8.0", "8.0.31", Fake.Case("Total", 4321.5, 0, baseline: true)),
        Fake.Outcome("net10.0", net10Version, Fake.Case("Total", 1234.5, 0, baseline: true)));

    private static string Shown(CellRun cell) => string.Concat(cell.Outputs.OfType<DisplayOutput>().Select(o => o.Data.GetValueOrDefault("text/html")));

    [Fact]
    public async Task Two_notebooks_replayed_at_once_are_each_answered_from_their_own_recorded_runs()
    {
        using var folder = new TempFolder();
        var notebook = folder.Write("sums.ipynb", Json(Metadata(), Markdown("# Sums"), Code(Usings), Code(SumsCell), Code(SumsAgainCell)));
        var mine = Recorded("10.0.101");
        var theirs = Recorded("10.0.202");
        // Each notebook's first call waits until the other's has come too: both runs are inside a cell then.
        using var both = new Barrier(2);
        var met = new ConcurrentQueue<bool>();
        Func<string, BenchmarkRun?> AnswerWith(BenchmarkRun recorded)
        {
            var calls = 0;
            return _ =>
            {
                if (Interlocked.Increment(ref calls) == 1)
                {
                    met.Enqueue(both.SignalAndWait(Meeting));
                }

                return recorded;
            };
        }

        var replayed = await Task.WhenAll(
            Task.Run(() => NotebookReplay.RunAsync(notebook, AnswerWith(mine), new HashSet<int>(), null, CancellationToken.None)),
            Task.Run(() => NotebookReplay.RunAsync(notebook, AnswerWith(theirs), new HashSet<int>(), null, CancellationToken.None)));

        Assert.True(met.Count == 2 && met.All(m => m), $"the two notebooks should run at the same time; their first calls met: {string.Join(", ", met)}");
        foreach (var (run, own, other) in new[] { (replayed[0], mine, theirs), (replayed[1], theirs, mine) })
        {
            Assert.Equal(2, run.Calls.Count);
            Assert.All(run.Calls, call => Assert.Same(own, call.Found));
            foreach (var cell in new[] { run.Run.Cells[2], run.Run.Cells[3] })
            {
                Assert.Contains(own.Runtimes[1].Version, Shown(cell), StringComparison.Ordinal);
                Assert.DoesNotContain(other.Runtimes[1].Version, Shown(cell), StringComparison.Ordinal);
            }
        }
    }

    [Fact]
    public async Task Each_notebook_run_sends_plotly_js_with_its_own_first_chart()
    {
        using var folder = new TempFolder();
        var notebook = folder.Write("sums.ipynb", Json(Metadata(), Markdown("# Sums"), Code(Usings), Code(SumsCell), Code(SumsAgainCell)));
        var recorded = Recorded("10.0.101");

        foreach (var attempt in new[] { "first", "second" })
        {
            var replayed = await NotebookReplay.RunAsync(notebook, _ => recorded, new HashSet<int>(), null, CancellationToken.None);

            Assert.True(PlotlyAsset.HasLoader(Shown(replayed.Run.Cells[2])), $"the {attempt} run's first chart should carry plotly.js: its page has none yet");
            Assert.False(PlotlyAsset.HasLoader(Shown(replayed.Run.Cells[3])), $"the {attempt} run's second chart should not carry plotly.js again");
        }
    }
}
