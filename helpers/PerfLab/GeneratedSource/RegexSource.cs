using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using PerfLab.Benchmarks;
using PerfLab.Generators;
using PerfLab.Runtimes;
using PerfLab.Views.Terminal;

namespace PerfLab.GeneratedSource;

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

/// <summary>
/// Runs each runtime's regex source generator (<see cref="RegexGenerator"/>) over a one-method class
/// declaring <c>[GeneratedRegex(pattern, options)]</c>, compiled against that runtime's reference
/// assemblies, and finds in each generated file what a reader needs (<see cref="RegexSourceParts"/>).
/// </summary>
public static class RegexSource
{
    // The generator names its types after the method: Pattern_0 in every file.
    private const string MethodName = "Pattern";

    /// <summary>The C# each runtime's generator writes for <paramref name="pattern"/>.</summary>
    /// <param name="pattern">The regular expression.</param>
    /// <param name="options">Its options, as in the attribute.</param>
    /// <param name="runtimes">Runtimes, oldest first; default every runtime of the course.</param>
    /// <param name="cancellationToken">Stops between runtimes (and inside the generator).</param>
    /// <exception cref="PerfLabException">The pattern or the options are invalid (the parser's message), or the helpers are not built.</exception>
    public static RegexSourceReport Generate(string pattern, RegexOptions options = RegexOptions.None, IReadOnlyList<PinnedRuntime>? runtimes = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(pattern);
        var hosts = new HostLayout();
        var declaration = Declaration(pattern, options);
        var results = new List<RuntimeRegexSource>();
        var rejected = new List<(string Runtime, string Message)>();
        foreach (var runtime in runtimes is { Count: > 0 } ? runtimes : RuntimeCatalog.Default)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var generator = RegexGenerator.Load(hosts.RegexGenerator(runtime));
            var outcome = generator.Run(Compilation(runtime, declaration), cancellationToken);
            if (outcome.Diagnostics.FirstOrDefault(d => d.Severity == DiagnosticSeverity.Error) is { } error)
            {
                rejected.Add((runtime.Moniker, ParserMessage(error)));
                continue;
            }

            var file = outcome.Generated.FirstOrDefault()?.ToString().ReplaceLineEndings("\n")
                ?? throw new PerfLabException($"The regex generator of {runtime.Moniker} wrote no file for {Attribute(pattern, options)}.", "Rebuild the helpers (`dotnet build helpers/PerfLab.Cli`); the generator may be damaged.");
            var notes = outcome.Diagnostics.Select(d => $"{d.Id}: {d.GetMessage(System.Globalization.CultureInfo.InvariantCulture)}").ToArray();
            results.Add(new RuntimeRegexSource(runtime.Moniker, generator.Version, file, RegexSourceParts.Find(file), notes));
        }

        if (rejected.Count > 0)
        {
            throw Invalid(pattern, options, rejected);
        }

        return new RegexSourceReport(pattern, options, results);
    }

    /// <summary><c>[GeneratedRegex(@"\w*\p{Sm}", RegexOptions.IgnoreCase | RegexOptions.Compiled)]</c>: what a reader would write.</summary>
    /// <param name="pattern">The pattern.</param>
    /// <param name="options">The options; None is left out.</param>
    public static string Attribute(string pattern, RegexOptions options) =>
        $"[GeneratedRegex({Literal(pattern)}{(options == RegexOptions.None ? "" : ", " + OptionsText(options))})]";

    /// <summary>The C# for an options value: "RegexOptions.IgnoreCase | RegexOptions.Compiled"; bits no flag names as a cast.</summary>
    /// <param name="options">The options.</param>
    public static string OptionsText(RegexOptions options)
    {
        if (options == RegexOptions.None)
        {
            return "RegexOptions.None";
        }

        var parts = new List<string>();
        var rest = options;
        foreach (var flag in Enum.GetValues<RegexOptions>().Where(f => f != RegexOptions.None && options.HasFlag(f)))
        {
            parts.Add("RegexOptions." + flag);
            rest &= ~flag;
        }

        if (rest != RegexOptions.None)
        {
            parts.Add($"(RegexOptions){(int)rest}");
        }

        return string.Join(" | ", parts);
    }

    /// <summary>Options as a reader types them: names separated by commas or |, any case, with or without "RegexOptions.".</summary>
    /// <param name="names">E.g. ["IgnoreCase,Compiled"] or ["ignorecase", "RegexOptions.Multiline"].</param>
    /// <exception cref="PerfLabException">A name is not a RegexOptions flag.</exception>
    public static RegexOptions ParseOptions(IEnumerable<string>? names)
    {
        var options = RegexOptions.None;
        foreach (var name in (names ?? []).SelectMany(n => n.Split([',', '|'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)))
        {
            var bare = name.StartsWith("RegexOptions.", StringComparison.OrdinalIgnoreCase) ? name["RegexOptions.".Length..] : name;
            // Enum.TryParse also takes numbers; a reader's "5" is a typo, not a flag.
            if (bare.Length == 0 || !char.IsLetter(bare[0]) || !Enum.TryParse<RegexOptions>(bare, ignoreCase: true, out var flag))
            {
                throw new PerfLabException(
                    $"Unknown regex option '{name}'.",
                    $"Use RegexOptions names, separated by commas: {string.Join(", ", Enum.GetNames<RegexOptions>())}.");
            }

            options |= flag;
        }

        return options;
    }

    // A verbatim string reads like the pattern (backslashes as typed); a pattern holding a line break or
    // another control character is written as a regular literal instead, escapes and all.
    private static string Literal(string pattern) =>
        pattern.Any(char.IsControl)
            ? SymbolDisplay.FormatLiteral(pattern, quote: true)
            : "@\"" + pattern.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";

    private static string Declaration(string pattern, RegexOptions options) => $$"""
        using System.Text.RegularExpressions;

        static partial class Source
        {
            {{Attribute(pattern, options)}}
            internal static partial Regex {{MethodName}}();
        }
        """;

    private static CSharpCompilation Compilation(PinnedRuntime runtime, string declaration) =>
        CSharpCompilation.Create(
            "regex-source",
            [CSharpSyntaxTree.ParseText(declaration, CSharpParseOptions.Default.WithLanguageVersion(LanguageVersion.Latest), path: "Source.cs")],
            runtime.ReferenceAssemblies(),
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));

    // SYSLIB1042 reads "The specified regex is invalid. '<the parser's message>'".
    private static string ParserMessage(Diagnostic error)
    {
        var message = error.GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        var open = message.IndexOf('\'', StringComparison.Ordinal);
        return open >= 0 && message.EndsWith('\'') && message.Length - open > 2 ? message[(open + 1)..^1] : message;
    }

    private static PerfLabException Invalid(string pattern, RegexOptions options, IReadOnlyList<(string Runtime, string Message)> rejected)
    {
        var runtimes = string.Join(", ", rejected.Select(r => r.Runtime));
        var messages = rejected.Select(r => r.Message).Distinct(StringComparer.Ordinal).ToArray();
        // The generator reports options it cannot take as the name of the argument the Regex parser refused.
        if (messages is ["options"])
        {
            return new PerfLabException(
                $"The regex generator of {runtimes} refuses the options {OptionsText(options)}.",
                $"Use only RegexOptions flags ({string.Join(", ", Enum.GetNames<RegexOptions>())}) in a combination Regex accepts.");
        }

        return new PerfLabException(
            $"{Literal(pattern)} is not a valid regular expression (the regex generator of {runtimes} rejects it).",
            messages.Length == 1 ? $"Check the pattern; the parser says: {messages[0]}" : "Check the pattern; the parsers say:",
            messages.Length == 1 ? null : rejected.Select(r => $"{r.Runtime}: {r.Message}").ToArray());
    }
}
