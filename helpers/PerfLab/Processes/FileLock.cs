using PerfLab.Files;

namespace PerfLab.Processes;

/// <summary>
/// A lock shared by every PerfLab process of the user, held as an opened file: exclusive (one holder) or
/// shared (any number of shared holders, no exclusive one). The OS releases it when the holder dies, so a
/// killed run never leaves a stale lock behind. A process waiting for it exclusively goes first: shared
/// takers wait behind it, so a steady stream of them cannot keep it waiting for ever.
/// </summary>
internal sealed class FileLock : IDisposable
{
    private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(250);

    private readonly FileStream _stream;

    private FileLock(FileStream stream) => _stream = stream;

    /// <summary>Takes the lock, waiting as long as another process holds it in a way that excludes this one.</summary>
    /// <param name="path">The lock file.</param>
    /// <param name="shared">True to hold it beside other shared holders; false to hold it alone.</param>
    /// <param name="onWaiting">Called once, with the holder's description, if the lock is busy.</param>
    /// <param name="cancellationToken">Stops waiting; a caller already cancelled never takes the lock.</param>
    public static Task<FileLock> AcquireAsync(string path, bool shared, Action<string>? onWaiting, CancellationToken cancellationToken) =>
        AcquireAsync(path, shared, onWaiting, static token => Task.Delay(Poll, token), cancellationToken);

    /// <summary>Takes the lock as above, with <paramref name="pause"/> as the wait between two tries.</summary>
    /// <param name="path">The lock file.</param>
    /// <param name="shared">True to hold it beside other shared holders; false to hold it alone.</param>
    /// <param name="onWaiting">Called once, with the holder's description, if the lock is busy.</param>
    /// <param name="pause">Called after every try that found the lock busy; the next try comes when its task ends. The
    /// tests end it themselves, so they step a taker through its tries without a clock.</param>
    /// <param name="cancellationToken">Stops waiting; a caller already cancelled never takes the lock.</param>
    internal static async Task<FileLock> AcquireAsync(string path, bool shared, Action<string>? onWaiting, Func<CancellationToken, Task> pause, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        var announced = false;

        // The queue file is held by a process waiting to take the lock exclusively; shared takers pass it
        // only when nobody does.
        var queue = path + ".queue";
        FileStream? queued = null;
        try
        {
            while (true)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var mayTake = shared ? NobodyQueued(queue) : (queued ??= TryOpen(queue, shared: false)) is not null;
                if (mayTake && TryOpen(path, shared) is { } stream)
                {
                    Describe(path);
                    return new FileLock(stream);
                }

                if (!announced)
                {
                    announced = true;
                    onWaiting?.Invoke(ReadHolder(path));
                }

                await pause(cancellationToken).ConfigureAwait(false);
            }
        }
        finally
        {
            queued?.Dispose();
        }
    }

    /// <inheritdoc />
    public void Dispose() => _stream.Dispose();

    // Shared opens coexist with each other and with nothing exclusive: on Unix .NET takes flock(LOCK_SH) for
    // FileShare other than None and LOCK_EX for None; on Windows the share modes say the same.
    private static FileStream? TryOpen(string path, bool shared)
    {
        try
        {
            return new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, shared ? FileShare.ReadWrite : FileShare.None, 1, FileOptions.None);
        }
        catch (IOException)
        {
            return null;
        }
    }

    private static bool NobodyQueued(string queue)
    {
        using var probe = TryOpen(queue, shared: true);
        return probe is not null;
    }

    // The holder is described in a side file (the lock file cannot be read while held); shared holders
    // write it in turn, and one that cannot is still a holder.
    private static void Describe(string path)
    {
        try
        {
            AtomicFile.WriteAllText(path + ".owner", $"process {Environment.ProcessId}, since {DateTime.Now:HH:mm:ss}");
        }
        catch (IOException)
        {
        }
    }

    private static string ReadHolder(string path)
    {
        try
        {
            var text = File.ReadAllText(path + ".owner").Trim();
            return text.Length == 0 ? "another process" : text;
        }
        catch (IOException)
        {
            return "another process";
        }
    }
}
