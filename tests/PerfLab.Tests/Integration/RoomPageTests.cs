using System.Net;
using Microsoft.Playwright;
using PerfLab.Room;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>
/// The room's page in Chromium, served by a real `perflab room serve`: every laptop's ratio with its interval, drawn
/// with the room's own plotly.js and nothing from elsewhere; script in a nickname or a method name shown as text and
/// never run; a new post shown live (server-sent events).
/// </summary>
public class RoomPageTests
{
    private const string Evil = "<img src=x onerror=\"window.__ran=1\">";

    [Fact]
    public async Task The_page_shows_every_laptop_live_escapes_every_string_and_needs_nothing_from_elsewhere()
    {
        using var folder = new TempFolder();
        await using var room = await RoomProcess.StartAsync("--folder", Path.Combine(folder.Path, "room"));
        using var client = room.Client();
        async Task PostAsync(RoomPost post)
        {
            using var response = await client.PostAsync(RoomPost.ResultsPath, new StringContent(post.ToJson()));
            Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        }

        await PostAsync(Fake.Post(nickname: "ana", method: Evil, net10Ns: 50));
        await PostAsync(Fake.Post(nickname: Evil, method: Evil, net10Ns: 70, processor: Evil));
        await PostAsync(Fake.Post(nickname: "cy", method: Evil, net10Ns: 90));

        using var playwright = await Playwright.CreateAsync();
        await using var browser = await playwright.Chromium.LaunchAsync(new() { ExecutablePath = Chromium(), Headless = true, Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
        var tab = await browser.NewPageAsync(new() { ViewportSize = new() { Width = 1200, Height = 900 } });
        var problems = new List<string>();
        var leaving = new List<string>();
        tab.Console += (_, message) =>
        {
            if (message.Type is "error" or "warning")
            {
                problems.Add($"console {message.Type}: {message.Text}");
            }
        };
        tab.PageError += (_, error) => problems.Add("page error: " + error);
        tab.Request += (_, request) =>
        {
            if (!request.Url.StartsWith(room.Address + "/", StringComparison.Ordinal))
            {
                leaving.Add(request.Url);
            }
        };

        await tab.GotoAsync(room.Address + "/", new() { WaitUntil = WaitUntilState.Load });
        await tab.WaitForSelectorAsync(".chart .main-svg");

        Assert.Equal("3 laptops in the room, 1 cell run.", await tab.Locator("#room").TextContentAsync());
        Assert.Equal($"3 laptops reported: {Evil} (quick), ana (quick), cy (quick)", await tab.Locator(".who").TextContentAsync());
        Assert.Equal(1, await tab.Locator(".chart").CountAsync());
        Assert.Equal(3, await tab.Locator(".chart .point").CountAsync());
        // The nickname and the method name are on the chart as text (ticks, title), never as elements.
        Assert.Contains(Evil, await tab.Locator(".chart .xtick").AllTextContentsAsync());
        Assert.Contains(Evil, await tab.Locator(".chart .gtitle").TextContentAsync(), StringComparison.Ordinal);
        Assert.Equal(0, await tab.Locator("img").CountAsync());
        Assert.Null(await tab.EvaluateAsync<int?>("() => window.__ran ?? null"));

        // Live: a fourth laptop's post appears without a reload.
        await PostAsync(Fake.Post(nickname: "dee", method: Evil, net10Ns: 30));
        await tab.WaitForFunctionAsync("() => document.getElementById('room').textContent.startsWith('4 laptops')", null, new() { Timeout = 30_000 });
        await tab.WaitForFunctionAsync("() => document.querySelectorAll('.chart .point').length === 4", null, new() { Timeout = 30_000 });

        Assert.Null(await tab.EvaluateAsync<int?>("() => window.__ran ?? null"));
        Assert.Empty(problems);
        var artifact = Path.Combine(AppContext.BaseDirectory, "artifacts", "room.png");
        Directory.CreateDirectory(Path.GetDirectoryName(artifact)!);
        await tab.ScreenshotAsync(new() { Path = artifact, FullPage = true });
        Assert.Empty(leaving);
    }

    private static string Chromium()
    {
        var path = Environment.GetEnvironmentVariable("PERFLAB_CHROMIUM") ?? "/usr/bin/chromium";
        Assert.True(File.Exists(path), $"No Chromium at {path}. Run the tests with ./test.sh, which installs Debian's chromium, or set PERFLAB_CHROMIUM.");
        return path;
    }
}
