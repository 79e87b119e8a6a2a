using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using PerfLab.Files;
using PerfLab.Room;

namespace PerfLab.Course.Room;

/// <summary>
/// A room's folder: <c>room.json</c> (its schema, code and creation time) and <c>posts.jsonl</c>, every accepted post on
/// a line of its own, appended and flushed to the disk (fsync) before the post is acknowledged, never rewritten. A room
/// reopened (`--resume`) reads the lines back; a last line without its newline was cut off by a crash before it was
/// acknowledged, and is removed. What a post may add depends on what is stored (its id seen before, its nickname taken
/// by another laptop, the laptop's share used up): those checks and the append happen under one lock.
/// </summary>
public sealed class RoomLedger : IDisposable
{
    /// <summary>room.json's schema.</summary>
    public const string Schema = "perflab-room/1";

    /// <summary>The file of posts.</summary>
    public const string PostsFile = "posts.jsonl";

    /// <summary>The file naming the room.</summary>
    public const string RoomFile = "room.json";

    private readonly FileStream _log;
    private readonly SemaphoreSlim _gate = new(1, 1);
    private readonly List<RoomPost> _posts = [];
    private readonly HashSet<string> _ids = new(StringComparer.Ordinal);
    private readonly Dictionary<string, long> _bytes = new(StringComparer.Ordinal);
    private readonly Dictionary<string, string> _laptopOfNickname = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, string> _nicknameOfLaptop = new(StringComparer.Ordinal);

    private RoomLedger(string folder, string code, FileStream log)
    {
        Folder = folder;
        Code = code;
        _log = log;
    }

    /// <summary>The room's folder.</summary>
    public string Folder { get; }

    /// <summary>The room's code.</summary>
    public string Code { get; }

    /// <summary>Raised after a post is stored (on the storing thread, outside the lock).</summary>
    public event Action<RoomPost>? Stored;

    /// <summary>Every stored post, oldest first.</summary>
    public IReadOnlyList<RoomPost> Posts
    {
        get
        {
            _gate.Wait();
            try
            {
                return [.. _posts];
            }
            finally
            {
                _gate.Release();
            }
        }
    }

    /// <summary>A new room in <paramref name="folder"/> (created), with a new code.</summary>
    /// <param name="folder">An empty or missing folder.</param>
    /// <exception cref="PerfLabException">The folder already holds a room, or cannot be written.</exception>
    public static RoomLedger Create(string folder)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        var full = Path.GetFullPath(folder);
        if (File.Exists(Path.Combine(full, RoomFile)) || File.Exists(Path.Combine(full, PostsFile)))
        {
            throw new PerfLabException($"{full} already holds a room.", $"Reopen it with `perflab room serve --resume {full}`, or choose another --folder.");
        }

        try
        {
            Directory.CreateDirectory(full);
            var code = RoomCode.New();
            var room = new JsonObject { ["schema"] = Schema, ["code"] = code, ["created"] = DateTimeOffset.UtcNow.ToString("O", System.Globalization.CultureInfo.InvariantCulture) };
            AtomicFile.WriteAllText(Path.Combine(full, RoomFile), room.ToJsonString(JsonFormats.WebIndented) + "\n");
            return new RoomLedger(full, code, OpenLog(full));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new PerfLabException($"Cannot make a room in {full}: {ex.Message}", "Choose a folder you can write with --folder.", inner: ex);
        }
    }

    /// <summary>The room in <paramref name="folder"/>, reopened: same code, every post it acknowledged.</summary>
    /// <param name="folder">A folder a room was made in.</param>
    /// <exception cref="PerfLabException">No room there, or its files are not a room's.</exception>
    public static RoomLedger Resume(string folder)
    {
        var (full, code) = ReadRoomFile(folder);
        CutTornTail(Path.Combine(full, PostsFile));
        var ledger = new RoomLedger(full, code, OpenLog(full));
        try
        {
            foreach (var (post, bytes) in ReadLines(full))
            {
                ledger.Remember(post, bytes);
            }
        }
        catch (PerfLabException)
        {
            ledger.Dispose();
            throw;
        }

        return ledger;
    }

    /// <summary>
    /// Every post the room in <paramref name="folder"/> acknowledged, read without opening it (a room being served can be
    /// read): a last line without its newline was never acknowledged, and is left out, not cut.
    /// </summary>
    /// <param name="folder">A folder a room was made in.</param>
    /// <exception cref="PerfLabException">No room there, or its files are not a room's.</exception>
    public static IReadOnlyList<RoomPost> Read(string folder)
    {
        var (full, _) = ReadRoomFile(folder);
        return ReadLines(full).Select(p => p.Post).ToArray();
    }

    private static (string Full, string Code) ReadRoomFile(string folder)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        var full = Path.GetFullPath(folder);
        var roomFile = Path.Combine(full, RoomFile);
        if (!File.Exists(roomFile))
        {
            throw new PerfLabException($"{full} holds no room (no {RoomFile}).", "Pass the folder `perflab room serve` printed when it made the room.");
        }

        JsonNode? room;
        try
        {
            room = JsonNode.Parse(File.ReadAllText(roomFile));
        }
        catch (JsonException ex)
        {
            throw new PerfLabException($"{roomFile} is not valid JSON ({ex.Message}).", "Restore it from a copy; the posts are in " + PostsFile + ".", inner: ex);
        }

        if ((string?)room?["schema"] != Schema || (string?)room?["code"] is not { Length: > 0 } code)
        {
            throw new PerfLabException($"{roomFile} is schema {(string?)room?["schema"] ?? "(none)"}; this PerfLab reopens {Schema}.", "Reopen it with the PerfLab version that made it.");
        }

        return (full, code);
    }

    // The acknowledged lines (each ends with its newline) as posts, with the bytes each takes.
    private static IEnumerable<(RoomPost Post, long Bytes)> ReadLines(string full)
    {
        var postsFile = Path.Combine(full, PostsFile);
        if (!File.Exists(postsFile))
        {
            yield break;
        }

        var text = File.ReadAllText(postsFile, Encoding.UTF8);
        var lines = text.Split('\n');
        for (var number = 1; number < lines.Length; number++)
        {
            // lines[^1] is what follows the last newline: empty, or a line a crash cut before it was acknowledged.
            var line = lines[number - 1];
            RoomPost post;
            try
            {
                post = RoomPost.FromJson(line);
            }
            catch (JsonException ex)
            {
                throw new PerfLabException($"{postsFile} line {number} is not a post ({ex.Message}).", "The file was changed by hand: restore it, or move the line out.", inner: ex);
            }

            yield return (post, Encoding.UTF8.GetByteCount(line) + 1);
        }
    }

    /// <summary>The nickname the room shows for <paramref name="laptop"/>, or null when it has not posted.</summary>
    /// <param name="laptop">A laptop id.</param>
    public string? NicknameOf(string laptop)
    {
        _gate.Wait();
        try
        {
            return _nicknameOfLaptop.GetValueOrDefault(laptop);
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>
    /// Stores <paramref name="post"/> unless it was stored before, its nickname is another laptop's, or its laptop would
    /// pass <paramref name="laptopLimit"/> bytes; stored means on the disk (fsync).
    /// </summary>
    /// <param name="post">A checked post.</param>
    /// <param name="laptopLimit">The most bytes one laptop's posts may take.</param>
    /// <param name="cancellationToken">Stops the wait for the lock (never a write half done).</param>
    public async Task<Admission> AppendAsync(RoomPost post, long laptopLimit, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(post);
        var line = post.ToJson();
        var bytes = Encoding.UTF8.GetBytes(line + "\n");
        await _gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            if (_ids.Contains(post.Id))
            {
                return new Admission(AdmissionKind.Duplicate, null, _bytes.GetValueOrDefault(post.Laptop));
            }

            if (_laptopOfNickname.TryGetValue(post.Nickname, out var owner) && owner != post.Laptop)
            {
                return new Admission(AdmissionKind.NicknameTaken, owner, _bytes.GetValueOrDefault(post.Laptop));
            }

            var used = _bytes.GetValueOrDefault(post.Laptop);
            if (used + bytes.Length > laptopLimit)
            {
                return new Admission(AdmissionKind.OverLaptopLimit, null, used);
            }

            // Written and flushed to the disk before anyone is told it is stored; never by halves to a reader (one write).
            _log.Write(bytes);
            _log.Flush(flushToDisk: true);
            Remember(post, bytes.Length);
        }
        finally
        {
            _gate.Release();
        }

        Stored?.Invoke(post);
        return new Admission(AdmissionKind.Stored, null, _bytes.GetValueOrDefault(post.Laptop));
    }

    /// <summary>
    /// Closes a new room that never opened (its server could not start): with no post stored, its files go, and its
    /// folder too when nothing else is in it, so the same --folder can be used again. A room with posts is only closed.
    /// </summary>
    public void Discard()
    {
        var empty = Posts.Count == 0;
        Dispose();
        if (!empty)
        {
            return;
        }

        File.Delete(Path.Combine(Folder, PostsFile));
        File.Delete(Path.Combine(Folder, RoomFile));
        if (!Directory.EnumerateFileSystemEntries(Folder).Any())
        {
            Directory.Delete(Folder);
        }
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _log.Dispose();
        _gate.Dispose();
    }

    // Caller holds the lock (or is the constructor's replay). A laptop's nickname is its latest post's.
    private void Remember(RoomPost post, long bytes)
    {
        _posts.Add(post);
        _ids.Add(post.Id);
        _bytes[post.Laptop] = _bytes.GetValueOrDefault(post.Laptop) + bytes;
        if (_nicknameOfLaptop.TryGetValue(post.Laptop, out var earlier) && earlier != post.Nickname)
        {
            _laptopOfNickname.Remove(earlier);
        }

        _nicknameOfLaptop[post.Laptop] = post.Nickname;
        _laptopOfNickname[post.Nickname] = post.Laptop;
    }

    private static FileStream OpenLog(string folder) =>
        new(Path.Combine(folder, PostsFile), new FileStreamOptions { Mode = FileMode.Append, Access = FileAccess.Write, Share = FileShare.Read });

    // A line is acknowledged only once its newline is on the disk: bytes after the last newline were never acknowledged.
    private static void CutTornTail(string file)
    {
        if (!File.Exists(file))
        {
            return;
        }

        using var stream = new FileStream(file, FileMode.Open, FileAccess.ReadWrite, FileShare.None);
        var end = stream.Length;
        var buffer = new byte[1];
        while (end > 0)
        {
            stream.Position = end - 1;
            stream.ReadExactly(buffer);
            if (buffer[0] == (byte)'\n')
            {
                break;
            }

            end--;
        }

        if (end != stream.Length)
        {
            stream.SetLength(end);
            stream.Flush(flushToDisk: true);
        }
    }
}

/// <summary>What became of a post the ledger was asked to store.</summary>
/// <param name="Kind">Stored, or why not.</param>
/// <param name="Owner">With <see cref="AdmissionKind.NicknameTaken"/>: the laptop that has the nickname.</param>
/// <param name="LaptopBytes">The bytes the post's laptop has stored.</param>
public sealed record Admission(AdmissionKind Kind, string? Owner, long LaptopBytes);

/// <summary>Stored, or why not.</summary>
public enum AdmissionKind
{
    /// <summary>On the disk.</summary>
    Stored,

    /// <summary>A post with this id was stored before (a retry whose first answer was lost): nothing more to do.</summary>
    Duplicate,

    /// <summary>Another laptop posts under this nickname.</summary>
    NicknameTaken,

    /// <summary>The laptop's posts would pass its share.</summary>
    OverLaptopLimit,
}
