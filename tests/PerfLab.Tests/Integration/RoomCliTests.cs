using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>
/// Laptops in a room, from the real `perflab` command: join, a smoke `perflab bench` that posts to a live room, status,
/// leave; and a room that does not answer, which never fails a run and gets the result once it answers again.
/// </summary>
public class RoomCliTests
{
    private const string RoomLine = "each benchmark result goes there";

    [Fact]
    public async Task A_joined_laptop_posts_each_run_says_once_what_is_sent_and_stops_after_leave()
    {
        using var folder = new TempFolder();
        using var laptop = new LaptopHome();
        var bench = folder.Write("Tiny.cs", Sources.Tiny());
        await using var room = await RoomProcess.StartAsync("--folder", Path.Combine(folder.Path, "room"));

        var wrong = await laptop.RunAsync("room", "join", room.Address, "--code", "AAAAA-AAAAA");
        var joined = await laptop.RunAsync("room", "join", $"127.0.0.1:{room.Port}", "--code", room.Code.ToLowerInvariant(), "--name", "ana");
        var first = await laptop.RunAsync("bench", bench, "--mode", "smoke", "--runtimes", "net10.0");
        var second = await laptop.RunAsync("bench", bench, "--mode", "smoke", "--runtimes", "net10.0");
        var status = await laptop.RunAsync("room", "status");
        var left = await laptop.RunAsync("room", "leave");
        var after = await laptop.RunAsync("bench", bench, "--mode", "smoke", "--runtimes", "net10.0");

        Assert.Equal(1, wrong.ExitCode);
        Assert.Equal($"error: The room at {room.Address} refused this laptop: The room code is wrong. Check the code on the instructor's screen and join again: `perflab room join ADDRESS --code CODE`.\n", wrong.Error);
        Assert.Equal(0, joined.ExitCode);
        Assert.StartsWith($"Joined the room at {room.Address} as ana.\nThe room answers.", joined.Output, StringComparison.Ordinal);
        Assert.True(first.ExitCode == 0, first.ToString());
        Assert.Single(first.Error.Split('\n'), l => l.Contains(RoomLine, StringComparison.Ordinal));
        Assert.Contains($"Sent to the room at {room.Address} as ana.", first.Error, StringComparison.Ordinal);
        Assert.True(second.ExitCode == 0, second.ToString());
        Assert.DoesNotContain(RoomLine, second.Error, StringComparison.Ordinal);
        Assert.Contains($"Sent to the room at {room.Address} as ana.", second.Error, StringComparison.Ordinal);
        Assert.Equal($"In the room at {room.Address} as ana.\nThe room answers.\n", status.Output);
        Assert.Equal($"Left the room at {room.Address}.\n", left.Output);
        Assert.True(after.ExitCode == 0, after.ToString());
        Assert.DoesNotContain("room", after.Error, StringComparison.OrdinalIgnoreCase);

        var stored = room.StoredLines().Select(PerfLab.Room.RoomPost.FromJson).ToArray();
        Assert.Equal(2, stored.Length);
        Assert.All(stored, post =>
        {
            Assert.Equal("ana", post.Nickname);
            Assert.Equal(PerfLab.Contract.BenchmarkMode.Smoke, post.Run.Mode);
            Assert.Equal("Tiny.cs", post.Run.Source);
            Assert.Equal(["Sum"], post.Run.Results.Select(r => r.Method));
            Assert.Null(post.Run.Results[0].Statistics);
            Assert.Matches("^[0-9a-f]{64}$", post.Code);
        });
        Assert.Single(stored.Select(p => p.Laptop).Distinct());
    }

    [Fact]
    public async Task A_room_that_does_not_answer_leaves_the_run_green_with_one_line_and_gets_the_result_when_it_is_back()
    {
        using var folder = new TempFolder();
        using var laptop = new LaptopHome();
        var bench = folder.Write("Tiny.cs", Sources.Tiny());
        var roomFolder = Path.Combine(folder.Path, "room");
        var room = await RoomProcess.StartAsync("--folder", roomFolder);
        var (address, code, port) = (room.Address, room.Code, room.Port);
        await room.DisposeAsync();

        var joined = await laptop.RunAsync("room", "join", address, "--code", code, "--name", "bo");
        var offline = await laptop.RunAsync("bench", bench, "--mode", "smoke", "--runtimes", "net10.0");
        var queued = laptop.Queued;
        await using var back = await RoomProcess.StartAsync("--resume", roomFolder, "--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture));
        var online = await laptop.RunAsync("bench", bench, "--mode", "smoke", "--runtimes", "net10.0");

        Assert.Equal(0, joined.ExitCode);
        Assert.Contains("The room does not answer now (cannot connect); results are kept on this laptop and sent once it does.", joined.Output, StringComparison.Ordinal);
        Assert.True(offline.ExitCode == 0, offline.ToString());
        Assert.Single(offline.Error.Split('\n'), l => l.Contains("not answering", StringComparison.Ordinal));
        Assert.Contains($"The room at {address} is not answering (cannot connect); the result is kept on this laptop and sent when it answers again.", offline.Error, StringComparison.Ordinal);
        Assert.Equal(1, queued);
        Assert.True(online.ExitCode == 0, online.ToString());
        Assert.Contains($"Sent to the room at {address} as bo (2 results, 1 of them kept from before).", online.Error, StringComparison.Ordinal);
        Assert.Equal(0, laptop.Queued);
        Assert.Equal(2, back.StoredLines().Count);
    }

    [Fact]
    public async Task A_notebook_run_by_perflab_run_posts_each_benchmark_cell_with_its_notebook()
    {
        using var folder = new TempFolder();
        using var laptop = new LaptopHome();
        await using var room = await RoomProcess.StartAsync("--folder", Path.Combine(folder.Path, "room"));
        Assert.Equal(0, (await laptop.RunAsync("room", "join", room.Address, "--code", room.Code, "--name", "ana")).ExitCode);

        // Two small benchmark cells under a course notebook's name, in a folder named notebooks: the laptop names the
        // notebook from there, and the room takes only its course's notebooks' names (notebook 00's own cells would cost
        // CI two minutes of measuring here, asm captures included, for what this test checks).
        var notebook = folder.Write("course/notebooks/00-start-here.ipynb",
            TestNotebooks.Json(TestNotebooks.Usings, TestNotebooks.BenchmarkCell("First", 1), TestNotebooks.BenchmarkCell("Second", 2)));
        var run = await CliProcess.RunAsync(["run", notebook, "--mode", "smoke", "--out", Path.Combine(folder.Path, "reports")], laptop.Environment, TimeSpan.FromMinutes(10));

        Assert.True(run.ExitCode == 0, run.ToString());
        var stored = room.StoredLines().Select(PerfLab.Room.RoomPost.FromJson).ToArray();
        var types = stored.Select(post => post.Run.Results.Single().Type).Order().ToArray();
        Assert.True(types is ["First", "Second"], $"the room stored the runs of [{string.Join(", ", types)}], not First's and Second's:\n{run}");
        Assert.All(stored, post => Assert.Equal(("notebooks/00-start-here.ipynb", "ana", PerfLab.Contract.BenchmarkMode.Smoke), (post.Notebook, post.Nickname, post.Run.Mode)));
        Assert.Equal(0, laptop.Queued);
    }
}
