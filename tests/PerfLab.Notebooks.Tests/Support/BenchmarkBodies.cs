using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// Finds a benchmark of the course whose whole body is a body of the digests' code with only its names changed,
/// however short: <see cref="CodeRuns"/>' windows of 25 tokens let a one-line benchmark through. Both sides are
/// normalized as <see cref="CodeRuns"/> does (names become <see cref="CodeRuns.Name"/>, keywords and the .NET API's
/// names stay), and further: a name that refers to a constant or field initialized with a literal (or with API
/// names only, as <c>int.MaxValue</c>) becomes that value, so a literal kept behind a new name is still the literal;
/// numbers are compared by value; <c>return</c> is dropped, and a body of one statement is its expression, so
/// <c>=&gt; x.M()</c>, <c>{ return x.M(); }</c> and <c>{ x.M(); }</c> are one body. A course body is a copy when it is
/// exactly a digest body (the text after a <c>=&gt;</c>, a block's contents, one code span, or the part of any of
/// them before an elision <c>...</c>) and holds at least <see cref="MinimumKept"/> tokens that are neither names nor
/// marks (a literal, a keyword, an API member), so that calling a helper, <c>=&gt; Helper(_field)</c>, is no copy.
/// Other literal values, another structure or other API calls make another body.
/// </summary>
public static class BenchmarkBodies
{
    /// <summary>The fewest literals, keywords and API names a body holds to be compared at all.</summary>
    public const int MinimumKept = 2;

    /// <summary>One benchmark method of the course: where its body is and its normalized tokens.</summary>
    public sealed record Body(CodeRuns.Snippet Snippet, string Method, int FirstLine, int LastLine, string Text, IReadOnlyList<string> Tokens);

    /// <summary>The hash of a body's normalized tokens (64-bit FNV-1a, a separator after each token).</summary>
    public static ulong Hash(IReadOnlyList<string> tokens)
    {
        var hash = 14695981039346656037ul;
        foreach (var token in tokens)
        {
            foreach (var c in token)
            {
                hash = (hash ^ c) * 1099511628211ul;
            }

            hash = (hash ^ 0x1F) * 1099511628211ul;
        }

        return hash;
    }

    /// <summary>
    /// Whether a body holds enough literals, keywords and API names to be compared: <see cref="MinimumKept"/>, and a
    /// literal among them or three API names. A call of the API with the course's own arguments
    /// (<c>new BitArray(_bytes)</c>, <c>_text.AsSpan().IndexOfAny(_set)</c>) is the API, not a copy; a body that keeps a
    /// post's value (<c>new Holder(42).Value</c>) or more of its calls is compared.
    /// </summary>
    public static bool Comparable(IReadOnlyList<string> tokens)
    {
        var kept = tokens.Where(t => t != CodeRuns.Name && (char.IsLetterOrDigit(t[0]) || t[0] is '"' or '\'' or '@' or '$' or '_')).ToList();
        var literal = kept.Any(t => char.IsDigit(t[0]) || t[0] is '"' or '\'' or '@' or '$' || t is "true" or "false" or "null");
        var api = kept.Count(t => char.IsLetter(t[0]) && SyntaxFacts.GetKeywordKind(t) == SyntaxKind.None && SyntaxFacts.GetContextualKeywordKind(t) == SyntaxKind.None);
        return kept.Count >= MinimumKept && (literal || api >= 3);
    }

    /// <summary>The bodies of the digests' code, each hash with the places that hold it.</summary>
    public static Dictionary<ulong, CodeRuns.DigestPlace[]> DigestBodies(IReadOnlyList<(string Name, string Text)> digests)
    {
        var bodies = new Dictionary<ulong, HashSet<CodeRuns.DigestPlace>>();
        var snippets = digests.SelectMany(d => CodeRuns.DigestCode(d.Name, d.Text)).ToList();

        // A figure's entry declares its names in one span and uses them in another (MyObj's Value, then new MyObj(42).Value).
        var declaredByFigure = snippets.GroupBy(s => (s.File, s.Part))
            .ToDictionary(g => g.Key, g => g.SelectMany(s => Members(Parse(s))).ToHashSet(StringComparer.Ordinal));
        foreach (var snippet in snippets)
        {
            var place = CodeRuns.PlaceOf(snippet);
            foreach (var body in Candidates(snippet, declaredByFigure[(snippet.File, snippet.Part)]))
            {
                (bodies.TryGetValue(Hash(body), out var held) ? held : bodies[Hash(body)] = []).Add(place);
            }
        }

        return bodies.ToDictionary(b => b.Key, b => b.Value.ToArray());
    }

    /// <summary>Every body a digest snippet holds, normalized (see the class).</summary>
    public static IEnumerable<IReadOnlyList<string>> Candidates(CodeRuns.Snippet snippet, IReadOnlySet<string> alsoDeclared)
    {
        var root = Parse(snippet);
        var tokens = Normalize(snippet, root, alsoDeclared, 0, snippet.Text.Length);
        var found = new HashSet<ulong>();
        var regions = new List<List<string>>();

        // Each code span (a line of the snippet) whole.
        regions.AddRange(tokens.GroupBy(t => t.Line).Select(g => g.Select(t => t.Text).ToList()));
        var texts = tokens.Select(t => t.Text).ToList();
        for (var i = 0; i < texts.Count; i++)
        {
            if (texts[i] == "=>")
            {
                // An expression body or a lambda's: up to the first ; or unbalanced closing mark.
                regions.Add(Balanced(texts, i + 1, stopAtComma: true));
            }
            else if (texts[i] == "{")
            {
                var inside = Balanced(texts, i + 1, stopAtComma: false);
                regions.Add(inside);
            }
        }

        foreach (var region in regions)
        {
            foreach (var part in WithoutElisions(region))
            {
                var body = Canonical(part);
                if (body.Count > 0 && found.Add(Hash(body)))
                {
                    yield return body;
                }
            }
        }
    }

    /// <summary>The benchmark methods of a piece of the course's C# (a cell, a file, or a benchmark source inside a string).</summary>
    public static IEnumerable<Body> CourseBodies(CodeRuns.Snippet snippet)
    {
        var root = Parse(snippet);
        foreach (var method in root.DescendantNodes().OfType<MethodDeclarationSyntax>())
        {
            if (!method.AttributeLists.SelectMany(l => l.Attributes).Any(a => a.Name.ToString() is "Benchmark" or "BenchmarkAttribute" or "BenchmarkDotNet.Attributes.Benchmark"))
            {
                continue;
            }

            SyntaxNode? body = (SyntaxNode?)method.ExpressionBody?.Expression ?? method.Body;
            if (body is null)
            {
                continue;
            }

            // A block's contents, without its braces.
            var (start, end) = body is BlockSyntax block ? (block.OpenBraceToken.Span.End, block.CloseBraceToken.SpanStart) : (body.SpanStart, body.Span.End);
            var tokens = Normalize(snippet, root, new HashSet<string>(), start, end);
            if (tokens.Count == 0)
            {
                continue;
            }

            var canonical = Canonical(tokens.Select(t => t.Text).ToList());
            yield return new Body(snippet, method.Identifier.ValueText, tokens[0].Line, tokens[^1].Line,
                string.Join(' ', snippet.Text[tokens[0].Start..tokens[^1].End].Split((char[])[' ', '\n', '\r', '\t'], StringSplitOptions.RemoveEmptyEntries)),
                canonical);
        }
    }

    /// <summary>The course's benchmark bodies that are a digest body renamed, as copies (one per body).</summary>
    public static IEnumerable<CodeRuns.Copy> Copies(CodeRuns.Piece piece, IReadOnlyDictionary<ulong, CodeRuns.DigestPlace[]> digestBodies)
    {
        foreach (var body in CourseBodies(piece.Snippet))
        {
            if (Comparable(body.Tokens) && digestBodies.TryGetValue(Hash(body.Tokens), out var places))
            {
                yield return new CodeRuns.Copy(piece.Snippet.File, piece.Snippet.Part, body.FirstLine, body.LastLine, places, $"{body.Method}: {body.Text}", body.Tokens);
            }
        }
    }

    private static CSharpParseOptions Options(SourceCodeKind kind) =>
        CSharpParseOptions.Default.WithLanguageVersion(LanguageVersion.Preview).WithKind(kind);

    private static SyntaxNode Parse(CodeRuns.Snippet snippet) => CSharpSyntaxTree.ParseText(snippet.Text, Options(snippet.Kind)).GetRoot();

    // The names a text declares (as CodeRuns counts them): an identifier token whose parent is no name that refers.
    private static HashSet<string> Declared(SyntaxNode root) =>
        root.DescendantTokens().Where(t => t.IsKind(SyntaxKind.IdentifierToken) && t.Parent is not (SimpleNameSyntax or null))
            .Select(t => t.ValueText).ToHashSet(StringComparer.Ordinal);

    // The types and members a text declares in code that parses: what a figure's other spans may use.
    private static IEnumerable<string> Members(SyntaxNode root) =>
        root.DescendantNodes().Where(n => !n.ContainsDiagnostics).SelectMany(n => n switch
        {
            BaseTypeDeclarationSyntax type => [type.Identifier.ValueText],
            PropertyDeclarationSyntax property => [property.Identifier.ValueText],
            MethodDeclarationSyntax method => [method.Identifier.ValueText],
            BaseFieldDeclarationSyntax field => field.Declaration.Variables.Select(v => v.Identifier.ValueText),
            _ => [],
        });

    // A value that is a constant: literals, API names (int.MaxValue), and operators and casts over them.
    private static bool Constant(ExpressionSyntax value) => value switch
    {
        LiteralExpressionSyntax => true,
        MemberAccessExpressionSyntax { Expression: var left } => left is PredefinedTypeSyntax or IdentifierNameSyntax or MemberAccessExpressionSyntax && left.DescendantNodesAndSelf().All(n => n is not InvocationExpressionSyntax),
        PrefixUnaryExpressionSyntax unary => Constant(unary.Operand),
        BinaryExpressionSyntax binary => Constant(binary.Left) && Constant(binary.Right),
        ParenthesizedExpressionSyntax inner => Constant(inner.Expression),
        CastExpressionSyntax cast => Constant(cast.Expression),
        _ => false,
    };

    // The lexer's tokens with names replaced: declared names, and bare names that are no API type, become CodeRuns.Name.
    private static List<CodeRuns.Token> Lex(CodeRuns.Snippet snippet, SyntaxNode root, IReadOnlySet<string> alsoDeclared)
    {
        var declared = Declared(root);
        declared.UnionWith(alsoDeclared);
        var tokens = new List<CodeRuns.Token>();
        var line = snippet.FirstLine;
        var last = 0;
        var previous = "";
        foreach (var token in SyntaxFactory.ParseTokens(snippet.Text, options: Options(snippet.Kind)))
        {
            if (token.IsKind(SyntaxKind.EndOfFileToken))
            {
                break;
            }

            line += snippet.Text.AsSpan(last, token.SpanStart - last).Count('\n');
            last = token.SpanStart;
            var text = token.Text;
            if (token.IsKind(SyntaxKind.IdentifierToken))
            {
                var name = token.ValueText;
                var api = previous is "." or "->" or "::" ? CodeRuns.ApiNames.Contains(name) : CodeRuns.ApiTypeNames.Contains(name);
                text = !declared.Contains(name) && (SyntaxFacts.GetContextualKeywordKind(name) != SyntaxKind.None || api) ? name : CodeRuns.Name;
            }

            tokens.Add(new CodeRuns.Token(text, line, token.SpanStart, token.Span.End));
            previous = token.Text;
        }

        return tokens;
    }

    // The snippet's normalized tokens between two positions, with the values of the names that stand for a literal.
    private static List<CodeRuns.Token> Normalize(CodeRuns.Snippet snippet, SyntaxNode root, IReadOnlySet<string> alsoDeclared, int start, int end)
    {
        var all = Lex(snippet, root, alsoDeclared);
        var values = LiteralNames(snippet, root, all);
        var tokens = new List<CodeRuns.Token>();
        foreach (var token in all.Where(t => t.Start >= start && t.End <= end))
        {
            if (token.Text == CodeRuns.Name && values.TryGetValue(snippet.Text[token.Start..token.End], out var value)
                && !values.ContainsKey("@" + token.Start))
            {
                tokens.AddRange(value.Select(v => token with { Text = v }));
            }
            else if (token.Text != "return")
            {
                tokens.Add(token with { Text = Number(token.Text) });
            }
        }

        return tokens;
    }

    // Names declared with a value of literals and API names only (a constant, a field, a local): name -> the value's
    // tokens. The declarations' own identifiers are marked "@position" so they stay names.
    private static Dictionary<string, List<string>> LiteralNames(CodeRuns.Snippet snippet, SyntaxNode root, List<CodeRuns.Token> all)
    {
        var values = new Dictionary<string, List<string>>(StringComparer.Ordinal);
        var ambiguous = new HashSet<string>(StringComparer.Ordinal);
        foreach (var declarator in root.DescendantNodes().OfType<VariableDeclaratorSyntax>())
        {
            values["@" + declarator.Identifier.SpanStart] = [];
            if (declarator.Initializer?.Value is not { } value || !Constant(value)
                || declarator.Parent?.Parent is not (FieldDeclarationSyntax or LocalDeclarationStatementSyntax { IsConst: true }))
            {
                continue;
            }

            var tokens = all.Where(t => t.Start >= value.SpanStart && t.End <= value.Span.End).Select(t => Number(t.Text)).ToList();
            var name = declarator.Identifier.ValueText;
            if (tokens.Count is > 0 and <= 8 && !tokens.Contains(CodeRuns.Name) && tokens.Any(t => t[0] is '"' or '\'' || char.IsDigit(t[0]) || char.IsUpper(t[0]) || t is "true" or "false" or "null"))
            {
                if (!values.TryAdd(name, tokens))
                {
                    ambiguous.Add(name);
                }
            }
        }

        foreach (var name in ambiguous)
        {
            values.Remove(name);
        }

        return values;
    }

    // A numeric literal by its value (1_000_000 and 1000000 are one number); any other token as it is.
    private static string Number(string text)
    {
        if (text.Length == 0 || !char.IsDigit(text[0]))
        {
            return text;
        }

        var token = SyntaxFactory.ParseToken(text);
        return token.IsKind(SyntaxKind.NumericLiteralToken) ? Convert.ToString(token.Value, System.Globalization.CultureInfo.InvariantCulture) ?? text : text;
    }

    // From a position to the first ; (an arrow's) or the closing mark that ends the region, marks balanced.
    private static List<string> Balanced(List<string> texts, int from, bool stopAtComma)
    {
        var region = new List<string>();
        var depth = 0;
        for (var i = from; i < texts.Count; i++)
        {
            var t = texts[i];
            if (t is "(" or "[" or "{")
            {
                depth++;
            }
            else if (t is ")" or "]" or "}")
            {
                if (depth == 0)
                {
                    break;
                }

                depth--;
            }
            else if (depth == 0 && stopAtComma && t is ";" or ",")
            {
                break;
            }

            region.Add(t);
        }

        return region;
    }

    // A region cut at its elisions ("..." or "…"): each part, and the whole without them.
    private static IEnumerable<List<string>> WithoutElisions(List<string> region)
    {
        var parts = new List<List<string>> { new() };
        for (var i = 0; i < region.Count; i++)
        {
            if (region[i] == "…" || (region[i] == "." && i + 2 < region.Count && region[i + 1] == "." && region[i + 2] == "."))
            {
                i += region[i] == "…" ? 0 : 2;
                parts.Add([]);
                continue;
            }

            parts[^1].Add(region[i]);
        }

        return parts.Count == 1 ? parts : parts.Append(parts.SelectMany(p => p).ToList());
    }

    // Without the closing ;: a body of one statement is then its expression.
    private static List<string> Canonical(List<string> tokens)
    {
        var end = tokens.Count;
        while (end > 0 && tokens[end - 1] == ";")
        {
            end--;
        }

        return tokens.GetRange(0, end);
    }
}
