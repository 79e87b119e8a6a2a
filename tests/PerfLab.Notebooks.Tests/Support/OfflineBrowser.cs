using Microsoft.Playwright;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// A page opened in Debian's headless Chromium with every request off the machine blocked (workshop
/// rooms are offline), collecting console errors and attempted requests for the assertions.
/// </summary>
public sealed class OfflineBrowser : IAsyncDisposable
{
    private readonly IPlaywright _playwright;
    private readonly IBrowser _browser;

    private OfflineBrowser(IPlaywright playwright, IBrowser browser, IPage tab)
    {
        _playwright = playwright;
        _browser = browser;
        Tab = tab;
    }

    public IPage Tab { get; }

    /// <summary>Console errors/warnings and page errors seen so far.</summary>
    public List<string> Problems { get; } = [];

    /// <summary>Requests that tried to leave the machine (all were aborted).</summary>
    public List<string> Leaving { get; } = [];

    public static string ArtifactsFolder
    {
        get
        {
            var folder = Path.Combine(AppContext.BaseDirectory, "artifacts");
            Directory.CreateDirectory(folder);
            return folder;
        }
    }

    /// <summary>
    /// The page's folded measurement notes (<c>details.notes</c>) that are not as a reader must first see them: closed,
    /// the summary on screen, the notes themselves not. Returns the problems and how many blocks the page has.
    /// </summary>
    public static async Task<(IReadOnlyList<string> Problems, int Blocks)> FoldedNotesAsync(IPage tab, string name)
    {
        var states = await tab.EvaluateAsync<string[]>("""
            () => [...document.querySelectorAll('details.notes')].map((d, i) => {
              const summary = d.querySelector('summary');
              const body = [...d.children].filter(c => c.tagName !== 'SUMMARY');
              // checkVisibility, not a box's size: a closed <details> keeps its content laid out, only not rendered.
              return [i, d.open ? 'open' : 'closed',
                      summary && summary.checkVisibility() ? 'summary shown' : 'summary hidden',
                      body.some(c => c.checkVisibility()) ? 'notes shown' : 'notes hidden'].join(' ');
            })
            """);
        var problems = states.Where(s => !s.EndsWith("closed summary shown notes hidden", StringComparison.Ordinal))
            .Select(s => $"{name}: measurement notes block {s}").ToList();
        return (problems, states.Length);
    }

    public static async Task<OfflineBrowser> OpenAsync(string file)
    {
        var executable = Environment.GetEnvironmentVariable("PERFLAB_CHROMIUM") ?? "/usr/bin/chromium";
        Assert.True(File.Exists(executable), $"No Chromium at {executable}. Run the tests with ./test.sh, which installs Debian's chromium, or set PERFLAB_CHROMIUM.");
        var playwright = await Playwright.CreateAsync();
        var browser = await playwright.Chromium.LaunchAsync(new() { ExecutablePath = executable, Headless = true, Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
        var tab = await browser.NewPageAsync(new() { ViewportSize = new() { Width = 1200, Height = 900 } });
        var opened = new OfflineBrowser(playwright, browser, tab);
        tab.Console += (_, message) =>
        {
            if (message.Type is "error" or "warning")
            {
                opened.Problems.Add($"console {message.Type}: {message.Text}");
            }
        };
        tab.PageError += (_, error) => opened.Problems.Add("page error: " + error);
        await tab.RouteAsync("**/*", async route =>
        {
            if (route.Request.Url.StartsWith("file:", StringComparison.Ordinal))
            {
                await route.ContinueAsync();
            }
            else
            {
                opened.Leaving.Add(route.Request.Url);
                await route.AbortAsync();
            }
        });
        await tab.GotoAsync(new Uri(file).AbsoluteUri, new() { WaitUntil = WaitUntilState.Load });
        return opened;
    }

    public async ValueTask DisposeAsync()
    {
        await _browser.DisposeAsync();
        _playwright.Dispose();
    }
}
