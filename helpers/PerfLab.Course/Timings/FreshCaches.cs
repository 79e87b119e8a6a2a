namespace PerfLab.Course.Timings;

/// <summary>
/// The home a timing run measures with (<see cref="TimingsFile.CachesNote"/>): a PERFLAB_HOME of the run's own, under
/// the user's home, whose provisioned runtimes, their download projects, the precompiled hosts and the locks are links
/// to the user's home (so none of them is made again inside a cell's time, and measuring still waits for the user's
/// other runs), while cached results, listings and builds are its own and emptied before each notebook: a cached cell
/// answers at once, which is not what a reader's first run sees. The process's PERFLAB_HOME points at it until disposed; then it is deleted (the links, not
/// what they point to) and PERFLAB_HOME is restored.
/// </summary>
public sealed class FreshCaches : IDisposable
{
    private readonly string? _previous;
    private readonly PerfLabHome _home;

    private FreshCaches(PerfLabHome home, string? previous)
    {
        _home = home;
        _previous = previous;
    }

    /// <summary>The home's folder.</summary>
    public string Root => _home.Root;

    /// <summary>
    /// Makes the home under <paramref name="user"/> and points this process's PERFLAB_HOME at it. Call it before
    /// anything in the process has run a benchmark: the notebook helpers keep the home they first saw.
    /// </summary>
    /// <param name="user">The user's home (<see cref="PerfLabHome.Default"/>).</param>
    /// <exception cref="PerfLabException">No symbolic link can be made here, so the runtimes would be provisioned again inside the first cell's time.</exception>
    public static FreshCaches Create(PerfLabHome user)
    {
        ArgumentNullException.ThrowIfNull(user);
        string[] shared = [Path.GetFileName(user.DotnetRoot), Path.GetFileName(user.Provisioning), Path.GetFileName(user.ReadyToRunHosts), Path.GetFileName(user.Locks)];
        var root = Path.Combine(user.Root, "timing", $"{DateTime.UtcNow:yyyyMMdd-HHmmss}-{Environment.ProcessId}");
        var home = PerfLabHome.Linked(root, user.Root, shared);
        if (shared.FirstOrDefault(f => !home.SharesFolder(f)) is { } unshared)
        {
            Remove(root);
            throw new PerfLabException(
                $"--timings needs a home of its own that links to {user.Root}'s provisioned runtimes, and {root} could not link its {unshared} folder (no symbolic links here).",
                "On Windows, turn on developer mode (it allows symbolic links), or time on Linux or macOS.");
        }

        var previous = Environment.GetEnvironmentVariable("PERFLAB_HOME");
        Environment.SetEnvironmentVariable("PERFLAB_HOME", home.Root);
        return new FreshCaches(home, previous);
    }

    /// <summary>Empties the home's own folders (results, listings, builds, scratch), before a notebook is timed.</summary>
    public void Empty()
    {
        foreach (var folder in Directory.EnumerateDirectories(_home.Root))
        {
            if (new DirectoryInfo(folder).LinkTarget is null)
            {
                Directory.Delete(folder, recursive: true);
            }
        }
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        Environment.SetEnvironmentVariable("PERFLAB_HOME", _previous);
        Remove(_home.Root);

        // The timing/ folder goes too when no other timing run is using it.
        var parent = Path.GetDirectoryName(_home.Root)!;
        if (Directory.Exists(parent) && !Directory.EnumerateFileSystemEntries(parent).Any())
        {
            Remove(parent);
        }
    }

    // Deletes the home: its links are unlinked, never followed.
    private static void Remove(string root)
    {
        try
        {
            Directory.Delete(root, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // In use: it is only caches, and the next timing run makes a folder of its own.
        }
    }
}
