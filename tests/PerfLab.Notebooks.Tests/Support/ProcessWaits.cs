namespace PerfLab.Notebooks.Tests.Support;

/// <summary>What the kernel tests do while they wait for a kernel's processes: poll for a state, and clean up what a failed test left.</summary>
public static class ProcessWaits
{
    /// <summary>Probes every 200 ms until <paramref name="done"/> holds or <paramref name="limit"/> passes; returns the last value probed.</summary>
    public static async Task<T> PollAsync<T>(Func<T> probe, Func<T, bool> done, TimeSpan limit)
    {
        var deadline = DateTime.UtcNow + limit;
        var value = probe();
        while (!done(value) && DateTime.UtcNow < deadline)
        {
            await Task.Delay(200);
            value = probe();
        }

        return value;
    }

    /// <summary>Kills a process and its tree, if it still runs.</summary>
    public static void KillQuietly(int pid)
    {
        try
        {
            using var process = System.Diagnostics.Process.GetProcessById(pid);
            process.Kill(entireProcessTree: true);
        }
        catch (ArgumentException)
        {
            // Gone already.
        }
        catch (InvalidOperationException)
        {
            // Exited while we looked.
        }
    }
}
