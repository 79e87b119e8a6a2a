using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json.Nodes;
using PerfLab.Results;
using PerfLab.Room;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>
/// A real `perflab room serve` on the loopback, posted to by a real HTTP client: each bad post gets one status and one
/// message (what happened, what to do) and leaves nothing stored; a good one is on the disk when it is acknowledged.
/// </summary>
public class RoomServerTests
{
    [Fact]
    public async Task Every_bad_post_gets_one_clear_message_and_nothing_of_it_is_stored()
    {
        using var folder = new TempFolder();
        await using var room = await RoomProcess.StartAsync("--folder", Path.Combine(folder.Path, "room"), "--post-limit", "64");
        using var client = room.Client();
        var good = Fake.Post();
        JsonObject Good() => JsonNode.Parse(good.ToJson())!.AsObject();
        JsonObject Without(string field)
        {
            var post = Good();
            post.Remove(field);
            return post;
        }

        JsonObject With(string field, JsonNode? value)
        {
            var post = Good();
            post[field] = value;
            return post;
        }

        JsonObject WithRunSchema(int version)
        {
            var post = Good();
            post["run"]!["schemaVersion"] = version;
            return post;
        }

        var cases = new (string Body, HttpStatusCode Status, string Error, string Fix)[]
        {
            ("{\"schema\": \"perflab-room-post/1\", ", HttpStatusCode.BadRequest, "The post is not valid JSON (", "The laptop and the room must run the same course version"),
            ("[1, 2]", HttpStatusCode.BadRequest, "The post is JSON, but not an object.", "The laptop and the room must run the same course version"),
            (With("schema", "perflab-room-post/0").ToJsonString(), HttpStatusCode.UnprocessableEntity, "The post is schema 'perflab-room-post/0'; this room takes 'perflab-room-post/1'.", "update both"),
            (Without("run").ToJsonString(), HttpStatusCode.BadRequest, "The post has no 'run'.", "same course version"),
            (Without("laptop").ToJsonString(), HttpStatusCode.BadRequest, "The post has no 'laptop'.", "same course version"),
            (WithRunSchema(BenchmarkRun.CurrentSchemaVersion + 1).ToJsonString(), HttpStatusCode.UnprocessableEntity, $"The post's run is results schema {BenchmarkRun.CurrentSchemaVersion + 1}; this room reads {BenchmarkRun.CurrentSchemaVersion}.", "update both"),
            (With("notebook", "notebooks/not-a-notebook.ipynb").ToJsonString(), HttpStatusCode.UnprocessableEntity, "The notebook 'notebooks/not-a-notebook.ipynb' is not one of this course's notebooks.", "notebooks/ folder"),
            (With("nickname", "").ToJsonString(), HttpStatusCode.UnprocessableEntity, "The post's nickname cannot be shown: the nickname is empty.", "--name"),
            (With("laptop", "me").ToJsonString(), HttpStatusCode.UnprocessableEntity, "The post's laptop 'me' is not 32 lowercase hexadecimal digits.", "same course version"),
            (With("run", 42).ToJsonString(), HttpStatusCode.BadRequest, "The post's $.run is not what a room takes (", "same course version"),
            (With("padding", new string('x', 70 * 1024)).ToJsonString(), HttpStatusCode.RequestEntityTooLarge, "The post is ", "--post-limit"),
        };

        foreach (var (body, status, error, fix) in cases)
        {
            using var response = await client.PostAsync(RoomPost.ResultsPath, new StringContent(body, Encoding.UTF8, "application/json"));
            var refusal = await response.Content.ReadFromJsonAsync<RoomRefusal>();
            Assert.True(status == response.StatusCode, $"{body[..Math.Min(body.Length, 80)]}: {response.StatusCode} {refusal}");
            Assert.StartsWith(error, refusal!.Error, StringComparison.Ordinal);
            Assert.Contains(fix, refusal.Fix, StringComparison.Ordinal);
        }

        Assert.Empty(room.StoredLines());

        using var accepted = await client.PostAsync(RoomPost.ResultsPath, new StringContent(good.ToJson(), Encoding.UTF8, "application/json"));
        Assert.Equal(HttpStatusCode.Created, accepted.StatusCode);
        Assert.Equal([good.ToJson()], room.StoredLines());
    }

    [Fact]
    public async Task A_wrong_or_missing_code_gets_401_and_nothing_is_stored()
    {
        using var folder = new TempFolder();
        await using var room = await RoomProcess.StartAsync("--folder", Path.Combine(folder.Path, "room"));
        using var wrong = room.Client("AAAAA-AAAAA");
        using var none = new HttpClient { BaseAddress = new Uri(room.Address) };
        using var header = new HttpClient { BaseAddress = new Uri(room.Address) };
        header.DefaultRequestHeaders.Add(RoomPost.CodeHeader, room.Code.ToLowerInvariant().Replace("-", "", StringComparison.Ordinal));
        var post = Fake.Post().ToJson();

        using var wrongAnswer = await wrong.PostAsync(RoomPost.ResultsPath, new StringContent(post));
        using var noneAnswer = await none.PostAsync(RoomPost.ResultsPath, new StringContent(post));
        using var wrongRoom = await wrong.GetAsync(RoomPost.RoomPath);

        Assert.Equal(HttpStatusCode.Unauthorized, wrongAnswer.StatusCode);
        Assert.Equal("The room code is wrong.", (await wrongAnswer.Content.ReadFromJsonAsync<RoomRefusal>())!.Error);
        Assert.Equal(HttpStatusCode.Unauthorized, noneAnswer.StatusCode);
        Assert.Equal("The request carries no room code.", (await noneAnswer.Content.ReadFromJsonAsync<RoomRefusal>())!.Error);
        Assert.Equal(HttpStatusCode.Unauthorized, wrongRoom.StatusCode);
        Assert.Empty(room.StoredLines());

        // The header, typed loosely, is as good as the bearer token.
        using var right = await header.PostAsync(RoomPost.ResultsPath, new StringContent(post));
        Assert.Equal(HttpStatusCode.Created, right.StatusCode);
    }

    [Fact]
    public async Task A_laptop_cannot_take_another_laptops_nickname_nor_pass_its_share_and_a_post_sent_twice_is_stored_once()
    {
        using var folder = new TempFolder();
        await using var room = await RoomProcess.StartAsync("--folder", Path.Combine(folder.Path, "room"), "--laptop-limit", "8");
        using var client = room.Client();
        var ana = Fake.Post(nickname: "ana");
        async Task<(HttpStatusCode, string)> SendAsync(RoomPost post)
        {
            using var response = await client.PostAsync(RoomPost.ResultsPath, new StringContent(post.ToJson()));
            return (response.StatusCode, await response.Content.ReadAsStringAsync());
        }

        Assert.Equal(HttpStatusCode.Created, (await SendAsync(ana)).Item1);
        Assert.Equal(HttpStatusCode.OK, (await SendAsync(ana)).Item1);
        var (impostor, said) = await SendAsync(Fake.Post(nickname: "ana"));
        Assert.Equal(HttpStatusCode.Conflict, impostor);
        Assert.Contains("Another laptop in this room is called 'ana'.", said, StringComparison.Ordinal);

        HttpStatusCode last;
        var sent = 1;
        while ((last = (await SendAsync(Fake.Post(laptop: ana.Laptop, nickname: "ana"))).Item1) == HttpStatusCode.Created)
        {
            sent++;
        }

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, last);
        Assert.InRange(sent, 2, 8);
        Assert.Equal(sent, room.StoredLines().Count);
        Assert.All(room.StoredLines(), l => Assert.Contains(ana.Laptop, l, StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_port_in_use_gets_one_message_and_leaves_no_room_folder_behind()
    {
        using var folder = new TempFolder();
        await using var room = await RoomProcess.StartAsync("--folder", Path.Combine(folder.Path, "room"));
        var other = Path.Combine(folder.Path, "other");

        var result = await CliProcess.RunAsync(["room", "serve", "--port", room.Port.ToString(System.Globalization.CultureInfo.InvariantCulture), "--folder", other], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.StartsWith($"error: Cannot listen on port {room.Port}: ", result.Error, StringComparison.Ordinal);
        Assert.EndsWith("fix: Choose another with --port, or stop the program that holds it.\n", result.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(other));
    }

    [Fact]
    public async Task In_a_codespace_the_room_prints_its_forwarded_address_first_and_how_to_make_the_port_public()
    {
        using var folder = new TempFolder();
        var environment = new Dictionary<string, string>(TestHome.Environment)
        {
            ["CODESPACES"] = "true",
            ["CODESPACE_NAME"] = "fuzzy-space-waffle-5g7x",
            ["GITHUB_CODESPACES_PORT_FORWARDING_DOMAIN"] = "app.github.dev",
        };
        using var process = CliProcess.Start(["room", "serve", "--port", "0", "--folder", Path.Combine(folder.Path, "room")], environment);
        var printed = new List<string>();
        try
        {
            using var limit = new CancellationTokenSource(TimeSpan.FromMinutes(2));
            while (await process.StandardOutput.ReadLineAsync(limit.Token) is { } line)
            {
                printed.Add(line);
                if (line.StartsWith("Listening on port ", StringComparison.Ordinal))
                {
                    break;
                }
            }
        }
        finally
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync();
        }

        var port = printed[^1]["Listening on port ".Length..].Split('.')[0];
        var code = printed.Single(l => l.StartsWith("Code: ", StringComparison.Ordinal))["Code: ".Length..];
        var joins = printed.Where(l => l.StartsWith("  perflab room join ", StringComparison.Ordinal)).ToArray();
        Assert.Equal($"  perflab room join https://fuzzy-space-waffle-5g7x-{port}.app.github.dev --code {code} --name NICKNAME", joins[0]);
        Assert.True(joins.Length > 1, string.Join("\n", printed));
        Assert.Contains($"In this codespace, laptops outside it reach the room at the first address once port {port} is public: Ports tab, right-click the port, Port Visibility, Public (or `gh codespace ports visibility {port}:public -c fuzzy-space-waffle-5g7x`).", printed);
    }
}
