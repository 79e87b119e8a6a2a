using System.Text.RegularExpressions;

namespace PerfLab.Setup.Tests.Support;

/// <summary>A repository script a command line starts: `./x`, `.devcontainer/x`, `bash x`, `pwsh ./x`.</summary>
/// <param name="Path">As written, relative to the repository root.</param>
/// <param name="Direct">Started as a program itself (so it needs the execute bit), not handed to an interpreter.</param>
public sealed record ScriptCall(string Path, bool Direct);

/// <summary>Finds the repository scripts in shell command text.</summary>
public static partial class ScriptCalls
{
    private static readonly string[] Interpreters = ["bash", "sh", "pwsh", "powershell"];

    /// <summary>The scripts each simple command of <paramref name="commandLine"/> starts (split on ;, &amp;&amp;, ||, | and newlines).</summary>
    public static IEnumerable<ScriptCall> InShellText(string commandLine)
    {
        foreach (var segment in Separators().Split(commandLine))
        {
            var words = segment.Split((char[])[' ', '\t'], StringSplitOptions.RemoveEmptyEntries)
                .SkipWhile(w => w.Contains('=', StringComparison.Ordinal) && !w.StartsWith('-')) // NAME=value prefixes
                .ToArray();
            var call = InWords(words);
            if (call is not null)
            {
                yield return call;
            }
        }
    }

    /// <summary>The script an argument vector starts, if any (the array form of a dev container command).</summary>
    public static ScriptCall? InWords(IReadOnlyList<string> words)
    {
        if (words.Count == 0)
        {
            return null;
        }

        var first = words[0];
        if (IsRepoPath(first))
        {
            return new ScriptCall(Clean(first), Direct: true);
        }

        if (Interpreters.Contains(first, StringComparer.Ordinal))
        {
            // The first word that is not an option, e.g. `bash -e x.sh`, `pwsh -File ./x.ps1`.
            var script = words.Skip(1).FirstOrDefault(w => !w.StartsWith('-'));
            if (script is not null && (IsRepoPath(script) || script.EndsWith(".sh", StringComparison.Ordinal) || script.EndsWith(".ps1", StringComparison.Ordinal)))
            {
                return new ScriptCall(Clean(script), Direct: false);
            }
        }

        return null;
    }

    private static bool IsRepoPath(string word) =>
        word.StartsWith("./", StringComparison.Ordinal) || word.StartsWith(".devcontainer/", StringComparison.Ordinal);

    private static string Clean(string word) => word.Trim('"', '\'');

    [GeneratedRegex(@"&&|\|\||[;|\n]")]
    private static partial Regex Separators();
}
