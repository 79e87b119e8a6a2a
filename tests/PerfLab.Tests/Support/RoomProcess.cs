using System.Diagnostics;
using System.Net.Http.Headers;
using System.Text;

namespace PerfLab.Tests.Support;

/// <summary>
/// A real `perflab room serve` process on this machine, started on a free port (or the one given) and read until it
/// says where it listens; killed with its tree when disposed. Its address for tests is the loopback's.
/// </summary>
public sealed class RoomProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();

    private RoomProcess(Process process, string folder, string code, int port)
    {
        _process = process;
        Folder = folder;
        Code = code;
        Port = port;
    }

    /// <summary>The room's folder.</summary>
    public string Folder { get; }

    /// <summary>The room's code, as printed.</summary>
    public string Code { get; }

    /// <summary>The port it listens on.</summary>
    public int Port { get; }

    /// <summary>http://127.0.0.1:PORT.</summary>
    public string Address => $"http://127.0.0.1:{Port}";

    /// <summary>The file of acknowledged posts.</summary>
    public string PostsFile => Path.Combine(Folder, "posts.jsonl");

    /// <summary>What it printed up to "Listening".</summary>
    public string Printed { get; private set; } = "";

    /// <summary>Starts `perflab room serve ARGS` (add --folder or --resume) and waits until it listens.</summary>
    public static async Task<RoomProcess> StartAsync(params string[] args)
    {
        var process = CliProcess.Start(["room", "serve", .. args.Contains("--port") ? args : [.. args, "--port", "0"]], TestHome.Environment);
        var printed = new StringBuilder();
        using var limit = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        try
        {
            while (await process.StandardOutput.ReadLineAsync(limit.Token).ConfigureAwait(false) is { } line)
            {
                printed.AppendLine(line);
                if (line.StartsWith("Listening on port ", StringComparison.Ordinal))
                {
                    var text = printed.ToString();
                    var port = int.Parse(line["Listening on port ".Length..].Split('.')[0], System.Globalization.CultureInfo.InvariantCulture);
                    var code = text.Split('\n').First(l => l.StartsWith("Code: ", StringComparison.Ordinal))["Code: ".Length..].Trim();
                    var folder = text.Split('\n').First(l => l.StartsWith("Room ", StringComparison.Ordinal)) is var first && first.Contains("folder: ", StringComparison.Ordinal)
                        ? first[(first.IndexOf("folder: ", StringComparison.Ordinal) + "folder: ".Length)..].Trim()
                        : first["Room reopened from ".Length..first.IndexOf(": ", StringComparison.Ordinal)];
                    var room = new RoomProcess(process, folder, code, port) { Printed = text };
                    _ = room.DrainAsync();
                    return room;
                }
            }
        }
        catch (OperationCanceledException)
        {
        }

        process.Kill(entireProcessTree: true);
        await process.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
        throw new InvalidOperationException($"perflab room serve did not listen:\n{printed}\n--- stderr\n{await process.StandardError.ReadToEndAsync().ConfigureAwait(false)}");
    }

    /// <summary>A client that sends the room's code.</summary>
    public HttpClient Client(string? code = null)
    {
        var client = new HttpClient { BaseAddress = new Uri(Address), Timeout = TimeSpan.FromSeconds(30) };
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", code ?? Code);
        return client;
    }

    /// <summary>SIGKILL: the process ends at once, nothing flushed on the way out.</summary>
    public async Task KillAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        await _process.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
    }

    /// <summary>The lines of the posts file.</summary>
    public IReadOnlyList<string> StoredLines() => File.Exists(PostsFile) ? File.ReadAllLines(PostsFile) : [];

    public async ValueTask DisposeAsync()
    {
        await KillAsync().ConfigureAwait(false);
        _process.Dispose();
    }

    private async Task DrainAsync()
    {
        var error = _process.StandardError.ReadToEndAsync();
        var output = await _process.StandardOutput.ReadToEndAsync().ConfigureAwait(false);
        lock (_output)
        {
            _output.Append(output).Append(error.Result);
        }
    }
}
