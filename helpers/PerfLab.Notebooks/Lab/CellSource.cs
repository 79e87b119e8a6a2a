using System.Reflection;
using PerfLab.Notebooks.Execution;

namespace PerfLab.Notebooks;

/// <summary>
/// The text of the cell that is running, from whichever kernel runs it: the course's own (through
/// <see cref="CellContext"/>), or .NET Interactive, read by reflection since the course holds no
/// reference to it: <c>KernelInvocationContext.Current.Command</c> is the SubmitCode whose
/// <c>Code</c> is the cell.
/// </summary>
internal static class CellSource
{
    private const string InteractiveContextType = "Microsoft.DotNet.Interactive.KernelInvocationContext";

    /// <summary>The running cell's text, its name, and the token that stops it; null outside any notebook.</summary>
    public static (string Source, string CellName, CancellationToken Cancellation)? Current()
    {
        if (CellContext.Current is { } ours)
        {
            return (ours.Source, ours.CellName, ours.CancellationToken);
        }

        return FromInteractive();
    }

    private static (string, string, CancellationToken)? FromInteractive()
    {
        var type = AppDomain.CurrentDomain.GetAssemblies()
            .Select(a => a.GetType(InteractiveContextType, throwOnError: false))
            .FirstOrDefault(t => t is not null);
        var context = type?.GetProperty("Current", BindingFlags.Public | BindingFlags.Static)?.GetValue(null);
        if (context is null)
        {
            return null;
        }

        var command = context.GetType().GetProperty("Command", BindingFlags.Public | BindingFlags.Instance)?.GetValue(context);
        if (command?.GetType().GetProperty("Code", BindingFlags.Public | BindingFlags.Instance)?.GetValue(command) is not string code)
        {
            return null;
        }

        // The adapter's token, where it keeps one, is cancelled by Jupyter's interrupt too, which the kernel's own is not.
        var token = KernelAdapter.InteractiveCell
            ?? (context.GetType().GetProperty("CancellationToken", BindingFlags.Public | BindingFlags.Instance)?.GetValue(context) is CancellationToken t ? t : default);

        // .NET Interactive keeps its own magic lines in the submission; they are not C#.
        var lines = code.Split('\n').Select(l => l.TrimStart().StartsWith("#!", StringComparison.Ordinal) ? "" : l);
        return (string.Join('\n', lines), "cell", token);
    }
}
