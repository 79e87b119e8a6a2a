using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using PerfLab.Benchmarks;
using PerfLab.Runtimes;

namespace PerfLab.GeneratedRegexSource;

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
            var generator = RegexGenerator.Load(hosts.RegexGeneratorPath(runtime));
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
