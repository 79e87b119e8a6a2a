using Microsoft.Playwright;
using PerfLab.Contract;
using PerfLab.Display;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Reports;
using PerfLab.Notebooks.Tests.Support;
using static PerfLab.Notebooks.Tests.Support.TestNotebooks;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>A notebook report page opened in a real headless Chromium with every request off the machine blocked.</summary>
public class ReportBrowserTests
{
    private static string Chromium()
    {
        var path = Environment.GetEnvironmentVariable("PERFLAB_CHROMIUM") ?? "/usr/bin/chromium";
        Assert.True(File.Exists(path), $"No Chromium at {path}. Install Debian's chromium (`apt-get install chromium`, as .ci/run does) or set PERFLAB_CHROMIUM.");
        return path;
    }

    [Fact]
    public async Task A_report_renders_its_prose_table_code_chart_and_failure_offline_without_errors()
    {
        var results = Fake.Run(
            BenchmarkMode.Smoke,
            Fake.Outcome("net8.0", "8.0.31", Fake.Case("Loop", 120, 0, baseline: true), Fake.Case("Span", 80, 0)),
            Fake.Outcome("net10.0", "10.0.0", Fake.Case("Loop", 60, 0, baseline: true), Fake.Case("Span", 30, 0)));
        var notebook = Notebook(
            Metadata(),
            Markdown("# Sum an array\n\nYou will learn why **.NET 10** sums faster.\n\n| Runtime | Expected |\n|---|---|\n| .NET 8 | slower |\n| .NET 10 | faster |"),
            Code(SetupText),
            Code("// Runs both cases on each runtime\nvar run = await Lab.BenchAsync(\"samples/ArraySum.cs\");\nrun"),
            Code("int[] data = null;\ndata.Sum()"),
            Code("Console.WriteLine(\"never\");"));
        // Table and charts without plotly's loader, as a later output (or a later notebook) receives them.
        var chart = new DisplayOutput(new Dictionary<string, string> { ["text/html"] = ResultsHtml.Table(results) + ResultsHtml.Charts(results, "nb"), ["text/plain"] = results.ToString() }, IsResult: true);
        var run = Run(notebook, new Dictionary<int, CellOutput[]> { [1] = [new StreamOutput("stdout", "PerfLab ready: smoke mode\n")], [2] = [chart], [3] = [new StreamOutput("stderr", "about to fail\n"), new ErrorOutput("ArgumentNullException", "Value cannot be null. (Parameter 'source')", ["   at System.Linq.Enumerable.Sum(IEnumerable`1 source)", "   at Submission#3"])] }, failedCell: 3);
        var artifacts = Path.Combine(AppContext.BaseDirectory, "artifacts");
        Directory.CreateDirectory(artifacts);
        var page = Path.Combine(artifacts, "notebook-report.html");
        await File.WriteAllTextAsync(page, NotebookReport.Page(run));

        using var playwright = await Playwright.CreateAsync();
        await using var browser = await playwright.Chromium.LaunchAsync(new() { ExecutablePath = Chromium(), Headless = true, Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
        var tab = await browser.NewPageAsync(new() { ViewportSize = new() { Width = 1200, Height = 900 } });
        var leaving = new List<string>();
        var problems = new List<string>();
        tab.Console += (_, message) =>
        {
            if (message.Type is "error" or "warning")
            {
                problems.Add($"console {message.Type}: {message.Text}");
            }
        };
        tab.PageError += (_, error) => problems.Add("page error: " + error);
        await tab.RouteAsync("**/*", async route =>
        {
            if (route.Request.Url.StartsWith("file:", StringComparison.Ordinal))
            {
                await route.ContinueAsync();
            }
            else
            {
                leaving.Add(route.Request.Url);
                await route.AbortAsync();
            }
        });

        await tab.GotoAsync(new Uri(page).AbsoluteUri, new() { WaitUntil = WaitUntilState.Load });
        await tab.WaitForSelectorAsync(".chart .main-svg");

        Assert.Equal("Sum an array", await tab.Locator("header h1").InnerTextAsync());
        Assert.Equal(".NET 10", await tab.Locator("#cell-1 table tbody tr:nth-child(2) td:first-child").InnerTextAsync());
        Assert.True(await tab.Locator("#cell-3 .kw").CountAsync() >= 2, "the code cell should be highlighted (var, await)");
        var charts = await tab.QuerySelectorAllAsync("#cell-3 .chart");
        Assert.True(charts.Count > 0, "the output should hold at least one chart");
        foreach (var item in charts)
        {
            Assert.NotNull(await item.QuerySelectorAsync(".main-svg"));
            var box = await item.BoundingBoxAsync();
            Assert.True(box is { Width: > 100, Height: > 100 }, $"chart {await item.GetAttributeAsync("id")} is {box?.Width}x{box?.Height}");
        }

        Assert.True(await tab.Locator("header .status.failed a[href='#cell-4']").CountAsync() == 1, "the header should link to the failing cell");
        Assert.True(await tab.Locator("#cell-4 .output-error").IsVisibleAsync(), "the error should be shown under the failing cell");
        Assert.True(problems.Count == 0, string.Join("\n", problems));
        Assert.True(leaving.Count == 0, "requests off the machine: " + string.Join(", ", leaving));

        var screenshot = Path.Combine(artifacts, "notebook-report.png");
        await tab.ScreenshotAsync(new() { Path = screenshot, FullPage = true });
        Assert.True(new FileInfo(screenshot).Length > 10_000, "the screenshot is empty");
        await tab.EmulateMediaAsync(new() { ColorScheme = ColorScheme.Dark });
        await tab.ScreenshotAsync(new() { Path = Path.Combine(artifacts, "notebook-report-dark.png"), FullPage = true });
    }
}
