namespace PerfLab.Files;

/// <summary>
/// Writes a file so that a reader (another PerfLab process, an editor, a git checkout) sees the old
/// content or the new one, never half of it: the content goes to a staging file with a unique name in the
/// same folder, which is then moved over the target. A write that fails deletes its staging file.
/// </summary>
public static class AtomicFile
{
    /// <summary>Writes <paramref name="text"/> (UTF-8, no byte order mark) to <paramref name="path"/>.</summary>
    /// <param name="path">The file to write or replace; its folder must exist.</param>
    /// <param name="text">The content.</param>
    public static void WriteAllText(string path, string text) => Write(path, staging => File.WriteAllText(staging, text));

    /// <summary>Writes <paramref name="text"/> (UTF-8, no byte order mark) to <paramref name="path"/>.</summary>
    /// <param name="path">The file to write or replace; its folder must exist.</param>
    /// <param name="text">The content.</param>
    /// <param name="cancellationToken">Stops the write; the target is then left as it was.</param>
    public static Task WriteAllTextAsync(string path, string text, CancellationToken cancellationToken) =>
        WriteAsync(path, staging => File.WriteAllTextAsync(staging, text, cancellationToken));

    /// <summary>Writes <paramref name="bytes"/> to <paramref name="path"/>.</summary>
    /// <param name="path">The file to write or replace; its folder must exist.</param>
    /// <param name="bytes">The content.</param>
    public static void WriteAllBytes(string path, byte[] bytes) => Write(path, staging => File.WriteAllBytes(staging, bytes));

    /// <summary>Writes <paramref name="bytes"/> to <paramref name="path"/>.</summary>
    /// <param name="path">The file to write or replace; its folder must exist.</param>
    /// <param name="bytes">The content.</param>
    /// <param name="cancellationToken">Stops the write; the target is then left as it was.</param>
    public static Task WriteAllBytesAsync(string path, byte[] bytes, CancellationToken cancellationToken) =>
        WriteAsync(path, staging => File.WriteAllBytesAsync(staging, bytes, cancellationToken));

    /// <summary>Copies <paramref name="source"/> to <paramref name="path"/>.</summary>
    /// <param name="source">The file to copy.</param>
    /// <param name="path">The copy, written or replaced; its folder must exist.</param>
    public static void Copy(string source, string path) => Write(path, staging => File.Copy(source, staging, overwrite: true));

    /// <summary>
    /// Lets <paramref name="write"/> create the staging file (another program, say, given its path), then
    /// moves it over <paramref name="path"/>, unless <paramref name="write"/> says it failed.
    /// </summary>
    /// <param name="path">The file to write or replace; its folder must exist.</param>
    /// <param name="write">Writes the whole content to the staging path it is given; returns whether it succeeded.</param>
    /// <returns>Whether the target was written; when not, it is left as it was.</returns>
    public static async Task<bool> TryWriteAsync(string path, Func<string, Task<bool>> write)
    {
        ArgumentNullException.ThrowIfNull(write);
        var staging = StagingPath(path);
        try
        {
            if (!await write(staging).ConfigureAwait(false))
            {
                return false;
            }

            File.Move(staging, path, overwrite: true);
            return true;
        }
        finally
        {
            DeleteLeftover(staging);
        }
    }

    private static Task WriteAsync(string path, Func<string, Task> write) => TryWriteAsync(path, async staging =>
    {
        await write(staging).ConfigureAwait(false);
        return true;
    });

    private static void Write(string path, Action<string> write)
    {
        var staging = StagingPath(path);
        try
        {
            write(staging);
            File.Move(staging, path, overwrite: true);
        }
        finally
        {
            DeleteLeftover(staging);
        }
    }

    // Same folder, so the move is a rename on one volume; unique, so two processes writing one target
    // never write into each other's staging file. The name says whose it is if a crash leaves it behind.
    private static string StagingPath(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        var full = Path.GetFullPath(path);
        return Path.Combine(Path.GetDirectoryName(full)!, $"{Path.GetFileName(full)}.{Guid.NewGuid().ToString("N")[..8]}.perflab-tmp");
    }

    // After a successful move nothing is there; after a failed write the half-written file goes.
    private static void DeleteLeftover(string staging)
    {
        try
        {
            File.Delete(staging);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // The write's own exception, if any, is the one worth seeing; a stray staging file is harmless.
        }
    }
}
