using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Tests.Support;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// A running benchmark cell on the course kernel, driven by jupyter_client: its table is shown after the first round
/// of launches and updated in place (Jupyter's display_id) before the cell ends. Its own class, outside the routes'
/// collection, so running it starts no course run.
/// </summary>
public class LiveResultsKernelTests(JupyterKernelspec kernelspec) : IClassFixture<JupyterKernelspec>
{
    [Fact]
    public async Task A_quick_cell_shows_its_table_after_the_first_round_and_updates_it_before_the_execute_reply()
    {
        using var kernel = await JupyterDriver.StartAsync(kernelspec.Environment(), Repo.Root);
        var setup = await kernel.ExecuteAsync(SetupCell.For(Path.Combine(Repo.Root, "jupyter-tests.ipynb"), Repo.Root));
        Assert.True(setup.ReplyStatus == "ok", $"The setup cell failed:\n{setup}\n--- driver stderr\n{kernel.Stderr}");

        // One case, two runtimes, three rounds: a table after round 1, updated after round 2, then the cell's result.
        var cell = await kernel.ExecuteAsync("""
            public class LiveTable { [Benchmark] public int Sum() { var s = 0; for (var i = 0; i < 64; i++) { s += i; } return s; } }
            await Lab.RunAsync<LiveTable>(runtimes: ["net9.0", "net10.0"], mode: "quick", launches: 3, force: true)
            """, TimeSpan.FromMinutes(5)); // the measuring lock may be held by other tests' runs first

        cell.AssertTableShownAndUpdatedBeforeReply(kernel.Stderr);
        Assert.True(cell.ResultHtml is { } result && result.Contains("class=\"perflab-results\"", StringComparison.Ordinal), $"The cell's result is not the final table:\n{cell}");
    }
}
