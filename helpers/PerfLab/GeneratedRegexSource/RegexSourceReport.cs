using System.Text.RegularExpressions;
using PerfLab.Views.Terminal;

namespace PerfLab.GeneratedRegexSource;

/// <summary>What one runtime's regex generator wrote for the pattern.</summary>
/// <param name="Runtime">Moniker.</param>
/// <param name="GeneratorVersion">The generator's file version (the reference pack it shipped in).</param>
/// <param name="GeneratedFile">The whole file it wrote.</param>
/// <param name="Parts">What a reader needs from it.</param>
/// <param name="Notes">What the generator reported that is not an error ("SYSLIB1044: ..."), one line each.</param>
public sealed record RuntimeRegexSource(string Runtime, string GeneratorVersion, string GeneratedFile, RegexSourceParts Parts, IReadOnlyList<string> Notes)
{
    /// <summary>The parts in the order the views show them; a part the generator did not write has no lines.</summary>
    public IReadOnlyList<RegexPart> Sections =>
    [
        new(RegexPart.ExplanationName, false, Parts.Explanation),
        new(RegexSourceParts.FindStartName, true, SplitLines(Parts.FindStart)),
        new(RegexSourceParts.MatchName, true, SplitLines(Parts.Match)),
        new(RegexPart.HelpersName, true, SplitLines(Parts.Helpers.Count == 0 ? null : string.Join("\n\n", Parts.Helpers.Select(h => h.Text)))),
    ];

    /// <summary>
    /// What to tell the reader besides the code: the generator's reason when it wrote no matcher of its own
    /// (its SYSLIB1044 note points at that reason), then its other notes.
    /// </summary>
    public IReadOnlyList<string> Remarks
    {
        get
        {
            if (Parts.Fallback is not { } fallback)
            {
                return Notes;
            }

            var pointers = Notes.Where(n => n.StartsWith("SYSLIB1044:", StringComparison.Ordinal)).ToArray();
            var reason = $"no matcher of its own: the generated class constructs a Regex at run time. The generator says: {fallback}" + (pointers.Length > 0 ? " (SYSLIB1044)" : "");
            return [reason, .. Notes.Except(pointers)];
        }
    }

    private static string[] SplitLines(string? text) => text is null ? [] : text.Split('\n');
}

/// <summary>One part of the generated source, as lines.</summary>
/// <param name="Name">"Explanation", a method's name, or "Utilities".</param>
/// <param name="IsCode">C# (highlighted), or the explanation's prose.</param>
/// <param name="Lines">Its lines; none when the generator did not write it.</param>
public sealed record RegexPart(string Name, bool IsCode, IReadOnlyList<string> Lines)
{
    /// <summary>The pattern explained as a tree.</summary>
    public const string ExplanationName = "Explanation";

    /// <summary>The helpers the two methods call.</summary>
    public const string HelpersName = "Utilities";

    /// <summary>How the summary names the part: "explanation", "helpers", or the method's name.</summary>
    public string Label => Name switch
    {
        ExplanationName => "explanation",
        HelpersName => "helpers",
        _ => Name,
    };
}

/// <summary>Consecutive runtimes whose generators wrote the same lines for a part, and those lines.</summary>
/// <param name="Runtimes">Monikers, in order.</param>
/// <param name="Lines">The lines (none when these runtimes' generators did not write the part).</param>
public sealed record RegexPartGroup(IReadOnlyList<string> Runtimes, IReadOnlyList<string> Lines)
{
    /// <summary>"net8.0, net9.0".</summary>
    public string Label => string.Join(", ", Runtimes);

    /// <summary>"net8.0, net9.0: 57 lines".</summary>
    public string Description => $"{Label}: {Lines.Count} {(Lines.Count == 1 ? "line" : "lines")}";
}

/// <summary>One part across runtimes, grouped where the generated lines are the same.</summary>
/// <param name="Name">The part's name.</param>
/// <param name="IsCode">C# or prose.</param>
/// <param name="Groups">Consecutive runtimes with the same lines.</param>
public sealed record RegexPartView(string Name, bool IsCode, IReadOnlyList<RegexPartGroup> Groups)
{
    /// <summary>The most rows any side-by-side comparison of this part has (decides whether a view starts collapsed).</summary>
    public int Rows => Groups.Count == 1 ? Groups[0].Lines.Count : Groups.Skip(1).Select((g, i) => RegexSourceDiff.Align(Groups[i].Lines, g.Lines).Count).Max();
}

/// <summary>The C# that <c>[GeneratedRegex]</c> emits for one pattern on several runtimes, with what changed between them.</summary>
/// <param name="Pattern">The pattern as given.</param>
/// <param name="Options">The options as given.</param>
/// <param name="Runtimes">Per runtime, in the order asked for; each is compared with the one before it.</param>
[PerfLab.Views.Html.TypeFormatterSource(typeof(PerfLab.Views.Html.NotebookFormatterSource))]
public sealed record RegexSourceReport(string Pattern, RegexOptions Options, IReadOnlyList<RuntimeRegexSource> Runtimes)
{
    /// <summary>The attribute the source was generated for: <c>[GeneratedRegex(@"\w*\p{Sm}", RegexOptions.IgnoreCase)]</c>.</summary>
    public string Attribute => RegexSource.Attribute(Pattern, Options);

    /// <summary>"net9.0 -> net10.0: explanation 2 lines changed; TryMatchAtCurrentPosition 57 -> 38 lines", one per consecutive pair.</summary>
    public IReadOnlyList<string> Summaries() =>
        Runtimes.Skip(1).Select((r, i) => RegexSourceDiff.Summary(Runtimes[i], r)).ToArray();

    /// <summary>Per part, the runtimes grouped where the generated lines are the same, in the order asked for.</summary>
    public IReadOnlyList<RegexPartView> Parts()
    {
        if (Runtimes.Count == 0)
        {
            return [];
        }

        var sections = Runtimes.Select(r => r.Sections).ToArray();
        return sections[0].Select((part, p) =>
        {
            var groups = new List<RegexPartGroup>();
            foreach (var (runtime, lines) in Runtimes.Select((r, i) => (r.Runtime, sections[i][p].Lines)))
            {
                if (groups.Count > 0 && groups[^1].Lines.SequenceEqual(lines, StringComparer.Ordinal))
                {
                    groups[^1] = groups[^1] with { Runtimes = [.. groups[^1].Runtimes, runtime] };
                }
                else
                {
                    groups.Add(new RegexPartGroup([runtime], lines));
                }
            }

            return new RegexPartView(part.Name, part.IsCode, groups);
        }).ToArray();
    }

    /// <summary>Runtimes whose generated files are the same but for the generator's version, and the file of the first of them.</summary>
    public IReadOnlyList<(IReadOnlyList<string> Runtimes, string File)> Files()
    {
        var groups = new List<(IReadOnlyList<string> Runtimes, string File)>();
        foreach (var runtime in Runtimes)
        {
            if (groups.Count > 0 && RegexSourceDiff.SameFile(groups[^1].File, runtime.GeneratedFile))
            {
                groups[^1] = ([.. groups[^1].Runtimes, runtime.Runtime], groups[^1].File);
            }
            else
            {
                groups.Add(([runtime.Runtime], runtime.GeneratedFile));
            }
        }

        return groups;
    }

    /// <summary>Each runtime's <see cref="RuntimeRegexSource.Remarks"/>, said once for consecutive runtimes that share them: ("net8.0, net9.0", remark).</summary>
    public IReadOnlyList<(string Runtimes, string Remark)> Remarks()
    {
        var groups = new List<(List<string> Runtimes, IReadOnlyList<string> Remarks)>();
        IReadOnlyList<string> previous = [];
        foreach (var runtime in Runtimes)
        {
            var remarks = runtime.Remarks;
            if (remarks.Count > 0 && previous.SequenceEqual(remarks, StringComparer.Ordinal))
            {
                groups[^1].Runtimes.Add(runtime.Runtime);
            }
            else if (remarks.Count > 0)
            {
                groups.Add(([runtime.Runtime], remarks));
            }

            previous = remarks;
        }

        return groups.SelectMany(g => g.Remarks.Select(r => (string.Join(", ", g.Runtimes), r))).ToArray();
    }

    /// <summary>What <paramref name="runtime"/>'s generator wrote, or null when it is not in the report.</summary>
    /// <param name="runtime">Moniker.</param>
    public RuntimeRegexSource? Find(string runtime) => Runtimes.FirstOrDefault(r => r.Runtime == runtime);

    /// <summary>The terminal view: see <see cref="RegexSourceTerminalView"/>.</summary>
    public override string ToString() => RegexSourceTerminalView.Render(this);
}
