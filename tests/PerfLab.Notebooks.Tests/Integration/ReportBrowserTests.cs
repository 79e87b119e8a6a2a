using Microsoft.Playwright;
using PerfLab.Contract;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Views;
using PerfLab.Notebooks.Tests.Support;
using PerfLab.Views.Html;
using static PerfLab.Notebooks.Tests.Support.TestNotebooks;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>A notebook report page opened in a real headless Chromium with every request off the machine blocked.</summary>
public class ReportBrowserTests
{
    [Fact]
    public async Task Under_JupyterLabs_own_stylesheet_a_views_table_keeps_its_text_left_and_its_numbers_right()
    {
        // The stylesheet JupyterLab renders outputs with, as nbconvert's lab template carries it (Debian's jupyter-nbconvert).
        const string labCss = "/usr/share/jupyter/nbconvert/templates/lab/static/index.css";
        Assert.True(File.Exists(labCss), $"{labCss} is missing: test.sh installs jupyter-nbconvert, whose lab template carries JupyterLab's stylesheet.");
        var results = Fake.Run(BenchmarkMode.Smoke, Fake.Outcome("net8.0", "8.0.31", Fake.Case("Loop", 120, 0, baseline: true)), Fake.Outcome("net10.0", "10.0.0", Fake.Case("Loop", 60, 0, baseline: true)));
        var page = Path.Combine(OfflineBrowser.ArtifactsFolder, "view-under-jupyterlab-css.html");
        await File.WriteAllTextAsync(page, $"<!DOCTYPE html><html><head><style>{await File.ReadAllTextAsync(labCss)}</style></head><body><div class=\"jp-RenderedHTMLCommon jp-OutputArea-output\">{ResultsHtml.Table(results)}</div></body></html>");

        await using var browser = await OfflineBrowser.OpenAsync(page);
        var align = await browser.Tab.EvaluateAsync<string[]>("() => [...document.querySelectorAll('.perflab-results tbody tr:first-child td')].map(td => (td.classList.contains('num') ? 'num:' : 'text:') + getComputedStyle(td).textAlign)");

        Assert.Contains("text:left", align);
        Assert.Contains("num:right", align);
        Assert.True(align.All(a => a is "text:left" or "num:right"), string.Join(", ", align));
    }

    [Fact]
    public async Task A_quick_tables_columns_all_fit_the_reports_output_width_whatever_the_ratio_cells_say()
    {
        // Notebook 00's table at its widest: a parameter, the memory columns, and both lines of a Ratio cell saying "no clear
        // difference". The fastest line once could not wrap, and pushed Alloc Ratio out of view (2026-11-27).
        static PerfLab.Results.CaseLaunches Launches(double[][] launches, long allocated, bool baseline = false) =>
            new(launches.Select(m => Fake.Launch("AddThroughLambda", m, baseline, allocated, parameters: [new CaseParameter("y", "42")])).ToArray());
        var results = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Launched("net8.0", "8.0.31", Launches([[10, 10.4], [12, 12.5], [11, 11.3], [14, 14.2]], 88)),
            Fake.Launched("net9.0", "9.0.20", Launches([[11, 11.5], [10, 10.2], [13.5, 14], [12, 12.1]], 88)),
            Fake.Launched("net10.0", "10.0.12", Launches([[4, 4.1], [4.2, 4.3], [3.9, 4], [4.4, 4.5]], 24)));
        Assert.True(results.Results[1].RatioInterval!.HoldsOne && results.Results[1].FastestRatioInterval!.HoldsOne, "both lines of .NET 9's Ratio cell should say \"no clear difference\"");
        var notebook = Notebook(Metadata(), Markdown("# Wide"), Code("await Lab.RunAsync<FirstLook>()"));
        var table = new DisplayOutput(new Dictionary<string, string> { ["text/html"] = ResultsHtml.Table(results), ["text/plain"] = results.ToString() }, IsResult: true);
        var page = Path.Combine(OfflineBrowser.ArtifactsFolder, "wide-table-report.html");
        await File.WriteAllTextAsync(page, NotebookReport.Page(Run(notebook, new Dictionary<int, CellOutput[]> { [1] = [table] })));

        await using var browser = await OfflineBrowser.OpenAsync(page);
        // Each column's right edge against the edge of the output that holds the table (which would scroll to hide it).
        var overflow = await browser.Tab.EvaluateAsync<string[]>("""
            () => [...document.querySelectorAll('.perflab-results th')].flatMap(th => {
                const box = th.closest('.outputs').getBoundingClientRect();
                const right = th.getBoundingClientRect().right;
                return right > box.right + 1 ? [th.textContent + ' ends at ' + Math.round(right) + ' px, the output at ' + Math.round(box.right)] : [];
            })
            """);

        Assert.True(overflow.Length == 0, "columns past the output's width: " + string.Join("; ", overflow));

        // In a narrower window the Ratio cells wrap, between words: an interval such as "(1.10–1.38)" stays on one line.
        await browser.Tab.SetViewportSizeAsync(900, 900);
        var broken = await browser.Tab.EvaluateAsync<string[]>("""
            () => [...document.querySelectorAll('.perflab-results td.wraps')].flatMap(td => {
                const found = [];
                const walk = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
                for (let node = walk.nextNode(); node; node = walk.nextNode()) {
                    for (const m of node.data.matchAll(/\([^)]*\)/g)) {
                        const range = document.createRange();
                        range.setStart(node, m.index);
                        range.setEnd(node, m.index + m[0].length);
                        if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1) found.push(m[0]);
                    }
                }
                return found;
            })
            """);
        Assert.True(broken.Length == 0, "intervals broken across lines: " + string.Join(", ", broken));
        Assert.Equal("Alloc Ratio", await browser.Tab.Locator(".perflab-results th").Last.InnerTextAsync());
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
            Code("// Runs both cases on each runtime\nvar run = await Lab.RunAsync<ArraySum>();\nrun"),
            Code("int[] data = null;\ndata.Sum()"),
            Code("Console.WriteLine(\"never\");"));
        // Table and charts without plotly's loader, as a later output (or a later notebook) receives them.
        var chart = new DisplayOutput(new Dictionary<string, string> { ["text/html"] = ResultsHtml.Table(results) + ResultsHtml.Charts(results, "nb"), ["text/plain"] = results.ToString() }, IsResult: true);
        var run = Run(notebook, new Dictionary<int, CellOutput[]> { [1] = [new StreamOutput("stdout", "PerfLab ready: smoke mode\n")], [2] = [chart], [3] = [new StreamOutput("stderr", "about to fail\n"), new ErrorOutput("ArgumentNullException", "Value cannot be null. (Parameter 'source')", ["   at System.Linq.Enumerable.Sum(IEnumerable`1 source)", "   at Submission#3"])] }, failedCell: 3);
        var artifacts = OfflineBrowser.ArtifactsFolder;
        var page = Path.Combine(artifacts, "notebook-report.html");
        await File.WriteAllTextAsync(page, NotebookReport.Page(run));

        await using var browser = await OfflineBrowser.OpenAsync(page);
        var tab = browser.Tab;
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
        Assert.True(browser.Problems.Count == 0, string.Join("\n", browser.Problems));
        Assert.True(browser.Leaving.Count == 0, "requests off the machine: " + string.Join(", ", browser.Leaving));

        var screenshot = Path.Combine(artifacts, "notebook-report.png");
        await tab.ScreenshotAsync(new() { Path = screenshot, FullPage = true });
        Assert.True(new FileInfo(screenshot).Length > 10_000, "the screenshot is empty");
        await tab.EmulateMediaAsync(new() { ColorScheme = ColorScheme.Dark });
        await tab.ScreenshotAsync(new() { Path = Path.Combine(artifacts, "notebook-report-dark.png"), FullPage = true });
    }

    [Fact]
    public async Task A_regex_source_view_run_by_perflab_run_shows_the_explanation_and_its_diff_marks_in_chromium()
    {
        using var folder = new TempFolder();
        var path = Path.Combine(folder.Path, "regex.ipynb");
        File.WriteAllText(path, Json(
            Metadata(),
            Markdown("# What the regex generator writes"),
            Code(SetupCell.For(path, Repo.Root)),
            Code("using System.Text.RegularExpressions;\nLab.RegexSource(@\"\\w*\\p{Sm}\", RegexOptions.None, [\"net9.0\", \"net10.0\"])")));
        var reports = Path.Combine(folder.Path, "out");

        var result = await CliProcess.RunAsync(["run", path, "--mode", "smoke", "--out", reports], TestHome.Environment, TimeSpan.FromMinutes(5));

        Assert.True(result.ExitCode == 0, result.ToString());
        await using var browser = await OfflineBrowser.OpenAsync(Path.Combine(reports, "regex.html"));
        var view = browser.Tab.Locator("#cell-3 .perflab-regex");
        Assert.Contains("C# generated for [GeneratedRegex(@\"\\w*\\p{Sm}\")]", await view.Locator("h3").InnerTextAsync(), StringComparison.Ordinal);
        Assert.Contains("net9.0 -> net10.0: explanation 2 lines changed", await view.Locator("p.summary").InnerTextAsync(), StringComparison.Ordinal);

        // The explanation is in view without a click, old and new side by side, each change marked - and +.
        var explanation = view.Locator("section[data-part='Explanation']");
        var old = explanation.Locator("td.old:not(.mark)").First;
        var @new = explanation.Locator("td.new:not(.mark)").First;
        Assert.True(await old.IsVisibleAsync() && await @new.IsVisibleAsync(), "the explanation's changed lines are not visible");
        Assert.Equal("○ Match a word character greedily any number of times.", await old.InnerTextAsync());
        Assert.Equal("○ Match a word character atomically any number of times.", await @new.InnerTextAsync());
        Assert.Equal(["−", "+"], [await explanation.Locator("td.mark.old").First.InnerTextAsync(), await explanation.Locator("td.mark.new").First.InnerTextAsync()]);
        var (oldBox, newBox) = (await old.BoundingBoxAsync(), await @new.BoundingBoxAsync());
        Assert.True(oldBox is not null && newBox is not null && newBox.X > oldBox.X + oldBox.Width - 1 && Math.Abs(newBox.Y - oldBox.Y) < 1, $"old and new are not side by side: {oldBox?.X},{oldBox?.Y} and {newBox?.X},{newBox?.Y}");
        var background = await old.EvaluateAsync<string>("e => getComputedStyle(e).backgroundColor");
        Assert.NotEqual("rgba(0, 0, 0, 0)", background);

        // A method opens on a click (if it starts collapsed) and shows highlighted C# with its changes marked.
        var match = view.Locator("details[data-part='TryMatchAtCurrentPosition']");
        if (await match.GetAttributeAsync("open") is null)
        {
            await match.Locator("summary").ClickAsync();
        }

        Assert.True(await match.Locator(".kw").First.IsVisibleAsync(), "the method's C# is not highlighted");
        Assert.True(await match.Locator("td.new:not(.mark)").CountAsync() > 0 && await match.Locator("td.old:not(.mark)").First.IsVisibleAsync(), "the method's changes are not marked");
        Assert.False(await view.Locator("details.files pre.file").First.IsVisibleAsync(), "the whole files should start collapsed");
        Assert.True(browser.Problems.Count == 0, string.Join("\n", browser.Problems));
        Assert.True(browser.Leaving.Count == 0, "requests off the machine: " + string.Join(", ", browser.Leaving));

        var screenshot = Path.Combine(OfflineBrowser.ArtifactsFolder, "regex-source-report.png");
        await browser.Tab.ScreenshotAsync(new() { Path = screenshot, FullPage = true });
        Assert.True(new FileInfo(screenshot).Length > 10_000, "the screenshot is empty");
        await browser.Tab.EmulateMediaAsync(new() { ColorScheme = ColorScheme.Dark });
        await browser.Tab.ScreenshotAsync(new() { Path = Path.Combine(OfflineBrowser.ArtifactsFolder, "regex-source-report-dark.png"), FullPage = true });
    }
}
