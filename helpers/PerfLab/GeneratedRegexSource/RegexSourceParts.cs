using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace PerfLab.GeneratedRegexSource;

/// <summary>A member of the generated Utilities class that the matcher uses.</summary>
/// <param name="Name">The member's name (a method, field, constant or property).</param>
/// <param name="Text">Its declaration with its doc comment, dedented.</param>
public sealed record RegexHelper(string Name, string Text);

/// <summary>
/// What a reader needs from the file the regex generator wrote for one <c>[GeneratedRegex]</c>, found in
/// its syntax tree: the pattern explained as a tree (the doc comment on the partial method), the two
/// methods that do the work, and the Utilities members they call.
/// </summary>
/// <param name="Explanation">The explanation's lines ("○ Match a word character atomically any number of times."), nesting kept as indentation.</param>
/// <param name="FindStart">The <c>TryFindNextPossibleStartingPosition</c> method, or null when the generator wrote no matcher.</param>
/// <param name="Match">The <c>TryMatchAtCurrentPosition</c> method, or null when the generator wrote no matcher.</param>
/// <param name="Helpers">The Utilities members those two methods use, directly or through each other, in declaration order.</param>
/// <param name="Fallback">Why the generator wrote no matcher of its own and constructs a Regex instead (its own remark), or null.</param>
public sealed record RegexSourceParts(
    IReadOnlyList<string> Explanation,
    string? FindStart,
    string? Match,
    IReadOnlyList<RegexHelper> Helpers,
    string? Fallback)
{
    /// <summary>The method that looks for where a match could start (vectorized searches, anchors).</summary>
    public const string FindStartName = "TryFindNextPossibleStartingPosition";

    /// <summary>The method that matches at one position (loops, backtracking).</summary>
    public const string MatchName = "TryMatchAtCurrentPosition";

    private static readonly CSharpParseOptions Options = CSharpParseOptions.Default
        .WithLanguageVersion(LanguageVersion.Preview)
        .WithDocumentationMode(DocumentationMode.Parse);

    /// <summary>Finds the parts in a generated file.</summary>
    /// <param name="generatedFile">The file's text, as the generator wrote it.</param>
    public static RegexSourceParts Find(string generatedFile)
    {
        ArgumentNullException.ThrowIfNull(generatedFile);
        var text = generatedFile.ReplaceLineEndings("\n");
        var root = CSharpSyntaxTree.ParseText(text, Options).GetRoot();

        var methods = root.DescendantNodes().OfType<MethodDeclarationSyntax>().ToArray();
        var findStart = methods.FirstOrDefault(m => m.Identifier.ValueText == FindStartName);
        var match = methods.FirstOrDefault(m => m.Identifier.ValueText == MatchName);
        var helpers = HelpersOf(root, [.. new[] { findStart, match }.OfType<SyntaxNode>()]);

        return new RegexSourceParts(
            ExplanationOf(root),
            findStart is null ? null : Lines(findStart, withDocs: false),
            match is null ? null : Lines(match, withDocs: false),
            helpers,
            match is null ? FallbackRemark(root) : null);
    }

    // The remarks the generator writes on the partial method: "Pattern:", "Options:", "Explanation:", each
    // followed by a <code> element; the explanation is the one after "Explanation:".
    private static IReadOnlyList<string> ExplanationOf(SyntaxNode root)
    {
        foreach (var remarks in DocElements(root, "remarks"))
        {
            var afterLabel = false;
            foreach (var node in remarks.Content)
            {
                if (node is XmlTextSyntax label && TextOf(label).Contains("Explanation:", StringComparison.Ordinal))
                {
                    afterLabel = true;
                }
                else if (afterLabel && node is XmlElementSyntax { StartTag.Name.LocalName.ValueText: "code" } code)
                {
                    var explained = TextOf(code).Split('\n').Select(l => l.TrimEnd()).Where(l => l.Length > 0).ToArray();
                    return Dedent(explained);
                }
            }
        }

        return [];
    }

    // When the generator cannot write a matcher (NonBacktracking, case-insensitive backreferences...), the
    // class it writes caches a constructed Regex and its doc comment's remarks say why.
    private static string? FallbackRemark(SyntaxNode root) =>
        root.DescendantNodes().OfType<ClassDeclarationSyntax>()
            .SelectMany(c => c.GetLeadingTrivia().Select(t => t.GetStructure()).OfType<DocumentationCommentTriviaSyntax>())
            .SelectMany(d => d.Content.OfType<XmlElementSyntax>().Where(e => e.StartTag.Name.LocalName.ValueText == "remarks"))
            .Select(e => string.Join(' ', TextOf(e).Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries)))
            .FirstOrDefault(t => t.Length > 0);

    private static IEnumerable<XmlElementSyntax> DocElements(SyntaxNode root, string name) =>
        root.DescendantTrivia()
            .Select(t => t.GetStructure())
            .OfType<DocumentationCommentTriviaSyntax>()
            .SelectMany(d => d.Content.OfType<XmlElementSyntax>())
            .Where(e => e.StartTag.Name.LocalName.ValueText == name);

    // The text an XML doc node stands for: entities decoded (&lt; is <), the /// of each line left out
    // (it is trivia), <br/> dropped, a <see cref="X"/> read as X.
    private static string TextOf(XmlNodeSyntax node)
    {
        var text = new StringBuilder();
        void Walk(XmlNodeSyntax item)
        {
            switch (item)
            {
                case XmlTextSyntax content:
                    foreach (var token in content.TextTokens)
                    {
                        text.Append(token.IsKind(SyntaxKind.XmlTextLiteralNewLineToken) ? "\n" : token.ValueText);
                    }

                    break;
                case XmlElementSyntax element:
                    foreach (var child in element.Content)
                    {
                        Walk(child);
                    }

                    break;
                case XmlEmptyElementSyntax empty when empty.Attributes.OfType<XmlCrefAttributeSyntax>().FirstOrDefault() is { } cref:
                    text.Append(cref.Cref.ToString());
                    break;
            }
        }

        Walk(node);
        return text.ToString();
    }

    // Members of the generated Utilities class that the roots name, and those they name in turn.
    private static IReadOnlyList<RegexHelper> HelpersOf(SyntaxNode root, IReadOnlyList<SyntaxNode> users)
    {
        var members = root.DescendantNodes().OfType<ClassDeclarationSyntax>()
            .Where(c => c.Identifier.ValueText == "Utilities")
            .SelectMany(c => c.Members)
            .Select(m => (Member: m, Names: NamesOf(m)))
            .Where(m => m.Names.Count > 0)
            .ToArray();
        var used = new HashSet<MemberDeclarationSyntax>();
        var pending = new Queue<SyntaxNode>(users);
        while (pending.TryDequeue(out var user))
        {
            var named = user.DescendantNodes().OfType<SimpleNameSyntax>().Select(n => n.Identifier.ValueText).ToHashSet(StringComparer.Ordinal);
            foreach (var (member, names) in members)
            {
                if (names.Any(named.Contains) && used.Add(member))
                {
                    pending.Enqueue(member);
                }
            }
        }

        return members.Where(m => used.Contains(m.Member)).Select(m => new RegexHelper(string.Join(", ", m.Names), Lines(m.Member, withDocs: true))).ToArray();
    }

    private static IReadOnlyList<string> NamesOf(MemberDeclarationSyntax member) => member switch
    {
        MethodDeclarationSyntax method => [method.Identifier.ValueText],
        PropertyDeclarationSyntax property => [property.Identifier.ValueText],
        BaseFieldDeclarationSyntax field => field.Declaration.Variables.Select(v => v.Identifier.ValueText).ToArray(),
        BaseTypeDeclarationSyntax type => [type.Identifier.ValueText],
        _ => [],
    };

    // The whole lines a member spans (from its doc comment when asked), dedented, trailing blanks trimmed.
    private static string Lines(SyntaxNode member, bool withDocs)
    {
        var start = member.SpanStart;
        if (withDocs && member.GetLeadingTrivia().FirstOrDefault(t => t.IsKind(SyntaxKind.SingleLineDocumentationCommentTrivia)) is { RawKind: not 0 } docs)
        {
            start = docs.SpanStart;
        }

        var lines = member.SyntaxTree.GetText().Lines;
        var (first, last) = (lines.GetLineFromPosition(start).LineNumber, lines.GetLineFromPosition(member.Span.End).LineNumber);
        var text = Enumerable.Range(first, last - first + 1).Select(i => lines[i].ToString().TrimEnd()).ToArray();
        return string.Join('\n', Dedent(text));
    }

    private static string[] Dedent(string[] lines)
    {
        var indent = lines.Where(l => l.Length > 0).Select(l => l.Length - l.TrimStart(' ').Length).DefaultIfEmpty(0).Min();
        return lines.Select(l => l.Length >= indent ? l[indent..] : l).ToArray();
    }
}
