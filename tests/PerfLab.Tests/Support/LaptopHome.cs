namespace PerfLab.Tests.Support;

/// <summary>A laptop's own PerfLab home (its room membership, id and outbox), sharing the test run's runtimes and builds.</summary>
public sealed class LaptopHome : IDisposable
{
    public LaptopHome()
    {
        Path = TestHome.Prepare(TestHome.SharedRoot, "laptop-" + Guid.NewGuid().ToString("N")[..12]);
    }

    public string Path { get; }

    /// <summary>PERFLAB_HOME for its `perflab` processes; PERFLAB_ROOM emptied, so only `room join` puts it in a room.</summary>
    public Dictionary<string, string> Environment => new() { ["PERFLAB_HOME"] = Path, ["PERFLAB_ROOM"] = "" };

    public Task<CliResult> RunAsync(params string[] args) => CliProcess.RunAsync(args, Environment);

    /// <summary>The posts waiting in its outbox.</summary>
    public int Queued => Directory.Exists(System.IO.Path.Combine(Path, "room", "outbox")) ? Directory.GetFiles(System.IO.Path.Combine(Path, "room", "outbox")).Length : 0;

    public void Dispose()
    {
        try
        {
            // Unlinks the shared folders' links without following them.
            Directory.Delete(Path, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }
    }
}
