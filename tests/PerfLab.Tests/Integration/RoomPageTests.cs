using System.Net;
using Microsoft.Playwright;
using PerfLab.Results;
using PerfLab.Room;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>
/// The room's page in Chromium, served by a real `perflab room serve`: every laptop's ratio with its interval, drawn
/// with the room's own plotly.js and nothing from elsewhere; script in every string a laptop sends (nickname, CPU, OS,
/// file name, class, method, parameters, runtime) shown as text and never run; a new post shown live (server-sent
/// events); the reference machine's and the post's ratios as lines.
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

        await PostAsync(Everywhere(Fake.Post(nickname: "ana", method: Evil, net10Ns: 50)));
        await PostAsync(Everywhere(Fake.Post(nickname: Evil, method: Evil, net10Ns: 70, processor: Evil)));
        await PostAsync(Everywhere(Fake.Post(nickname: "cy", method: Evil, net10Ns: 90)));

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
        Assert.StartsWith(Evil + ".cs: ", await tab.Locator("h2").TextContentAsync(), StringComparison.Ordinal);
        Assert.Equal(0, await tab.Locator("img").CountAsync());
        Assert.Null(await tab.EvaluateAsync<int?>("() => window.__ran ?? null"));

        // Live: a fourth laptop's post appears without a reload.
        await PostAsync(Everywhere(Fake.Post(nickname: "dee", method: Evil, net10Ns: 30)));
        await tab.WaitForFunctionAsync("() => document.getElementById('room').textContent.startsWith('4 laptops')", null, new() { Timeout = 30_000 });
        await tab.WaitForFunctionAsync("() => document.querySelectorAll('.chart .point').length === 4", null, new() { Timeout = 30_000 });

        Assert.Null(await tab.EvaluateAsync<int?>("() => window.__ran ?? null"));
        Assert.Empty(problems);
        var artifact = Path.Combine(AppContext.BaseDirectory, "artifacts", "room.png");
        Directory.CreateDirectory(Path.GetDirectoryName(artifact)!);
        await tab.ScreenshotAsync(new() { Path = artifact, FullPage = true });
        Assert.Empty(leaving);
    }

    [Fact]
    public async Task The_page_draws_the_reference_machines_and_the_posts_ratio_as_lines_on_a_cell_the_reference_measured()
    {
        using var folder = new TempFolder();
        await using var room = await RoomProcess.StartAsync("--folder", Path.Combine(folder.Path, "room"));
        using var client = room.Client();
        // A laptop that ran notebook 00's first benchmark cell: the reference machine's own run of it, as a post.
        var recorded = ReferenceDocument.Read(RepoFiles.Path("data/reference/machines/course-machine-linux-x64.json")).Runs
            .First(r => r.Suite == "notebooks/00-start-here.ipynb" && r.Run.Results.Any(x => x.Published?.Id == "N10-J01"));
        var post = Fake.Post(nickname: "ana") is var fake ? RoomPost.Of(recorded.Run with { Code = recorded.Code }, fake.Laptop, "ana", recorded.Suite, fake.Machine, fake.InstructionSets) : null!;
        using var response = await client.PostAsync(RoomPost.ResultsPath, new StringContent(post.ToJson()));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var net10 = recorded.Run.Results.Single(r => r.Runtime == "net10.0");
        var net9 = recorded.Run.Results.Single(r => r.Runtime == "net9.0");
        var published = net10.Published!.Ratio!.Value;

        using var playwright = await Playwright.CreateAsync();
        await using var browser = await playwright.Chromium.LaunchAsync(new() { ExecutablePath = Chromium(), Headless = true, Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
        var tab = await browser.NewPageAsync(new() { ViewportSize = new() { Width = 1200, Height = 900 } });
        await tab.GotoAsync(room.Address + "/", new() { WaitUntil = WaitUntilState.Load });
        await tab.WaitForSelectorAsync(".chart .main-svg");

        var titles = await tab.Locator(".chart .gtitle").AllTextContentsAsync();
        Assert.Equal(["FirstLook.AddThroughLambda(y=42) on net9.0 / net8.0", "FirstLook.AddThroughLambda(y=42) on net10.0 / net8.0", "FirstLook.AddThroughLambda(y=42) on net10.0 / net9.0"], titles);
        var charts = tab.Locator(".chart");
        string F(double value) => value.ToString("0.00", System.Globalization.CultureInfo.InvariantCulture);
        Assert.Equal([$"reference course-machine-linux-x64 {F(net10.Ratio!.Value)}"], await charts.Nth(1).Locator(".annotation-text").AllTextContentsAsync());
        // The post compared .NET 10 with .NET 9: its line is on that chart, beside the reference machine's ratio of the same pair.
        Assert.Equal([$"reference course-machine-linux-x64 {F(net10.Statistics!.Mean / net9.Statistics!.Mean)}", $"post N10-J01 {F(published)}"], await charts.Nth(2).Locator(".annotation-text").AllTextContentsAsync());
        // The laptop's own point on it: the same ratio as the reference machine's (it is that run).
        Assert.Equal(1, await charts.Nth(2).Locator(".point").CountAsync());
    }

    // Script in every string a laptop sends that the page may show: the machine's CPU and OS, the run's file, class,
    // method, parameters and the runtime measured.
    private static RoomPost Everywhere(RoomPost post) => post with
    {
        Machine = post.Machine with { Processor = Evil, Os = Evil },
        Run = post.Run with
        {
            Source = Evil + ".cs",
            Results = post.Run.Results.Select(r => r with
            {
                Type = "Demo." + Evil,
                Parameters = [new PerfLab.Contract.CaseParameter(Evil, Evil)],
                Runtime = r.Runtime == "net10.0" ? "net10.0" + Evil : r.Runtime,
            }).ToArray(),
        },
    };

    internal static string Chromium()
    {
        var path = Environment.GetEnvironmentVariable("PERFLAB_CHROMIUM") ?? "/usr/bin/chromium";
        Assert.True(File.Exists(path), $"No Chromium at {path}. Run the tests with ./test.sh, which installs Debian's chromium, or set PERFLAB_CHROMIUM.");
        return path;
    }
}
