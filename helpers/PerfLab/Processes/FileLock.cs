namespace PerfLab.Processes;

/// <summary>
/// A lock shared by every PerfLab process of the user, held as an exclusively opened file. The OS
/// releases it when the holder dies, so a killed run never leaves a stale lock behind.
/// </summary>
internal sealed class FileLock : IDisposable
{
    private readonly FileStream _stream;

    private FileLock(FileStream stream) => _stream = stream;

    /// <summary>Takes the lock, waiting as long as another process holds it.</summary>
    /// <param name="path">The lock file.</param>
    /// <param name="onWaiting">Called once, with the holder's description, if the lock is busy.</param>
    /// <param name="cancellationToken">Stops waiting; a caller already cancelled never takes the lock.</param>
    public static async Task<FileLock> AcquireAsync(string path, Action<string>? onWaiting, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        var announced = false;
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                var stream = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, 1, FileOptions.None);

                // The holder is described in a side file: the lock file itself cannot be read while held.
                File.WriteAllText(path + ".owner", $"process {Environment.ProcessId}, since {DateTime.Now:HH:mm:ss}");
                return new FileLock(stream);
            }
            catch (IOException)
            {
                if (!announced)
                {
                    announced = true;
                    onWaiting?.Invoke(ReadHolder(path));
                }

                await Task.Delay(250, cancellationToken).ConfigureAwait(false);
            }
        }
    }

    /// <inheritdoc />
    public void Dispose() => _stream.Dispose();

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
