using Microsoft.Playwright;
using PerfLab.Contract;
using PerfLab.Course;
using PerfLab.Tests.Support;
using PerfLab.Views.Html;

namespace PerfLab.Tests.Integration;

/// <summary>A page written by `perflab bench --html`, opened in a real headless Chromium with every request off the machine blocked.</summary>
public class BrowserTests
{
    private static string Chromium()
    {
        var path = Environment.GetEnvironmentVariable("PERFLAB_CHROMIUM") ?? "/usr/bin/chromium";
        Assert.True(File.Exists(path), $"No Chromium at {path}. Run the tests with ./test.sh, which installs Debian's chromium, or set PERFLAB_CHROMIUM.");
        return path;
    }

    [Fact]
    public async Task The_report_page_renders_its_charts_offline_without_errors()
    {
        using var folder = new TempFolder();
        var page = Path.Combine(folder.Path, "report.html");
        var run = await CliProcess.RunAsync(["bench", RepoFiles.Path($"{CourseRepository.SamplesFolder}/ArraySum.cs"), "--mode", "smoke", "--runtimes", "net8.0", "net10.0", "--html", page], TestHome.Environment);
        Assert.True(run.ExitCode == 0, run.ToString());

        using var playwright = await Playwright.CreateAsync();
        await using var browser = await Launch(playwright);
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

        var charts = await tab.QuerySelectorAllAsync(".chart");
        var ids = new List<string?>();
        foreach (var chart in charts)
        {
            ids.Add(await chart.GetAttributeAsync("id"));
        }

        // Time and ratio always. Smoke mode is BenchmarkDotNet's Dry job, one cold call per case, so a one-time
        // allocation of the runtime's (a type loaded, a cache filled) can land in it and add the allocation chart.
        Assert.All(ids, id => Assert.Contains(id, (string[])["perflab-time", "perflab-ratio", "perflab-allocated"]));
        Assert.Contains("perflab-time", ids);
        Assert.Contains("perflab-ratio", ids);
        foreach (var chart in charts)
        {
            Assert.NotNull(await chart.QuerySelectorAsync(".main-svg"));
            var box = await chart.BoundingBoxAsync();
            Assert.True(box is { Width: > 100, Height: > 100 }, $"chart {await chart.GetAttributeAsync("id")} is {box?.Width}x{box?.Height}");
        }

        // Rows: 2 methods x 2 runtimes.
        Assert.Equal(4, await tab.Locator(".perflab-results tbody tr").CountAsync() - await tab.Locator(".perflab-results td.warn").CountAsync());
        Assert.Empty(problems);
        Assert.Empty(leaving);

        var artifact = Path.Combine(AppContext.BaseDirectory, "artifacts", "report.png");
        Directory.CreateDirectory(Path.GetDirectoryName(artifact)!);
        await tab.ScreenshotAsync(new() { Path = artifact, FullPage = true });
        Assert.True(new FileInfo(artifact).Length > 10_000, "the screenshot is empty");
    }

    [Fact]
    public async Task A_browser_that_cannot_unpack_plotly_js_says_so_in_place_of_each_chart()
    {
        using var folder = new TempFolder();
        var run = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net8.0", "8.0.31", Fake.Case("Loop", 120, 0, baseline: true), Fake.Case("Span", 80, 0)));
        var page = folder.Write("report.html", ResultsHtml.Page(run, "an older browser"));

        using var playwright = await Playwright.CreateAsync();
        await using var browser = await Launch(playwright);
        var tab = await browser.NewPageAsync();
        var errors = new List<string>();
        tab.PageError += (_, error) => errors.Add(error);
        // A browser from before 2023: no DecompressionStream.
        await tab.AddInitScriptAsync("delete window.DecompressionStream;");
        await tab.GotoAsync(new Uri(page).AbsoluteUri, new() { WaitUntil = WaitUntilState.Load });

        var charts = await tab.Locator(".chart").AllInnerTextsAsync();
        Assert.NotEmpty(charts);
        Assert.All(charts, text => Assert.Contains("The charts cannot be drawn: this browser cannot unpack plotly.js", text, StringComparison.Ordinal));
        Assert.Empty(errors);
        Assert.True(await tab.Locator(".perflab-results tbody tr").CountAsync() >= 2, "the table should be there without plotly.js");
    }

    private static Task<IBrowser> Launch(IPlaywright playwright) =>
        playwright.Chromium.LaunchAsync(new() { ExecutablePath = Chromium(), Headless = true, Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
}
