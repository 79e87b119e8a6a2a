namespace PerfLab.Kernel;

/// <summary>
/// The notebook file a cell belongs to, as far as the frontend tells the kernel: the Jupyter protocol itself carries no
/// path, but two frontends do, each its own way. VS Code names each cell in an execute_request's metadata, <c>cellId</c>,
/// by its cell document's URI, <c>vscode-notebook-cell:/PATH/NAME.ipynb#FRAGMENT</c>, whose path is the notebook's.
/// Jupyter Server (JupyterLab, Notebook 7) starts a kernel with <c>JPY_SESSION_NAME</c> set to the notebook's full path
/// (jupyter_server 2.0.7 and later; the path at the kernel's start, so a notebook renamed since keeps its old name until
/// the kernel restarts). Anything else (JupyterLab's cellId is a random id; nbclient and jupyter_client set neither) is
/// no notebook, never a guess.
/// </summary>
internal static class KernelNotebook
{
    /// <summary>The environment variable Jupyter Server sets to the notebook's path when it starts a kernel.</summary>
    public const string SessionVariable = "JPY_SESSION_NAME";

    /// <summary>The cell's notebook: VS Code's cell URI, else the session's notebook; null when neither names an .ipynb.</summary>
    /// <param name="cellId">The execute_request metadata's cellId, if any.</param>
    /// <param name="session">The value of <see cref="SessionVariable"/> the kernel started with, if any.</param>
    public static string? Of(string? cellId, string? session)
    {
        if (cellId is not null && cellId.StartsWith("vscode-notebook-cell:", StringComparison.Ordinal)
            && Uri.TryCreate(cellId, UriKind.Absolute, out var cell) && Uri.UnescapeDataString(cell.AbsolutePath) is var path
            && path.EndsWith(".ipynb", StringComparison.OrdinalIgnoreCase))
        {
            // vscode-notebook-cell:/c%3A/course/notebooks/x.ipynb on Windows: the drive's slash goes.
            return path.Length > 3 && path[0] == '/' && path[2] == ':' ? path[1..] : path;
        }

        return session is { Length: > 0 } && session.EndsWith(".ipynb", StringComparison.OrdinalIgnoreCase) ? session : null;
    }
}
