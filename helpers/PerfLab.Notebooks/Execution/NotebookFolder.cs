namespace PerfLab.Notebooks.Execution;

/// <summary>
/// The current directory while notebooks run: the notebook's folder, so relative paths in cells mean it, as in
/// Jupyter. It is the process's: of runs that overlap (two notebooks of one job), the last to start sets it, and
/// the last to end gives back the folder from before the first, never one a finished run left behind.
/// </summary>
internal static class NotebookFolder
{
    private static readonly Lock Gate = new();
    private static int _running;
    private static string? _before;

    /// <summary>Makes <paramref name="folder"/> the current directory until the result is disposed.</summary>
    public static IDisposable Enter(string folder)
    {
        lock (Gate)
        {
            if (_running++ == 0)
            {
                _before = CurrentOrNone();
            }

            Environment.CurrentDirectory = folder;
        }

        return new Leave();
    }

    // A process started in a folder that was deleted since has no current directory to give back: the notebook's then stays.
    private static string? CurrentOrNone()
    {
        try
        {
            return Environment.CurrentDirectory;
        }
        catch (IOException)
        {
            return null;
        }
    }

    private sealed class Leave : IDisposable
    {
        public void Dispose()
        {
            lock (Gate)
            {
                if (--_running == 0 && _before is not null)
                {
                    Environment.CurrentDirectory = _before;
                    _before = null;
                }
            }
        }
    }
}
