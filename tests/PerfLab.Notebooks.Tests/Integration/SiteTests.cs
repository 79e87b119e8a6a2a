using System.Text.RegularExpressions;
using PerfLab.Course.Site;
using PerfLab.Notebooks.Tests.Support;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// `perflab site` over the whole course (built by the routes' fixture once `perflab run` has cached every listing),
/// every page opened offline in a real headless Chromium.
/// </summary>
[Collection(BothRoutes.Name)]
public partial class SiteTests(CourseRun course)
{
    /// <summary>The repository the fixture's site names (any OWNER/NAME: the links it makes are only checked, never followed).</summary>
    public const string Repository = "example-org/perflab";

    private async Task<CliResult> BuiltAsync()
    {
        var result = await course.Site;
        Assert.True(result.ExitCode == 0, result.ToString());
        return result;
    }

    [Fact]
    public async Task The_site_has_a_page_per_indexed_notebook_one_copy_of_plotly_and_stays_small()
    {
        var result = await BuiltAsync();
        var catalog = SiteCatalog.Read(Path.Combine(Repo.Notebooks, "README.md"));
        Assert.True(catalog.Count >= 15, $"the index lists {catalog.Count} notebooks");
        foreach (var notebook in catalog)
        {
            Assert.True(File.Exists(Path.Combine(course.SiteFolder, notebook.Page)), $"no page for {notebook.Path}\n{result}");
        }

        Assert.True(File.Exists(Path.Combine(course.SiteFolder, "index.html")), result.ToString());
        var files = Directory.EnumerateFiles(course.SiteFolder, "*", SearchOption.AllDirectories).ToArray();
        var withPlotly = files.Where(f => File.ReadAllText(f).Contains("plotly.js v2.28.0", StringComparison.Ordinal)).ToArray();
        Assert.True(withPlotly.Length == 1 && withPlotly[0].EndsWith("plotly.min.js", StringComparison.Ordinal), "plotly.js should be in the site once, as a file: " + string.Join(", ", withPlotly));
        var total = files.Sum(f => new FileInfo(f).Length);
        Assert.True(total < 25_000_000, $"the site is {total:N0} bytes");
        foreach (var page in files.Where(f => f.EndsWith(".html", StringComparison.Ordinal)))
        {
            Assert.True(new FileInfo(page).Length < 1_500_000, $"{page} is {new FileInfo(page).Length:N0} bytes");
        }

        // What the command counted is what the pages say: one note per benchmark call without a reference run.
        var missing = result.Output.Split('\n').Count(l => l.StartsWith("no reference result: ", StringComparison.Ordinal));
        var noted = files.Where(f => f.EndsWith(".html", StringComparison.Ordinal)).Sum(f => NoReference().Matches(File.ReadAllText(f)).Count);
        Assert.Equal(missing, noted);
        Assert.Contains($"{missing} without one", result.Output, StringComparison.Ordinal);
    }

    /// <summary>The benchmark calls the reference run has not measured yet, one "notebook | class" a line.</summary>
    public const string PendingList = "tests/PerfLab.Notebooks.Tests/Data/reference-pending.txt";

    [Fact]
    public async Task The_reference_file_answers_every_benchmark_call_but_the_pending_ones_and_holds_no_stale_run()
    {
        var result = await BuiltAsync();
        var lines = result.Output.Split('\n', StringSplitOptions.TrimEntries);

        // A stale run is never shown (or filed under another notebook), yet `perflab fidelity` would still count it.
        var stale = lines.Where(l => l.StartsWith("stale reference result: ", StringComparison.Ordinal)).ToArray();
        Assert.True(stale.Length == 0, "The reference file holds runs of code no cell has any more: remove them from data/reference/machines (the cell changed since; re-measure it with `perflab reference --update --only-missing`).\n" + string.Join("\n", stale));

        // "no reference result: jit/x.ipynb, cell 7 (Type)" -> "jit/x.ipynb | Type": cell numbers move when prose is edited.
        var missing = lines.Select(l => MissingCall().Match(l)).Where(m => m.Success).Select(m => $"{m.Groups[1].Value} | {m.Groups[2].Value}").Order(StringComparer.Ordinal).ToArray();
        var pending = File.ReadAllLines(Path.Combine(Repo.Root, PendingList)).Select(l => l.Trim()).Where(l => l.Length > 0 && !l.StartsWith('#')).Order(StringComparer.Ordinal).ToArray();
        var unlisted = missing.Except(pending).ToArray();
        var measured = pending.Except(missing).ToArray();
        Assert.True(unlisted.Length == 0 && measured.Length == 0,
            (unlisted.Length == 0 ? "" : $"Benchmark calls without a reference run: measure them on a quiet machine (`perflab reference --update --only-missing --mode full`); until then list them in {PendingList}:\n  " + string.Join("\n  ", unlisted) + "\n") +
            (measured.Length == 0 ? "" : $"Listed in {PendingList} but measured now (or gone): remove their lines:\n  " + string.Join("\n  ", measured)));
    }

    [Fact]
    public async Task Every_page_opens_offline_draws_every_chart_folds_its_notes_and_links_only_to_files_that_exist()
    {
        await BuiltAsync();
        var pages = Directory.EnumerateFiles(course.SiteFolder, "*.html", SearchOption.AllDirectories).Order(StringComparer.Ordinal).ToArray();
        await using var browser = await OfflineBrowser.OpenAsync(pages[0]);
        var tab = browser.Tab;
        var problems = new List<string>();
        var charts = 0;
        var notes = 0;
        foreach (var page in pages)
        {
            browser.Problems.Clear();
            browser.Leaving.Clear();
            await tab.GotoAsync(new Uri(page).AbsoluteUri, new() { WaitUntil = Microsoft.Playwright.WaitUntilState.Load });
            var name = Path.GetRelativePath(course.SiteFolder, page);
            var drawn = await tab.WaitForFunctionAsync("() => [...document.querySelectorAll('.chart')].every(c => c.querySelector('.main-svg'))", null, new() { Timeout = 30_000 })
                .ContinueWith(t => t.IsCompletedSuccessfully, TaskScheduler.Default);
            charts += await tab.Locator(".chart").CountAsync();
            if (!drawn)
            {
                problems.Add($"{name}: a chart was not drawn");
            }

            problems.AddRange(browser.Problems.Select(p => $"{name}: {p}"));
            problems.AddRange(browser.Leaving.Select(url => $"{name}: requested {url}"));
            var (folded, blocks) = await OfflineBrowser.FoldedNotesAsync(tab, name);
            problems.AddRange(folded);
            notes += blocks;
            var links = await tab.EvaluateAsync<string[]>("() => [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))");
            foreach (var link in links)
            {
                if (Regex.IsMatch(link, "^(https?|mailto):"))
                {
                    continue;
                }

                var hash = link.IndexOf('#', StringComparison.Ordinal);
                var (file, anchor) = hash < 0 ? (link, "") : (link[..hash], link[(hash + 1)..]);
                var target = file.Length == 0 ? page : Path.GetFullPath(Path.Combine(Path.GetDirectoryName(page)!, Uri.UnescapeDataString(file)));
                if (!target.StartsWith(course.SiteFolder, StringComparison.Ordinal) || !File.Exists(target))
                {
                    problems.Add($"{name}: link {link} goes to no file of the site");
                }
                else if (file.Length == 0 && anchor.Length > 0 && !await tab.EvaluateAsync<bool>("id => document.getElementById(id) !== null", anchor))
                {
                    problems.Add($"{name}: link {link} names no element of the page");
                }
            }
        }

        Assert.True(problems.Count == 0, string.Join("\n", problems));
        Assert.True(charts > 50, $"only {charts} charts in the whole site");
        Assert.True(notes >= 10, $"only {notes} measurement notes blocks in the whole site: does the site still render <details>?");
    }

    [Fact]
    public async Task A_page_shows_the_reference_runs_results_as_such_and_an_exercise_unrun_with_its_solution()
    {
        await BuiltAsync();
        await using var browser = await OfflineBrowser.OpenAsync(Path.Combine(course.SiteFolder, "00-start-here.html"));
        var tab = browser.Tab;
        await tab.WaitForSelectorAsync(".chart .main-svg", new() { Timeout = 20_000 });

        var header = await tab.Locator("header").InnerTextAsync();
        Assert.Contains("reference run", header, StringComparison.Ordinal);
        Assert.Contains("Listings", header, StringComparison.Ordinal);
        Assert.Contains("codespaces.new/" + Repository, await tab.Locator("header").InnerHTMLAsync(), StringComparison.Ordinal);
        Assert.True(await tab.Locator(".perflab-results table tbody tr").CountAsync() >= 3, "no results table with a row per runtime");
        Assert.Contains("mode full", await tab.Locator(".perflab-results").First.InnerTextAsync(), StringComparison.Ordinal);

        // The cell's bars are the reference run's, named so: the reader has measured nothing yet.
        var legends = await tab.EvaluateAsync<string[]>("() => [...document.querySelectorAll('.legendtext')].map(e => e.textContent)");
        Assert.Contains("reference (course-machine-linux-x64)", legends);
        Assert.DoesNotContain("yours (this machine)", legends);
        Assert.DoesNotContain("Published vs yours", await tab.Locator("main").InnerTextAsync(), StringComparison.Ordinal);

        // The exercise: its code shown without output, a link to its solution page, and the next notebook one click away.
        var solution = tab.Locator("p.note a[href='solutions/00-start-here.exercise.html']");
        Assert.Equal(1, await solution.CountAsync());
        Assert.Equal(0, await tab.Locator("section.code:has(p.note a[href^='solutions/']) .outputs").CountAsync());
        Assert.Contains("class PathLength", await tab.Locator("section.code:has(p.note a[href^='solutions/']) pre.source").InnerTextAsync(), StringComparison.Ordinal);
        Assert.Equal("jit/01-tiering-and-pgo.html", await tab.Locator("nav.site.top a[rel=next]").GetAttributeAsync("href"));
        await tab.ScreenshotAsync(new() { Path = Path.Combine(OfflineBrowser.ArtifactsFolder, "site-00-start-here.png"), FullPage = true });
    }

    [GeneratedRegex(@"^no reference result: (\S+), cell \d+ \((.+)\)$")]
    private static partial Regex MissingCall();

    [GeneratedRegex("No reference result for ")]
    private static partial Regex NoReference();
}
