// Loads a workshop room (`perflab room serve`): CLIENTS laptops post POSTS results each, all at once, over HTTP on the
// loopback, each post a real run's (the first run of the committed reference machine file, as a laptop would send it).
// Reports posts per second and the latency of an acknowledged post (median, p99, max). With --kill, the server is
// killed with SIGKILL when half the posts are acknowledged and reopened with --resume on the same port; the clients
// send again what was not acknowledged (a post's id makes that safe). Either way, every acknowledged post must be in
// the room's file afterwards: the script fails when one is missing.
//
// Usage (from the repository root): dotnet run bench/room/load.cs -- [--clients N] [--posts N] [--kill] [--out FILE.md]
// Defaults: 200 clients, 10 posts each. Under a minute on 2 cores.
#:project ../Shared
// File-based programs default to Native AOT's settings, which turn reflection-based JSON off; the results use it.
#:property PublishAot=false
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json.Nodes;
using PerfLab.Course;
using PerfLab.Disassembly;
using PerfLab.Processes;
using PerfLab.Results;
using PerfLab.Room;
using static PerfLab.Bench.BenchTools;

if (ParseArguments(args, "bench/room/load.cs", 1, "--clients N", "--posts N", "--kill") is not { } options)
{
    return 2;
}

int Option(string name, int fallback) => options.Values.TryGetValue(name, out var text) ? int.Parse(text, CultureInfo.InvariantCulture) : fallback;
var clients = Option("--clients", 200);
var postsEach = Option("--posts", 10);
var kill = options.Flags.Contains("--kill");
var repo = FindRepo();
Log("building the CLI");
var cli = BuildCli(repo, "Release");

// A real run as a laptop posts it.
var reference = JsonNode.Parse(File.ReadAllText(CourseRepository.PathOf(CourseRepository.ReferenceMachinesFolder + "/course-machine-linux-x64.json", repo)))!;
var firstRun = reference["runs"]![0]!;
var run = ResultJsonReader.Read(firstRun["run"]!.ToJsonString()) with { Code = (string)firstRun["code"]! };
var machine = new MachineDescription("", "linux-x64", "Linux", "Load CPU", 2, 1L << 30, "10.0.100", null);
var sets = InstructionSetProbe.OfThisProcess();
var laptops = Enumerable.Range(0, clients).Select(i => (Id: RoomPost.NewId(), Name: $"laptop {i}")).ToArray();
var posts = laptops.Select(l => Enumerable.Range(0, postsEach).Select(_ => RoomPost.Of(run, l.Id, l.Name, null, machine, sets).ToJson()).ToArray()).ToArray();
Log($"{clients} clients x {postsEach} posts, {Encoding.UTF8.GetByteCount(posts[0][0]) / 1024.0:F1} KB each{(kill ? ", SIGKILL and --resume half way" : "")}");

var folder = Path.Combine(Directory.CreateTempSubdirectory("perflab-room-load-").FullName, "room");
var (server, code, port) = await StartAsync(["room", "serve", "--port", "0", "--folder", folder, "--laptop-limit", "1048576"]);
using var http = new HttpClient(new SocketsHttpHandler { MaxConnectionsPerServer = clients, ConnectTimeout = TimeSpan.FromSeconds(5) }) { Timeout = TimeSpan.FromSeconds(60) };
var acknowledged = new ConcurrentDictionary<string, bool>();
var latencies = new ConcurrentBag<double>();
var refused = new ConcurrentBag<string>();
var retries = 0;
var halfway = new TaskCompletionSource();
var back = new TaskCompletionSource();
var total = clients * postsEach;

var clock = Stopwatch.StartNew();
var work = laptops.Select((laptop, i) => Task.Run(async () =>
{
    foreach (var json in posts[i])
    {
        while (true)
        {
            var started = Stopwatch.GetTimestamp();
            try
            {
                using var request = new HttpRequestMessage(HttpMethod.Post, $"http://127.0.0.1:{port}{RoomPost.ResultsPath}") { Content = new StringContent(json, Encoding.UTF8, "application/json") };
                request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", code);
                using var response = await http.SendAsync(request);
                if (response.StatusCode is HttpStatusCode.Created or HttpStatusCode.OK)
                {
                    latencies.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                    acknowledged[RoomPost.FromJson(json).Id] = true;
                    if (acknowledged.Count >= total / 2)
                    {
                        halfway.TrySetResult();
                    }

                    break;
                }

                refused.Add($"{response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
                break;
            }
            catch (HttpRequestException) when (kill)
            {
                // The room is down: wait for it, then send the same post again (stored once, by its id).
                Interlocked.Increment(ref retries);
                await back.Task;
            }
        }
    }
})).ToArray();

if (kill)
{
    await halfway.Task;
    server.Kill(entireProcessTree: true);
    await server.WaitForExitAsync();
    Log($"killed the room with {acknowledged.Count} posts acknowledged; reopening it");
    (server, _, _) = await StartAsync(["room", "serve", "--port", port.ToString(CultureInfo.InvariantCulture), "--resume", folder]);
    back.TrySetResult();
}

await Task.WhenAll(work);
var seconds = clock.Elapsed.TotalSeconds;
server.Kill(entireProcessTree: true);
await server.WaitForExitAsync();

var stored = File.ReadAllLines(Path.Combine(folder, "posts.jsonl")).Select(l => RoomPost.FromJson(l).Id).ToHashSet();
var missing = acknowledged.Keys.Where(id => !stored.Contains(id)).ToArray();
var sorted = latencies.Order().ToArray();
double Percentile(double p) => sorted.Length == 0 ? double.NaN : sorted[Math.Min(sorted.Length - 1, (int)Math.Ceiling(p * sorted.Length) - 1)];
var report = new StringBuilder()
    .AppendLine(CultureInfo.InvariantCulture, $"# Room load: {clients} clients x {postsEach} posts{(kill ? ", SIGKILL and --resume half way" : "")}")
    .AppendLine()
    .AppendLine(CultureInfo.InvariantCulture, $"{DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {Environment.ProcessorCount} cores, post {Encoding.UTF8.GetByteCount(posts[0][0]) / 1024.0:F1} KB")
    .AppendLine()
    .AppendLine("| Acknowledged | Stored | Missing | Refused | Retried | Seconds | Posts/s | Median ms | p99 ms | Max ms |")
    .AppendLine("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    .AppendLine(CultureInfo.InvariantCulture, $"| {acknowledged.Count} | {stored.Count} | {missing.Length} | {refused.Count} | {retries} | {seconds:F1} | {acknowledged.Count / seconds:F0} | {Median(sorted):F1} | {Percentile(0.99):F1} | {(sorted.Length == 0 ? double.NaN : sorted[^1]):F1} |")
    .ToString();
Console.Write(report);
if (options.OutPath is { } outPath)
{
    File.WriteAllText(outPath, report);
}

foreach (var reason in refused.Distinct().Take(5))
{
    Console.Error.WriteLine("refused: " + reason);
}

Directory.Delete(Path.GetDirectoryName(folder)!, recursive: true);
return missing.Length == 0 && refused.IsEmpty && acknowledged.Count == total ? 0 : 1;

// Starts `perflab room serve` and reads until it listens: the process, the code and the port.
async Task<(Process Server, string Code, int Port)> StartAsync(string[] arguments)
{
    var process = Process.Start(ChildProcess.StartInfo("dotnet", [cli, .. arguments]))!;
    process.StandardInput.Close();
    string? roomCode = null;
    while (await process.StandardOutput.ReadLineAsync() is { } line)
    {
        if (line.StartsWith("Code: ", StringComparison.Ordinal))
        {
            roomCode = line["Code: ".Length..].Trim();
        }
        else if (line.StartsWith("Listening on port ", StringComparison.Ordinal))
        {
            _ = process.StandardOutput.ReadToEndAsync();
            _ = process.StandardError.ReadToEndAsync();
            return (process, roomCode!, int.Parse(line["Listening on port ".Length..].Split('.')[0], CultureInfo.InvariantCulture));
        }
    }

    throw new InvalidOperationException("perflab room serve did not start: " + await process.StandardError.ReadToEndAsync());
}
