using System.Text;
using System.Text.Json;
using PerfLab.Disassembly;
using PerfLab.Files;
using PerfLab.Results;

namespace PerfLab.Room;

/// <summary>
/// This laptop's side of a workshop room, kept in its PerfLab home (<c>room/</c>): its random id, the room it joined
/// (`perflab room join`, or <c>PERFLAB_ROOM</c>), and the outbox of posts the room has not acknowledged yet. The
/// benchmark engine hands it every finished run (<see cref="IFinishedRunObserver"/>, the engine's one hook); a laptop that joined no room
/// sends nothing. A room that cannot be reached never fails a run: one line says so, and the post waits in the
/// outbox until the room answers (the next run, or `perflab room status`).
/// </summary>
public sealed class RoomLaptop : IFinishedRunObserver
{
    /// <summary>The environment variable that joins a laptop without `perflab room join`: ADDRESS,CODE[,NICKNAME].</summary>
    public const string Variable = "PERFLAB_ROOM";

    private static readonly SemaphoreSlim Sending = new(1, 1);
    private static Task<(MachineDescription Machine, InstructionSets Sets)>? _machine;
    private static readonly AsyncLocal<string?> RunningNotebook = new();

    private readonly string _folder;

    /// <summary>The laptop of the PerfLab home <paramref name="home"/>.</summary>
    /// <param name="home">The home; null uses <see cref="PerfLabHome.Default"/>.</param>
    public RoomLaptop(PerfLabHome? home = null)
    {
        _folder = Path.Combine((home ?? PerfLabHome.Default()).Root, "room");
    }

    private string MembershipFile => Path.Combine(_folder, "membership.json");

    private string Outbox => Path.Combine(_folder, "outbox");

    private string Refused => Path.Combine(_folder, "refused");

    private string ToldFile => Path.Combine(_folder, "told");

    /// <summary>
    /// The notebook file whose cells run on this async flow, set by the notebook runner (`perflab run`) for the cells it
    /// runs; null elsewhere (a kernel is not told its notebook). A post names it as the course does
    /// (notebooks/jit/01-tiering-and-pgo.ipynb) when it lies in a folder named notebooks, and names none otherwise.
    /// </summary>
    public static string? Notebook
    {
        get => RunningNotebook.Value;
        set => RunningNotebook.Value = value;
    }

    /// <summary>This laptop's random id, made once and kept (leaving a room keeps it): the room keys its results by it.</summary>
    public string Id
    {
        get
        {
            var file = Path.Combine(_folder, "laptop-id");
            if (File.Exists(file) && File.ReadAllText(file).Trim() is var kept && RoomPost.IsId(kept))
            {
                return kept;
            }

            Directory.CreateDirectory(_folder);
            AtomicFile.WriteAllText(file, RoomPost.NewId() + "\n");
            return File.ReadAllText(file).Trim();
        }
    }

    /// <summary>The room this laptop is in: the one it joined, else <c>PERFLAB_ROOM</c>'s; null when none.</summary>
    /// <exception cref="PerfLabException">PERFLAB_ROOM is set but is not ADDRESS,CODE[,NICKNAME].</exception>
    public RoomMembership? Membership
    {
        get
        {
            if (File.Exists(MembershipFile))
            {
                try
                {
                    return JsonSerializer.Deserialize<RoomMembership>(File.ReadAllText(MembershipFile), JsonFormats.WebIndented);
                }
                catch (JsonException)
                {
                    // A file this code did not write: treated as no room, and `join` writes it again.
                }
            }

            return FromVariable(Environment.GetEnvironmentVariable(Variable));
        }
    }

    /// <summary>How many posts wait in the outbox for the room to answer.</summary>
    public int Queued => Directory.Exists(Outbox) ? Directory.GetFiles(Outbox, "*.json").Length : 0;

    /// <summary>Joins the room at <paramref name="address"/> until <see cref="Leave"/>; a post queued for another room is dropped, and said so.</summary>
    /// <param name="address">The room's address as the instructor's screen shows it (http://HOST:PORT, or HOST:PORT).</param>
    /// <param name="code">The room's code.</param>
    /// <param name="nickname">The name the room shows; null: "laptop-" and the start of the laptop's id.</param>
    /// <returns>The membership, and how many queued posts for an earlier room were dropped.</returns>
    /// <exception cref="PerfLabException">The address, code or nickname cannot be.</exception>
    public (RoomMembership Membership, int Dropped) Join(string address, string code, string? nickname)
    {
        var membership = RoomMembership.Parse(address, code, nickname ?? DefaultNickname);
        var dropped = Membership is { } earlier && earlier.Address != membership.Address ? DropOutbox() : 0;
        Directory.CreateDirectory(_folder);
        AtomicFile.WriteAllText(MembershipFile, JsonSerializer.Serialize(membership, JsonFormats.WebIndented) + "\n");
        return (membership, dropped);
    }

    /// <summary>Leaves the room joined with <see cref="Join"/>; posts still queued are dropped (the results stay in the cache).</summary>
    /// <returns>The room left (null when none was joined), and how many queued posts were dropped.</returns>
    public (RoomMembership? Left, int Dropped) Leave()
    {
        var left = File.Exists(MembershipFile) ? Membership : null;
        File.Delete(MembershipFile);
        File.Delete(ToldFile);
        return (left, DropOutbox());
    }

    /// <summary>Asks the room whether it takes this laptop's code.</summary>
    /// <param name="membership">The room.</param>
    /// <param name="cancellationToken">Stops the request.</param>
    /// <returns>Whether the room answered, and null when it takes the code; else why not, one line (what kept it from answering, or its refusal).</returns>
    public static async Task<(bool Answered, string? Problem)> CheckAsync(RoomMembership membership, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(membership);
        using var request = new HttpRequestMessage(HttpMethod.Get, membership.Address + RoomPost.RoomPath);
        var (status, body, failure) = await RoomConnection.SendAsync(request, membership.Code, cancellationToken).ConfigureAwait(false);
        return failure is not null || status >= 500 ? (false, failure ?? $"status {status}")
            : (true, status is >= 200 and < 300 ? null : RoomConnection.Refusal(body, status));
    }

    /// <summary>Sends the outbox to the room, oldest first, until the room does not answer.</summary>
    /// <param name="say">Receives one line per thing worth knowing (a refusal, a room that does not answer).</param>
    /// <param name="cancellationToken">Stops the sending; what is not acknowledged stays in the outbox.</param>
    /// <returns>How many posts the room acknowledged, and how many still wait.</returns>
    public async Task<(int Sent, int Waiting)> SendQueuedAsync(Action<string> say, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(say);
        if (Membership is not { } room)
        {
            return (0, Queued);
        }

        // One sender per process; a post two processes send at once is stored once (its id).
        await Sending.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            var sent = 0;
            foreach (var file in Directory.Exists(Outbox) ? Directory.GetFiles(Outbox, "*.json").Order(StringComparer.Ordinal).ToArray() : [])
            {
                string json;
                try
                {
                    json = await File.ReadAllTextAsync(file, cancellationToken).ConfigureAwait(false);
                }
                catch (FileNotFoundException)
                {
                    continue; // Another process sent it.
                }

                using var request = new HttpRequestMessage(HttpMethod.Post, room.Address + RoomPost.ResultsPath)
                {
                    Content = new StringContent(json, Encoding.UTF8, "application/json"),
                };
                var (status, body, failure) = await RoomConnection.SendAsync(request, room.Code, cancellationToken).ConfigureAwait(false);
                if (failure is not null || status >= 500)
                {
                    var waiting = Queued;
                    say($"The room at {room.Address} is not answering ({failure ?? $"status {status}"}); {(waiting == 1 ? "the result is" : $"{waiting} results are")} kept on this laptop and sent when it answers again.");
                    return (sent, waiting);
                }

                if (status is >= 200 and < 300)
                {
                    File.Delete(file);
                    sent++;
                    continue;
                }

                // Refused: it never will be taken as it is, so it leaves the outbox (kept aside, not lost).
                Directory.CreateDirectory(Refused);
                File.Move(file, Path.Combine(Refused, Path.GetFileName(file)), overwrite: true);
                say($"The room at {room.Address} refused a result: {RoomConnection.Refusal(body, status)}");
            }

            return (sent, Queued);
        }
        finally
        {
            Sending.Release();
        }
    }

    /// <summary>
    /// The engine's hook: a finished run goes to the outbox and the outbox to the room, when this laptop is in one.
    /// Never throws: a room is no reason for a run to fail.
    /// </summary>
    async Task IFinishedRunObserver.RunFinishedAsync(BenchmarkRun run, Action<string> say, CancellationToken cancellationToken)
    {
        try
        {
            if (Membership is not { } room || run.Code is null)
            {
                return;
            }

            var (machine, sets) = await (_machine ??= DescribeAsync()).ConfigureAwait(false);
            var post = RoomPost.Of(run, Id, room.Nickname, CourseNotebook(Notebook), machine, sets);
            TellOnce(room, say);
            Directory.CreateDirectory(Outbox);
            // Named by time, then id: sent oldest first.
            AtomicFile.WriteAllText(Path.Combine(Outbox, $"{DateTime.UtcNow:yyyyMMddHHmmssfffffff}-{post.Id}.json"), post.ToJson());
            var (sent, waiting) = await SendQueuedAsync(say, cancellationToken).ConfigureAwait(false);
            if (waiting == 0 && sent > 0)
            {
                say(sent == 1 ? $"Sent to the room at {room.Address} as {room.Nickname}." : $"Sent to the room at {room.Address} as {room.Nickname} ({sent} results, {sent - 1} of them kept from before).");
            }
        }
        catch (OperationCanceledException)
        {
            say($"Stopped before the room acknowledged the result; {Queued} kept on this laptop, sent at the next run or `perflab room status`.");
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or JsonException or PerfLabException or InvalidOperationException)
        {
            say($"Could not post to the room: {ex.Message} (the run itself is fine).");
        }
    }

    // "notebooks/..." from the last folder named notebooks in the path: how the course and its room name a notebook.
    private static string? CourseNotebook(string? path)
    {
        if (path is null)
        {
            return null;
        }

        var parts = Path.GetFullPath(path).Split(Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar);
        var at = Array.LastIndexOf(parts, "notebooks");
        return at < 0 || at == parts.Length - 1 ? null : string.Join('/', parts[at..]);
    }

    // The first post to a room says what goes there, once.
    private void TellOnce(RoomMembership room, Action<string> say)
    {
        var told = File.Exists(ToldFile) ? File.ReadAllText(ToldFile).Trim() : null;
        if (told == room.Address)
        {
            return;
        }

        say($"This laptop is in the room at {room.Address} as {room.Nickname}: each benchmark result goes there. Sent: the rows (launch means, intervals, allocations; smoke runs without numbers), the code's content key and notebook, runtime versions, CPU model and instruction sets, OS, core count and the nickname. Never the code, the host name or the user name. `perflab room leave` stops it.");
        Directory.CreateDirectory(_folder);
        AtomicFile.WriteAllText(ToldFile, room.Address + "\n");
    }

    private static async Task<(MachineDescription, InstructionSets)> DescribeAsync()
    {
        var machine = await MachineDescription.DescribeAsync("", AppContext.BaseDirectory, CancellationToken.None).ConfigureAwait(false);
        return (machine with { Runner = null }, InstructionSetProbe.OfThisProcess());
    }

    private int DropOutbox()
    {
        var dropped = Queued;
        if (Directory.Exists(Outbox))
        {
            Directory.Delete(Outbox, recursive: true);
        }

        return dropped;
    }

    // A participant who gives no nickname is shown by the start of the laptop's random id, never a host or user name.
    private string DefaultNickname => "laptop-" + Id[..6];

    private RoomMembership? FromVariable(string? value)
    {
        if (string.IsNullOrWhiteSpace(value))
        {
            return null;
        }

        var parts = value.Split(',', 3, StringSplitOptions.TrimEntries);
        return parts.Length < 2
            ? throw new PerfLabException($"{Variable}='{value}' is not ADDRESS,CODE[,NICKNAME].", $"Set it as the instructor's screen shows, e.g. {Variable}=http://192.168.1.20:5050,K7Q2M-9XW3F,ana, or unset it.")
            : RoomMembership.Parse(parts[0], parts[1], parts.Length > 2 ? parts[2] : DefaultNickname);
    }
}
