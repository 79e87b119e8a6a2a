using System.Security.Cryptography;
using System.Text.Json.Nodes;
using PerfLab.Course;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Tests.Support;
using PerfLab.Views.Html;
using static PerfLab.Notebooks.Tests.Support.TestNotebooks;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// The course's notebooks, run once headless by the real `perflab run` in smoke mode (the routes' collection
/// fixture), and beside it the quick route (<see cref="SteadyStateRuns"/>): perflab run spends much of its time
/// compiling and starting processes, and the measuring lock keeps the two from timing anything at once. The two
/// nbclient routes follow `perflab run` notebook by notebook, side by side and at low priority: every notebook on the
/// course kernel (<see cref="CourseKernelRoute"/>) and on .NET Interactive (<see cref="InteractiveRoute"/>). Their
/// cells are answered from the caches `perflab run` has filled, so they cost compile and kernel time, not measuring,
/// and their tests await them while the collection's other tests run.
/// </summary>
public sealed class CourseRun : IAsyncLifetime
{
    /// <summary>The quick runs behind the claims' exact bytes per call.</summary>
    public SteadyStateRuns QuickRoute { get; } = new();

    public string Reports { get; } = Path.Combine(Path.GetTempPath(), "perflab-tests", "course-reports-" + Guid.NewGuid().ToString("N")[..8]);

    public CliResult Result { get; private set; } = new(-1, "", "");

    public Dictionary<string, string> HashesBefore { get; } = [];

    /// <summary>Every notebook under nbclient on the course kernel (perflab-csharp), each once `perflab run` has filled the caches for it.</summary>
    public Task<NotebookRoute> CourseKernelRoute { get; private set; } = Task.FromException<NotebookRoute>(new InvalidOperationException("The fixture did not start the course kernel's route."));

    /// <summary>Every notebook under nbclient on the pinned .NET Interactive, each once `perflab run` has filled the caches for it.</summary>
    public Task<NotebookRoute> InteractiveRoute { get; private set; } = Task.FromException<NotebookRoute>(new InvalidOperationException("The fixture did not start the .NET Interactive route."));

    /// <summary>`perflab site` over the course, started once `perflab run` has cached every listing (the site measures nothing).</summary>
    public Task<CliResult> Site { get; private set; } = Task.FromException<CliResult>(new InvalidOperationException("The fixture did not build the site."));

    /// <summary>Where <see cref="Site"/> writes.</summary>
    public string SiteFolder { get; } = Path.Combine(Path.GetTempPath(), "perflab-tests", "course-site-" + Guid.NewGuid().ToString("N")[..8]);

    /// <summary>The .NET Interactive kernelspec of <see cref="InteractiveRoute"/>, for its test's output.</summary>
    public InteractiveKernelspec? Interactive { get; private set; }

    private JupyterKernelspec? _courseKernel;

    public async Task InitializeAsync()
    {
        var notebooks = RunCommandTests.CourseNotebooks();
        foreach (var notebook in notebooks)
        {
            HashesBefore[notebook] = RunCommandTests.Hash(notebook);
        }

        Directory.CreateDirectory(Reports);
        try
        {
            // About 13 minutes beside the quick route on 2 quiet cores; the limit only catches a hang, so a loaded day is not one.
            var route = CliProcess.RunAsync(["run", Repo.Notebooks, "--mode", "smoke", "--out", Reports], TestHome.Environment, TimeSpan.FromMinutes(30));
            var quick = Task.Run(QuickRoute.InitializeAsync);

            // The nbclient routes follow `perflab run` notebook by notebook, at low priority: they use the core its
            // smoke runs leave idle, and their cells are answered from the caches it has just filled.
            CourseKernelRoute = Task.Run(() =>
            {
                _courseKernel = new JupyterKernelspec();
                return NotebookRoute.RunAsync(JupyterKernelspec.Name, _courseKernel.Environment(), notebooks, (Reports, Repo.Notebooks));
            });
            InteractiveRoute = Task.Run(() =>
            {
                Interactive = new InteractiveKernelspec(); // fails with `dotnet tool restore` when the tool is not restored
                return NotebookRoute.RunAsync(InteractiveKernelspec.Name, Interactive.Environment(), notebooks, (Reports, Repo.Notebooks));
            });

            await Task.WhenAll(route, quick);
            Result = await route;
        }
        finally
        {
            // The routes stop waiting for a report that will not come.
            await File.WriteAllTextAsync(Path.Combine(Reports, NotebookRoute.RunFinishedMarker), "");
        }

        Site = CliProcess.RunAsync(["site", "--out", SiteFolder, "--repository", SiteTests.Repository], TestHome.Environment, TimeSpan.FromMinutes(10));
    }

    public async Task DisposeAsync()
    {
        await Task.WhenAll(CourseKernelRoute, InteractiveRoute, Site).ContinueWith(_ => { }, TaskScheduler.Default);
        _courseKernel?.Dispose();
        Interactive?.Dispose();
        foreach (var folder in new[] { Reports, SiteFolder }.Where(Directory.Exists))
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}

/// <summary>`perflab run`: notebooks executed headless with the kernel's engine, reported as HTML, never rewritten unless asked.</summary>
[Collection(BothRoutes.Name)]
public class RunCommandTests(CourseRun course)
{
    public static IReadOnlyList<string> CourseNotebooks() =>
        Directory.EnumerateFiles(Repo.Notebooks, "*.ipynb", SearchOption.AllDirectories).Where(f => !f.Contains(".ipynb_checkpoints", StringComparison.Ordinal)).Order(StringComparer.Ordinal).ToArray();

    public static string Hash(string file) => Convert.ToHexString(SHA256.HashData(File.ReadAllBytes(file)));

    [Fact]
    public void Every_course_notebook_runs_in_smoke_mode_and_gets_a_report()
    {
        Assert.True(course.Result.ExitCode == 0, course.Result.ToString());
        var notebooks = CourseNotebooks();
        Assert.NotEmpty(notebooks);
        foreach (var notebook in notebooks)
        {
            var report = Path.Combine(course.Reports, Path.ChangeExtension(Path.GetRelativePath(Repo.Notebooks, notebook), ".html"));
            Assert.True(File.Exists(report), $"no report for {notebook} at {report}\n{course.Result}");
            Assert.Contains("✓ " + Path.GetRelativePath(Repo.Notebooks, notebook), course.Result.Output, StringComparison.Ordinal);
        }

        Assert.Contains($"{notebooks.Count} notebooks: {notebooks.Count} ran without error, 0 failed", course.Result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public void Running_never_rewrites_the_notebooks()
    {
        foreach (var (notebook, hash) in course.HashesBefore)
        {
            Assert.True(Hash(notebook) == hash, $"{notebook} changed during `perflab run` without --write-outputs");
        }
    }

    [Fact]
    public async Task Every_report_shows_its_measurement_notes_folded_in_chromium()
    {
        Assert.True(course.Result.ExitCode == 0, course.Result.ToString());
        var reports = CourseNotebooks().Select(n => Path.Combine(course.Reports, Path.ChangeExtension(Path.GetRelativePath(Repo.Notebooks, n), ".html"))).ToArray();
        await using var browser = await OfflineBrowser.OpenAsync(reports[0]);
        var problems = new List<string>();
        var notes = 0;
        foreach (var report in reports)
        {
            await browser.Tab.GotoAsync(new Uri(report).AbsoluteUri, new() { WaitUntil = Microsoft.Playwright.WaitUntilState.Load });
            var (folded, blocks) = await OfflineBrowser.FoldedNotesAsync(browser.Tab, Path.GetRelativePath(course.Reports, report));
            problems.AddRange(folded);
            notes += blocks;
        }

        Assert.True(problems.Count == 0, string.Join("\n", problems));
        Assert.True(notes >= 10, $"only {notes} measurement notes blocks in {reports.Length} reports: are they still rendered as <details>?");
    }

    [Fact]
    public async Task The_start_here_report_renders_prose_table_and_chart_offline_without_errors()
    {
        Assert.True(course.Result.ExitCode == 0, course.Result.ToString());
        var report = Path.Combine(course.Reports, "00-start-here.html");
        await using var browser = await OfflineBrowser.OpenAsync(report);
        var tab = browser.Tab;
        await tab.WaitForSelectorAsync(".chart .main-svg", new() { Timeout = 20_000 });

        Assert.Contains("smoke", await tab.Locator("header").InnerTextAsync(), StringComparison.Ordinal);
        Assert.True(await tab.Locator(".markdown h1, .cell-markdown h1, h1").CountAsync() >= 1, "the markdown title is not rendered");
        Assert.True(await tab.Locator(".perflab-results table tbody tr").CountAsync() >= 3, "no results table with a row per runtime");
        var charts = await tab.QuerySelectorAllAsync(".chart");
        Assert.NotEmpty(charts);
        var box = await charts[0].BoundingBoxAsync();
        Assert.True(box is { Width: > 100, Height: > 100 }, $"the first chart is {box?.Width}x{box?.Height}");
        Assert.True(browser.Problems.Count == 0, string.Join("\n", browser.Problems));
        Assert.True(browser.Leaving.Count == 0, "requests off the machine: " + string.Join(", ", browser.Leaving));

        // N10-J01 is drawn three ways: the post's ratio, the committed reference machine's, and this run's.
        var legends = await tab.EvaluateAsync<string[]>("() => [...document.querySelectorAll('.legendtext')].map(e => e.textContent)");
        Assert.Contains("published (the post's machine)", legends);
        Assert.Contains("reference (course-machine-linux-x64)", legends);
        Assert.Contains("yours (this machine)", legends);
        Assert.Contains("Reference course-machine-linux-x64", await tab.Locator("p.legend").AllInnerTextsAsync() is var lines ? string.Join("\n", lines) : "", StringComparison.Ordinal);

        // The helpers' progress lines are folded away: present, closed, and not on screen.
        Assert.True(await tab.Locator("details.progress").CountAsync() >= 3, "no folded progress in the benchmark cells");
        Assert.Equal(0, await tab.Locator("details.progress[open]").CountAsync());
        Assert.False(await tab.GetByText("case 1/1 AddThroughLambda(y=42) done").First.IsVisibleAsync(), "progress lines are visible");

        var screenshot = Path.Combine(OfflineBrowser.ArtifactsFolder, "00-start-here-report.png");
        await tab.ScreenshotAsync(new() { Path = screenshot, FullPage = true });
        Assert.True(new FileInfo(screenshot).Length > 20_000, "the screenshot is empty");
    }

    [Fact]
    public void Every_report_carries_plotly_js_once_packed_and_stays_under_2_MB()
    {
        Assert.True(course.Result.ExitCode == 0, course.Result.ToString());
        foreach (var report in Directory.EnumerateFiles(course.Reports, "*.html", SearchOption.AllDirectories))
        {
            var html = File.ReadAllText(report);
            var packed = html.Split(PlotlyAsset.PackedAttribute).Length - 1;
            var plain = html.Split("plotly.js v2.28.0").Length - 1;
            var expected = html.Contains("Plotly.newPlot", StringComparison.Ordinal) ? 1 : 0;
            Assert.True(packed == expected && plain == 0, $"{report} carries plotly.js {packed} times packed and {plain} times plain, expected {expected} packed and none plain");
            Assert.True(new FileInfo(report).Length < 2_000_000, $"{report} is {new FileInfo(report).Length:N0} bytes");
        }
    }

    [Fact]
    public async Task A_failing_cell_exits_non_zero_naming_the_cell_and_its_error_and_still_writes_the_report()
    {
        using var folder = new TempFolder();
        var notebook = folder.Write("broken.ipynb", Json(Metadata(), Markdown("# Broken"), Code("var x = 1;"), Code("throw new InvalidOperationException(\"boom at cell three\");"), Code("x")));
        var before = Hash(notebook);

        var result = await CliProcess.RunAsync(["run", notebook, "--mode", "smoke", "--out", Path.Combine(folder.Path, "out")], TestHome.Environment);

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains("cell 3", result.Error, StringComparison.Ordinal);
        Assert.Contains("boom at cell three", result.Error, StringComparison.Ordinal);
        Assert.True(File.Exists(Path.Combine(folder.Path, "out", "broken.html")), result.ToString());
        Assert.Equal(before, Hash(notebook));
    }

    [Fact]
    public async Task A_benchmark_case_that_throws_fails_the_notebook_with_the_case_and_its_reason_on_the_terminal()
    {
        using var folder = new TempFolder();
        // The runner's session already has the helpers: the cell needs their namespaces, not the setup cell's #r lines.
        var notebook = folder.Write("throws.ipynb", Json(Metadata(), Markdown("# Throws"), Code("using BenchmarkDotNet.Attributes;\nusing PerfLab.Notebooks;\nLab.Setup()"), Code($$"""
            using System.Text.RegularExpressions;
            public class Unclosed
            {
                private readonly Regex _pattern = new("(unclosed");
                [Benchmark] public bool Match() => _pattern.IsMatch("abc {{Guid.NewGuid():N}}");
            }
            await Lab.RunAsync<Unclosed>(runtimes: ["net10.0"])
            """), Code("1")));

        var result = await CliProcess.RunAsync(["run", notebook, "--mode", "smoke", "--out", Path.Combine(folder.Path, "out")], TestHome.Environment);

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains("✗ throws.ipynb: cell 3 failed", result.Output, StringComparison.Ordinal);
        Assert.Contains("net10.0 case 1/1 Match failed: System.Text.RegularExpressions.RegexParseException: Invalid pattern '(unclosed'", result.Error, StringComparison.Ordinal);
        Assert.Contains("error: throws.ipynb, cell 3: A benchmark case failed: Unclosed.Match on net10.0: System.Text.RegularExpressions.RegexParseException", result.Error, StringComparison.Ordinal);
        Assert.Contains("1 notebook: 0 ran without error, 1 failed; 1 benchmark case failed", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Write_outputs_stores_each_cells_outputs_and_count_in_the_notebook()
    {
        using var folder = new TempFolder();
        var notebook = folder.Write("kept.ipynb", Json(Metadata(), Markdown("# Kept"), Code("Console.WriteLine(\"hello\");"), Code("6 * 7")));

        var result = await CliProcess.RunAsync(["run", notebook, "--mode", "smoke", "--out", Path.Combine(folder.Path, "out"), "--write-outputs"], TestHome.Environment);

        Assert.True(result.ExitCode == 0, result.ToString());
        var cells = (JsonArray)JsonNode.Parse(File.ReadAllText(notebook))!["cells"]!;
        Assert.Equal("hello\n", (string?)cells[1]!["outputs"]![0]!["text"]![0]);
        Assert.Equal("42", (string?)cells[2]!["outputs"]![0]!["data"]!["text/plain"]![0]);
        Assert.Equal(2, (int?)cells[2]!["execution_count"]);
    }

    // The mode is resolved once by `perflab run` and passed down: Lab.Setup() says where it came from,
    // never "--mode" for a mode nobody gave. An empty PERFLAB_MODE counts as unset.
    [Theory]
    [InlineData("smoke", "", "Mode: smoke (PERFLAB_MODE)", "smoke")]
    [InlineData("quick", "--mode smoke", "Mode: smoke (--mode)", "smoke")]
    [InlineData("", "", "Mode: quick (default)", "quick")]
    public async Task The_setup_cell_says_the_mode_and_where_it_came_from(string variable, string options, string expected, string mode)
    {
        using var folder = new TempFolder();
        var notebook = folder.Write("mode.ipynb", Json(Metadata(), Code("Console.WriteLine(PerfLab.Notebooks.Lab.Setup());"), Code("Console.WriteLine($\"Lab.Mode={PerfLab.Notebooks.Lab.Mode}\");")));
        var environment = TestHome.Environment;
        environment["PERFLAB_MODE"] = variable;

        var result = await CliProcess.RunAsync(["run", notebook, "--out", folder.Path, .. options.Split(' ', StringSplitOptions.RemoveEmptyEntries)], environment);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains(expected, result.Error, StringComparison.Ordinal);
        Assert.Contains($"Lab.Mode={mode}", result.Error, StringComparison.Ordinal);
        Assert.Contains($"({mode} mode,", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_invalid_PERFLAB_MODE_is_one_clear_message()
    {
        using var folder = new TempFolder();
        var notebook = folder.Write("mode.ipynb", Json(Metadata(), Code("1")));
        var environment = TestHome.Environment;
        environment["PERFLAB_MODE"] = "fast";

        var result = await CliProcess.RunAsync(["run", notebook, "--out", folder.Path], environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("PERFLAB_MODE is 'fast'", result.Error, StringComparison.Ordinal);
        Assert.Contains("smoke", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_path_that_is_not_a_notebook_is_one_clear_message()
    {
        var missing = await CliProcess.RunAsync(["run", "no/such/notebook.ipynb"], TestHome.Environment);
        var wrongKind = await CliProcess.RunAsync(["run", CourseRepository.PathOf($"{CourseRepository.SamplesFolder}/ArraySum.cs", Repo.Root)], TestHome.Environment);

        Assert.Equal(1, missing.ExitCode);
        Assert.Contains("Not found: no/such/notebook.ipynb", missing.Error, StringComparison.Ordinal);
        Assert.Equal(1, wrongKind.ExitCode);
        Assert.Contains("perflab bench", wrongKind.Error, StringComparison.Ordinal);
    }

    [Fact]
    public void Every_course_notebook_follows_the_common_dialect()
    {
        var problems = CourseNotebooks().SelectMany(n => NotebookLint.Check(NotebookDocument.Load(n), Repo.Root)).ToArray();

        Assert.True(problems.Length == 0, string.Join("\n", problems));
    }
}
