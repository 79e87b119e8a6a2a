using System.Text.Json.Nodes;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Tests.Support;
using PerfLab.Views.Html;
using Xunit.Abstractions;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// The course's kernel driven by real Jupyter clients (nbclient, nbconvert, jupyter_client) from Debian's
/// packages, through the kernelspec `perflab kernel install` writes; benchmarks run in smoke mode.
/// </summary>
[Collection(BothRoutes.Name)]
public class JupyterKernelTests(JupyterKernelspec kernelspec, CourseRun course, ITestOutputHelper output) : IClassFixture<JupyterKernelspec>
{
    private static readonly TimeSpan NotebookTimeout = TimeSpan.FromMinutes(10);

    // The kernel starts in the repository root; the setup cell is the one of a notebook there.
    private static string Setup => SetupCell.For(Path.Combine(Repo.Root, "jupyter-tests.ipynb"), Repo.Root);

    [Fact]
    public async Task Every_notebook_runs_under_nbclient_in_smoke_mode_without_error_output()
    {
        var notebooks = RunCommandTests.CourseNotebooks();
        Assert.True(notebooks.Count > 0, $"No notebook found under {Repo.Notebooks}: there is nothing to run.");

        var route = await course.CourseKernelRoute;

        foreach (var line in route.Timings())
        {
            output.WriteLine(line);
        }

        route.AssertEveryCellRan(notebooks, "the course kernel");
    }

    [Fact]
    public async Task Nbconvert_html_of_start_here_contains_the_rendered_results_table()
    {
        var notebook = Path.Combine(Repo.Notebooks, "00-start-here.ipynb");
        Assert.True(File.Exists(notebook), $"{notebook} does not exist.");
        using var output = new TempFolder();

        var run = await JupyterPython.RunAsync(
            JupyterPython.Jupyter,
            ["nbconvert", "--to", "html", "--execute", "--ExecutePreprocessor.kernel_name=perflab-csharp", "--ExecutePreprocessor.timeout=600", notebook, "--output-dir", output.Path],
            kernelspec.Environment(),
            NotebookTimeout);

        var html = Path.Combine(output.Path, "00-start-here.html");
        Assert.True(run.ExitCode == 0 && File.Exists(html), $"nbconvert did not write {html}:\n{run}");
        var text = await File.ReadAllTextAsync(html);
        Assert.True(text.Contains("class=\"perflab-results\"", StringComparison.Ordinal), $"No perflab-results block in {html}:\n{run}");
        Assert.True(text.Contains("<table", StringComparison.Ordinal), $"No <table in {html}:\n{run}");
    }

    [Fact]
    public async Task Kernel_info_reports_the_csharp_language()
    {
        using var kernel = await StartAsync();

        var info = await kernel.KernelInfoAsync();

        Assert.True((string?)info["language_info"]?["name"] == "csharp", $"kernel_info_reply: {info.ToJsonString()}");
        // The version cells are parsed as, which Jupyter writes into the notebook on save (NotebookLint checks the files).
        Assert.True((string?)info["language_info"]?["version"] == PerfLab.Notebooks.Execution.NotebookSession.CSharpVersion, $"kernel_info_reply: {info.ToJsonString()}");
        Assert.True((string?)info["status"] == "ok", $"kernel_info_reply: {info.ToJsonString()}");
    }

    [Fact]
    public async Task Completion_offers_Count_after_a_list_variable_and_a_dot()
    {
        using var kernel = await StartAsync();

        var reply = await kernel.CompleteAsync("var numbers = new List<int>(); numbers.Cou");

        var matches = reply["matches"]?.AsArray().Select(m => (string?)m).ToList() ?? [];
        Assert.True(matches.Contains("Count"), $"complete_reply: {reply.ToJsonString()}");
    }

    [Fact]
    public async Task Is_complete_says_an_open_brace_is_incomplete()
    {
        using var kernel = await StartAsync();

        var reply = await kernel.IsCompleteAsync("if (true) {");

        Assert.True((string?)reply["status"] == "incomplete", $"is_complete_reply: {reply.ToJsonString()}");
    }

    [Fact]
    public async Task A_compile_error_is_one_error_output_and_the_next_cell_still_runs()
    {
        using var kernel = await StartAsync();

        var broken = await kernel.ExecuteAsync("var a = 1;\nvar b = a +* 2;");
        var after = await kernel.ExecuteAsync("1 + 1");

        AssertOneErrorOutput(broken, kernel);
        Assert.True(broken.Errors[0].Traceback.Any(l => l.Contains("(2,", StringComparison.Ordinal)), $"The error does not point at line 2:\n{broken}");
        AssertStillAnswers(after, kernel);
    }

    [Fact]
    public async Task An_exception_is_one_error_output_and_the_next_cell_still_runs()
    {
        using var kernel = await StartAsync();

        var thrown = await kernel.ExecuteAsync("throw new InvalidOperationException(\"the reader's own failure\");");
        var after = await kernel.ExecuteAsync("1 + 1");

        AssertOneErrorOutput(thrown, kernel);
        Assert.True(thrown.Errors[0].Evalue.Contains("the reader's own failure", StringComparison.Ordinal), $"The error does not carry the exception's message:\n{thrown}");
        AssertStillAnswers(after, kernel);
    }

    [Fact]
    public async Task A_benchmark_that_never_returns_fails_its_row_and_the_next_cell_still_runs()
    {
        using var kernel = await StartAsync();
        await AssertSetupRunsAsync(kernel);

        var spin = await kernel.ExecuteAsync("""
            public class NeverEnds { [Benchmark] public void Spin() { while (true) { } } }
            await Lab.RunAsync<NeverEnds>(runtimes: ["net10.0"], caseTimeoutSeconds: 5)
            """, TimeSpan.FromMinutes(3));
        var after = await kernel.ExecuteAsync("1 + 1");

        Assert.True(spin.Idle && spin.ReplyStatus == "ok" && spin.Errors.Count == 0, $"The run itself should succeed with a failed row:\n{spin}\n--- driver stderr\n{kernel.Stderr}");
        var html = spin.ResultHtml ?? "";
        Assert.True(html.Contains("class=\"failed\"", StringComparison.Ordinal) && html.Contains("5 s", StringComparison.Ordinal), $"The results table has no failed row naming the 5 s timeout:\n{spin}");
        AssertStillAnswers(after, kernel);
    }

    [Fact]
    public async Task An_unknown_runtime_is_one_error_output_and_the_next_cell_still_runs()
    {
        using var kernel = await StartAsync();
        await AssertSetupRunsAsync(kernel);

        var unknown = await kernel.ExecuteAsync("""
            public class Tiny { [Benchmark] public int One() => 1; }
            await Lab.RunAsync<Tiny>(runtimes: ["net7.0"])
            """);
        var after = await kernel.ExecuteAsync("1 + 1");

        AssertOneErrorOutput(unknown, kernel);
        Assert.True(unknown.Errors[0].Evalue.Contains("net7.0", StringComparison.Ordinal), $"The error does not name net7.0:\n{unknown}");
        AssertStillAnswers(after, kernel);
    }

    [Fact]
    public async Task Interrupting_a_running_benchmark_cell_leaves_no_process_behind()
    {
        // A home of its own: its path marks this test's benchmark processes in /proc/*/cmdline.
        var home = Path.Combine(Path.GetTempPath(), "perflab-tests", "interrupt-home-" + Guid.NewGuid().ToString("N")[..8]);
        try
        {
            using var kernel = await StartAsync(home);
            await AssertSetupRunsAsync(kernel);

            var msgId = await kernel.SendExecuteAsync("""
                public class Endless { [Benchmark] public void Spin() { while (true) { } } }
                await Lab.RunAsync<Endless>(runtimes: ["net10.0"], caseTimeoutSeconds: 120)
                """);
            var hosts = await ProcessWaits.PollAsync(() => CliProcess.ProcessesMentioning(home).Where(p => p.Contains("PerfLab.Host", StringComparison.Ordinal)).ToList(), found => found.Count > 0, TimeSpan.FromSeconds(90));
            Assert.True(hosts.Count > 0, $"No PerfLab.Host process mentioning {home} appeared within 90 s.\n--- driver stderr\n{kernel.Stderr}");

            await kernel.InterruptAsync();
            var cell = await kernel.CollectAsync(msgId, TimeSpan.FromSeconds(15));
            var left = await ProcessWaits.PollAsync(() => CliProcess.ProcessesMentioning(home), found => found.Count == 0, TimeSpan.FromSeconds(5));
            var after = await kernel.ExecuteAsync("1 + 1");

            Assert.True(cell.Idle, $"The interrupted cell did not end within 15 s:\n{cell}\n--- driver stderr\n{kernel.Stderr}");
            Assert.True(cell.Errors.Count == 1 && cell.Errors[0].Ename == "Interrupted", $"The cell should end with one Interrupted error:\n{cell}");
            Assert.True(left.Count == 0, $"Processes left behind after the interrupt:\n{string.Join("\n", left)}");
            AssertStillAnswers(after, kernel);
        }
        finally
        {
            foreach (var line in CliProcess.ProcessesMentioning(home))
            {
                ProcessWaits.KillQuietly(int.Parse(line[..line.IndexOf(':', StringComparison.Ordinal)], System.Globalization.CultureInfo.InvariantCulture));
            }

            DeleteQuietly(home);
        }
    }

    [Fact]
    public async Task Plotly_js_goes_with_the_next_chart_again_when_the_cell_that_carried_it_is_rerun_or_deleted()
    {
        using var kernel = await StartAsync();
        // The kernel runs in the repository root, as a notebook there would.
        var setup = await kernel.ExecuteAsync(SetupCell.For(Path.Combine(Repo.Root, "any.ipynb"), Repo.Root));
        Assert.True(setup.ReplyStatus == "ok", setup.ToString());
        const string Chart = "Plotly.NET.CSharp.Chart.Column<double, string, string>(values: new[] { 4.2, 1.3 }, Keys: new[] { \"net9.0\", \"net10.0\" })";
        async Task<bool> CarriesPlotly(string cellId, params string[] deleted)
        {
            var cell = await kernel.ExecuteAsync(Chart, metadata: new JsonObject { ["cellId"] = cellId, ["deletedCells"] = new JsonArray(deleted.Select(d => (JsonNode)d).ToArray()) });
            Assert.True(cell.ReplyStatus == "ok" && cell.ResultHtml?.Contains("Plotly.newPlot(", StringComparison.Ordinal) == true, cell.ToString());
            return PlotlyAsset.HasLoader(cell.ResultHtml);
        }

        Assert.True(await CarriesPlotly("first"), "the first chart of the kernel should carry plotly.js");
        Assert.False(await CarriesPlotly("second"), "a later chart should not carry plotly.js again");
        Assert.True(await CarriesPlotly("first"), "re-running the cell that carried plotly.js replaces that output, so it should carry it again");
        Assert.False(await CarriesPlotly("second"), "the re-run cell carries it now; another cell's chart should not");
        Assert.True(await CarriesPlotly("third", "first"), "the carrier was deleted, so the next chart should carry plotly.js");
        Assert.False(await CarriesPlotly("second"), "the new carrier is 'third'");
    }

    [Fact]
    public async Task Shutting_down_the_kernel_ends_its_process()
    {
        using var kernel = await StartAsync();
        await kernel.ExecuteAsync("var kept = 1;");
        var pid = kernel.KernelPid;

        var shutdown = await kernel.ShutdownAsync();
        var gone = await ProcessWaits.PollAsync(() => JupyterPython.IsRunning(pid), running => !running, TimeSpan.FromSeconds(5));

        Assert.False(gone, $"Kernel process {pid} still runs after shutdown_kernel: {shutdown.ToJsonString()}");
        Assert.True((string?)shutdown["shutdown_status"] == "ShutdownRequest" && (int?)shutdown["returncode"] == 0,
            $"The kernel did not leave by itself on shutdown_request (jupyter_client had to signal it, or it failed): {shutdown.ToJsonString()}\n--- driver stderr\n{kernel.Stderr}");
    }

    private async Task<JupyterDriver> StartAsync(string? home = null)
    {
        var kernel = await JupyterDriver.StartAsync(kernelspec.Environment(home), Repo.Root);
        var resourceDir = (string?)kernel.Started["resource_dir"] ?? "";
        if (!resourceDir.StartsWith(kernelspec.DataDirectory, StringComparison.Ordinal))
        {
            kernel.Dispose();
            Assert.Fail($"jupyter_client picked a kernelspec outside the test's JUPYTER_DATA_DIR: {kernel.Started.ToJsonString()}");
        }

        return kernel;
    }

    private static async Task AssertSetupRunsAsync(JupyterDriver kernel)
    {
        var setup = await kernel.ExecuteAsync(Setup);
        Assert.True(setup.Idle && setup.ReplyStatus == "ok" && setup.Errors.Count == 0, $"The setup cell failed:\n{setup}\n--- driver stderr\n{kernel.Stderr}");
    }

    private static void AssertOneErrorOutput(JupyterCell cell, JupyterDriver kernel)
    {
        Assert.True(cell.Idle, $"The cell never went idle:\n{cell}\n--- driver stderr\n{kernel.Stderr}");
        Assert.True(cell.Errors.Count == 1, $"Expected exactly one error output:\n{cell}");
        var error = cell.Errors[0];
        Assert.True(!string.IsNullOrWhiteSpace(error.Ename) && error.Evalue.Length > 0 && error.Traceback.Count > 0, $"The error output lacks ename, evalue or traceback: {error}");
        Assert.True(cell.ReplyStatus == "error" && (string?)cell.Reply!["ename"] == error.Ename, $"The execute_reply does not carry the error:\n{cell}");
    }

    private static void AssertStillAnswers(JupyterCell after, JupyterDriver kernel) =>
        Assert.True(after.ResultText == "2" && after.Errors.Count == 0, $"The next cell `1 + 1` did not return 2:\n{after}\n--- driver stderr\n{kernel.Stderr}");

    private static void DeleteQuietly(string folder)
    {
        try
        {
            Directory.Delete(folder, recursive: true);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }
}
