using System.Text.RegularExpressions;

namespace PerfLab.GeneratedRegexSource;

/// <summary>What changed between two runtimes' generated source: aligned lines (<see cref="LineDiff"/>, as the asm view) and the one-line summary.</summary>
internal static partial class RegexSourceDiff
{
    /// <summary>Two versions of a part side by side, a rewritten line beside the line it replaces.</summary>
    /// <param name="left">The older runtime's lines.</param>
    /// <param name="right">The newer runtime's lines.</param>
    public static IReadOnlyList<DiffLine> Align(IReadOnlyList<string> left, IReadOnlyList<string> right) =>
        LineDiff.Align(left, right, pairChanges: true);

    /// <summary>
    /// "net9.0 -> net10.0: explanation 2 lines changed; TryMatchAtCurrentPosition 57 -> 38 lines": each part
    /// that changed, by its line counts when they differ, else by how many lines changed; "same source" when none did.
    /// </summary>
    /// <param name="left">The older runtime.</param>
    /// <param name="right">The newer runtime.</param>
    public static string Summary(RuntimeRegexSource left, RuntimeRegexSource right)
    {
        ArgumentNullException.ThrowIfNull(left);
        ArgumentNullException.ThrowIfNull(right);
        var changes = new List<string>();
        if ((left.Parts.Fallback is null) != (right.Parts.Fallback is null))
        {
            changes.Add(right.Parts.Fallback is null
                ? $"a matcher of its own on {right.Runtime} ({left.Runtime} constructs a Regex)"
                : $"no matcher of its own on {right.Runtime} (it constructs a Regex)");
        }

        foreach (var (before, after) in left.Sections.Zip(right.Sections))
        {
            if (before.Lines.SequenceEqual(after.Lines, StringComparer.Ordinal) || before.Lines.Count == 0 || after.Lines.Count == 0)
            {
                continue;
            }

            var changed = LineDiff.ChangedLines(Align(before.Lines, after.Lines));
            changes.Add(before.Lines.Count != after.Lines.Count
                ? $"{before.Label} {before.Lines.Count} -> {after.Lines.Count} lines"
                : $"{before.Label} {changed} {(changed == 1 ? "line" : "lines")} changed");
        }

        return $"{left.Runtime} -> {right.Runtime}: " + (changes.Count == 0 ? "same source" : string.Join("; ", changes));
    }

    /// <summary>Whether two generated files are the same but for the generator's version in their attributes.</summary>
    /// <param name="left">One file.</param>
    /// <param name="right">The other.</param>
    public static bool SameFile(string left, string right)
    {
        ArgumentNullException.ThrowIfNull(left);
        ArgumentNullException.ThrowIfNull(right);
        return string.Equals(GeneratorVersion().Replace(left, "$1"), GeneratorVersion().Replace(right, "$1"), StringComparison.Ordinal);
    }

    // [GeneratedCode("System.Text.RegularExpressions.Generator", "10.0.14.42308")] on every generated type.
    [GeneratedRegex(@"(""System\.Text\.RegularExpressions\.Generator"",\s*)""[0-9.]+""")]
    private static partial Regex GeneratorVersion();
}
