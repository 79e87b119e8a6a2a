using System.Collections.Concurrent;
using System.Net;
using PerfLab.Room;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>A room's server killed with SIGKILL in the middle of posts loses none it acknowledged.</summary>
public class RoomCrashTests
{
    [Fact]
    public async Task A_server_killed_mid_posts_and_resumed_has_every_post_it_acknowledged()
    {
        using var folder = new TempFolder();
        var roomFolder = Path.Combine(folder.Path, "room");
        var acknowledged = new ConcurrentBag<string>();
        var refused = new ConcurrentBag<string>();
        string code;
        await using (var room = await RoomProcess.StartAsync("--folder", roomFolder))
        {
            code = room.Code;
            using var stop = new CancellationTokenSource();
            var posters = Enumerable.Range(0, 8).Select(i => Task.Run(async () =>
            {
                using var client = room.Client();
                var laptop = RoomPost.NewId();
                while (!stop.IsCancellationRequested)
                {
                    var post = Fake.Post(laptop: laptop, nickname: "laptop " + i);
                    try
                    {
                        using var response = await client.PostAsync(RoomPost.ResultsPath, new StringContent(post.ToJson()), CancellationToken.None);
                        if (response.StatusCode == HttpStatusCode.Created)
                        {
                            acknowledged.Add(post.Id);
                        }
                        else
                        {
                            refused.Add($"{response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
                        }
                    }
                    catch (HttpRequestException)
                    {
                        return; // The server is gone.
                    }
                }
            })).ToArray();

            // Killed while the posters are at full speed, once enough have been acknowledged to mean something.
            var deadline = DateTime.UtcNow.AddMinutes(1);
            while (acknowledged.Count < 200 && DateTime.UtcNow < deadline)
            {
                await Task.Delay(20);
            }

            await room.KillAsync();
            await stop.CancelAsync();
            await Task.WhenAll(posters);
        }

        Assert.Empty(refused);
        Assert.True(acknowledged.Count >= 200, $"only {acknowledged.Count} posts acknowledged in a minute");

        await using var reopened = await RoomProcess.StartAsync("--resume", roomFolder);
        var stored = reopened.StoredLines().Select(l => RoomPost.FromJson(l).Id).ToHashSet();

        Assert.Equal(code, reopened.Code);
        Assert.Equal([], acknowledged.Where(id => !stored.Contains(id)).ToArray());
        Assert.Contains($"Room reopened from {roomFolder}: {stored.Count} results from 8 laptops.", reopened.Printed, StringComparison.Ordinal);
    }
}
