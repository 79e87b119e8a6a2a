using System.Collections.Concurrent;
using System.Collections.Frozen;
using System.Globalization;
using System.Reflection;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using BenchmarkDotNet.Attributes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using PerfLab.Course;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// Finds C# of the course that is the code of the posts' digests with its names changed: a post's benchmark
/// renamed is still the post's code. Both sides are lexed as C#, and every identifier becomes <see cref="Name"/>
/// except C# keywords (contextual ones too) and the .NET API's names (<see cref="ApiNames"/>) where the text does
/// not declare them itself; literals, operators and punctuation stay as written. Every run of
/// <see cref="Window"/> such tokens is hashed; a course run of windows that all occur in the digests' code is a
/// copy when it holds at least <see cref="MinimumWords"/> names and keywords (a list of numbers is an input).
/// </summary>
public static partial class CodeRuns
{
    /// <summary>
    /// Tokens per hashed window: one more than the idioms the course shares with the digests' code, which reach 24
    /// (a benchmark that passes its field to a <c>[MethodImpl(MethodImplOptions.NoInlining)]</c> helper, up to the
    /// helper's parameters; <c>for (int i = 0; i &lt; a.Length; i++) sum += a[i];</c>); the digests' three-line
    /// benchmark bodies are 25 to 35.
    /// </summary>
    public const int Window = 25;

    /// <summary>The fewest names and keywords a reported run holds.</summary>
    public const int MinimumWords = 8;

    /// <summary>What every identifier that is neither a keyword nor an API name becomes.</summary>
    public const string Name = "<name>";

    /// <summary>A normalized token, where its text lies in its snippet's text, and its line in the file (1-based).</summary>
    public readonly record struct Token(string Text, int Line, int Start, int End);

    /// <summary>One piece of C#: where it comes from (file, and cell or figure), its text and the line of the file it starts on.</summary>
    public sealed record Snippet(string File, string Part, string Text, int FirstLine, SourceCodeKind Kind);

    /// <summary>A snippet and its normalized tokens.</summary>
    public sealed record Piece(Snippet Snippet, List<Token> Tokens);

    /// <summary>Where the digests' code holds a window: the figure whose entry it is in (or the digest's prefix, outside entries), the digest and its line.</summary>
    public sealed record DigestPlace(string Figure, string Digest, int Line)
    {
        public override string ToString() => $"{Figure} ({Digest} line {Line})";
    }

    /// <summary>A run of a course file's tokens that the digests' code holds, and the digest places it comes from.</summary>
    public sealed record Copy(string File, string Part, int FirstLine, int LastLine, IReadOnlyList<DigestPlace> Places, string Course, IReadOnlyList<string> Shape)
    {
        /// <summary>The digests' text of the same run, where the digests are here.</summary>
        public string? Digest { get; init; }

        /// <summary>Where it is in the course: the file, the cell, the lines.</summary>
        public string Where => $"{File} {(Part.Length > 0 ? Part + ", " : "")}lines {FirstLine}-{LastLine}";

        public override string ToString() =>
            $"""
            {Where}: {Shape.Count} tokens of {string.Join(" + ", Places)} with other names
                course: {Course}
                digest: {Digest ?? "(the digests are not here; look at the line above)"}
                shape:  {string.Join(' ', Shape)}
            """;
    }

    /// <summary>
    /// A copy the course still has and means to rewrite (Data/renamed-copies-pending.txt): a file, its cell
    /// (<c>cell 12</c>) or lines (<c>lines 118-125</c>), and the figure whose code it copies.
    /// </summary>
    public sealed record PendingCopy(string File, string Where, string Figure)
    {
        /// <summary>Whether <paramref name="copy"/> is this one: the same file, in this cell or these lines, of this figure.</summary>
        public bool Matches(Copy copy)
        {
            if (copy.File != File || !copy.Places.Any(p => p.Figure.Split('/').Contains(Figure, StringComparer.Ordinal)))
            {
                return false;
            }

            if (LineRange().Match(Where) is { Success: true } lines)
            {
                return copy.FirstLine <= int.Parse(lines.Groups["last"].Value, CultureInfo.InvariantCulture)
                    && copy.LastLine >= int.Parse(lines.Groups["first"].Value, CultureInfo.InvariantCulture);
            }

            return copy.Part == Where;
        }

        public override string ToString() => $"{File} | {Where} | {Figure}";
    }

    /// <summary>The API's type and namespace names (and attributes' short names), without its members' names: a part of
    /// <see cref="ApiNames"/>, which is made from it (so it comes first).</summary>
    public static FrozenSet<string> ApiTypeNames { get; } = LoadApiTypeNames();

    /// <summary>
    /// Names of public types (attributes also without "Attribute"), their members and namespaces, of the .NET
    /// libraries and the BenchmarkDotNet attributes the course's code uses: a renamed copy keeps them.
    /// </summary>
    public static FrozenSet<string> ApiNames { get; } = LoadApiNames();

    /// <summary>
    /// The first 8 bytes of the SHA-256 of <see cref="ApiNames"/>: windows made with other names (another runtime or
    /// BenchmarkDotNet) do not match this process's, so a fingerprint records the names it was made with.
    /// </summary>
    public static ulong ApiNamesHash { get; } =
        BitConverter.ToUInt64(SHA256.HashData(Encoding.UTF8.GetBytes(string.Join('\n', ApiNames.Order(StringComparer.Ordinal)))));

    /// <summary>The normalized tokens of a snippet.</summary>
    public static List<Token> Normalize(Snippet snippet) => Normalize(snippet, Parse(snippet));

    /// <summary>A snippet's tokens, then those of each multi-line string literal in it (a benchmark source the tests or scripts compile).</summary>
    public static IEnumerable<Piece> Pieces(Snippet snippet)
    {
        var root = Parse(snippet);
        yield return new Piece(snippet, Normalize(snippet, root));
        foreach (var inner in StringContents(snippet, root).SelectMany(Pieces))
        {
            yield return inner;
        }
    }

    /// <summary>
    /// The hash of every window of <paramref name="tokens"/>, in order: 64 bits, because one window is a copy
    /// (32 bits would make a false one about every fifth scan of the course).
    /// </summary>
    public static List<ulong> Hashes(IReadOnlyList<Token> tokens)
    {
        var hashes = new List<ulong>(Math.Max(0, tokens.Count - Window + 1));
        for (var start = 0; start + Window <= tokens.Count; start++)
        {
            // FNV-1a over the window's tokens, each followed by a separator no token contains.
            var hash = 14695981039346656037ul;
            for (var t = start; t < start + Window; t++)
            {
                foreach (var c in tokens[t].Text)
                {
                    hash = (hash ^ c) * 1099511628211ul;
                }

                hash = (hash ^ 0x1F) * 1099511628211ul;
            }

            hashes.Add(hash);
        }

        return hashes;
    }

    /// <summary>
    /// The copies in a piece of the course: each run of windows the digests' code holds, with the digest places it
    /// continues through (a run that moves from one place to another names both), when it holds enough words.
    /// </summary>
    public static IEnumerable<Copy> Copies(Piece piece, IReadOnlyDictionary<ulong, DigestPlace[]> windows)
    {
        var tokens = piece.Tokens;
        var hashes = Hashes(tokens);
        var i = 0;
        while (i < hashes.Count)
        {
            if (!windows.ContainsKey(hashes[i]))
            {
                i++;
                continue;
            }

            var start = i;
            var places = new List<DigestPlace>();
            IEnumerable<DigestPlace> current = windows[hashes[i]];
            while (i < hashes.Count && windows.TryGetValue(hashes[i], out var here))
            {
                var continued = current.Intersect(here).ToList();
                if (continued.Count == 0)
                {
                    places.AddRange(current);
                    continued = [.. here];
                }

                current = continued;
                i++;
            }

            places.AddRange(current);
            var run = tokens.GetRange(start, i - start + Window - 1);
            if (run.Count(t => char.IsLetter(t.Text[0]) || t.Text == Name) >= MinimumWords)
            {
                yield return new Copy(
                    piece.Snippet.File, piece.Snippet.Part, run[0].Line, run[^1].Line, places.Distinct().ToList(),
                    Excerpt(piece.Snippet.Text, run), run.Select(t => t.Text).ToList());
            }
        }
    }

    /// <summary>
    /// The digests' text of a copy's shape: the excerpt of each digest snippet (by place) that holds part of it,
    /// in order, joined by " … ".
    /// </summary>
    public static string DigestText(Copy copy, IReadOnlyDictionary<DigestPlace, Piece> digestPieces)
    {
        var shape = copy.Shape;
        var excerpts = new List<string>();
        var done = 0;
        foreach (var place in copy.Places)
        {
            var piece = digestPieces[place];
            var texts = piece.Tokens.Select(t => t.Text).ToList();
            var (at, length) = Enumerable.Range(0, texts.Count)
                .Select(s => (s, Enumerable.Range(0, Math.Min(texts.Count - s, shape.Count - done)).TakeWhile(k => texts[s + k] == shape[done + k]).Count()))
                .MaxBy(m => m.Item2);
            if (length > 0)
            {
                excerpts.Add(Excerpt(piece.Snippet.Text, piece.Tokens.GetRange(at, length)));
                done += length;
            }
        }

        return string.Join(" … ", excerpts);
    }

    /// <summary>The entries of a pending list: <c>file | cell N</c> or <c>file | lines A-B</c>, then <c>| figure</c>, one a line; # starts a comment.</summary>
    public static IReadOnlyList<PendingCopy> ReadPending(string path) =>
        File.ReadLines(path)
            .Select(line => line.Trim())
            .Where(line => line.Length > 0 && !line.StartsWith('#'))
            .Select(line => line.Split('|', StringSplitOptions.TrimEntries) is [var file, var where, var figure]
                && (where.StartsWith("cell ", StringComparison.Ordinal) || LineRange().IsMatch(where))
                    ? new PendingCopy(file, where, figure)
                    : throw new InvalidDataException($"{path}: \"{line}\" is not \"file | cell N | figure\" or \"file | lines A-B | figure\"."))
            .ToList();

    /// <summary>The code of the digests (file name and text), normalized.</summary>
    public static IEnumerable<Piece> DigestPieces(IReadOnlyList<(string Name, string Text)> digests) =>
        digests.SelectMany(d => DigestCode(d.Name, d.Text)).Select(s => new Piece(s, Normalize(s)));

    /// <summary>The place of a digest's snippet (<see cref="DigestCode"/>).</summary>
    public static DigestPlace PlaceOf(Snippet digestSnippet) => new(digestSnippet.Part, digestSnippet.File, digestSnippet.FirstLine);

    /// <summary>
    /// The C# of one digest, placed by figure: per line, its code spans joined (one snippet, so a name that one
    /// span declares is known in the next), and fenced C# blocks. A snippet's part is the figure id whose entry it
    /// is in (N10-J03), or the digest's prefix outside entries.
    /// </summary>
    public static IEnumerable<Snippet> DigestCode(string fileName, string text)
    {
        var lines = text.ReplaceLineEndings("\n").Split('\n');
        var prefix = DigestEntries.Prefixes.GetValueOrDefault(fileName, fileName);
        var figure = prefix;
        string? fence = null;
        var fenceStart = 0;
        for (var i = 0; i < lines.Length; i++)
        {
            var line = lines[i];
            if (line.TrimStart().StartsWith("```", StringComparison.Ordinal))
            {
                if (fence is null)
                {
                    fence = line.TrimStart()[3..].Trim();
                    fenceStart = i + 1;
                }
                else
                {
                    if (fence is "csharp" or "cs" or "c#")
                    {
                        yield return new Snippet(fileName, figure, string.Join('\n', lines[fenceStart..i]), fenceStart + 1, SourceCodeKind.Script);
                    }

                    fence = null;
                }

                continue;
            }

            if (fence is not null)
            {
                continue;
            }

            if (DigestEntries.Starting(prefix, line) is { Count: > 0 } ids)
            {
                figure = string.Join('/', ids);
            }
            else if (DigestEntries.Ends(line))
            {
                figure = prefix;
            }

            var spans = CodeSpan().Matches(line).Select(m => m.Groups["code"].Value.Trim()).ToList();
            if (spans.Count > 0)
            {
                yield return new Snippet(fileName, figure, string.Join('\n', spans), i + 1, SourceCodeKind.Script);
            }
        }
    }

    /// <summary>The course's C#: the notebooks' code cells and every .cs file of notebooks, helpers, tests, bench, samples and data/reference.</summary>
    public static IEnumerable<Snippet> CourseCode(string root)
    {
        static bool Built(string path) =>
            path.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
            || path.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal);

        IEnumerable<string> Files(string pattern) =>
            new[] { CourseRepository.NotebooksFolder, CourseRepository.HelpersFolder, "tests", "bench", CourseRepository.SamplesFolder, "data/reference" }
                .Select(folder => CourseRepository.PathOf(folder, root))
                .Where(Directory.Exists)
                .SelectMany(folder => Directory.EnumerateFiles(folder, pattern, SearchOption.AllDirectories))
                .Where(path => !Built(path))
                .Order(StringComparer.Ordinal);

        static string Relative(string root, string path) => Path.GetRelativePath(root, path).Replace('\\', '/');

        foreach (var notebook in Files("*.ipynb"))
        {
            var cells = JsonNode.Parse(File.ReadAllText(notebook))!["cells"]!.AsArray();
            for (var i = 0; i < cells.Count; i++)
            {
                if ((string?)cells[i]!["cell_type"] == "code")
                {
                    var source = cells[i]!["source"];
                    var text = source is JsonArray lines ? string.Concat(lines.Select(l => (string?)l)) : (string?)source ?? "";
                    yield return new Snippet(Relative(root, notebook), $"cell {i}", text, 1, SourceCodeKind.Script);
                }
            }
        }

        foreach (var path in Files("*.cs"))
        {
            yield return new Snippet(Relative(root, path), "", File.ReadAllText(path), 1, SourceCodeKind.Regular);
        }
    }

    private static SyntaxNode Parse(Snippet snippet) =>
        CSharpSyntaxTree.ParseText(snippet.Text, Options(snippet.Kind)).GetRoot();

    private static CSharpParseOptions Options(SourceCodeKind kind) =>
        CSharpParseOptions.Default.WithLanguageVersion(LanguageVersion.Preview).WithKind(kind);

    // The lexer's tokens (the parser's would merge `>>` and drop what a fragment cannot parse), names replaced.
    private static List<Token> Normalize(Snippet snippet, SyntaxNode root)
    {
        var declared = Declared(root);
        var tokens = new List<Token>();
        var line = snippet.FirstLine;
        var last = 0;
        foreach (var token in SyntaxFactory.ParseTokens(snippet.Text, options: Options(snippet.Kind)))
        {
            if (token.IsKind(SyntaxKind.EndOfFileToken))
            {
                break;
            }

            line += snippet.Text.AsSpan(last, token.SpanStart - last).Count('\n');
            last = token.SpanStart;
            var text = token.IsKind(SyntaxKind.IdentifierToken) ? NameOrApi(token.ValueText, declared) : token.Text;
            tokens.Add(new Token(text, line, token.SpanStart, token.Span.End));
        }

        return tokens;
    }

    private static string NameOrApi(string identifier, HashSet<string> declared) =>
        !declared.Contains(identifier) && (SyntaxFacts.GetContextualKeywordKind(identifier) != SyntaxKind.None || ApiNames.Contains(identifier))
            ? identifier
            : Name;

    // The names the text declares (types, members, parameters, locals, type parameters, range and pattern
    // variables, labels): an identifier token is a declaration's own unless it sits in a name that refers.
    private static HashSet<string> Declared(SyntaxNode root)
    {
        var declared = new HashSet<string>(StringComparer.Ordinal);
        foreach (var token in root.DescendantTokens())
        {
            if (token.IsKind(SyntaxKind.IdentifierToken) && token.Parent is not (SimpleNameSyntax or null))
            {
                declared.Add(token.ValueText);
            }
        }

        return declared;
    }

    // The contents of the snippet's verbatim, raw and interpolated string literals that span lines, each a
    // snippet (parsed as script, as a benchmark source or a cell would be) with its interpolations blanked.
    private static IEnumerable<Snippet> StringContents(Snippet snippet, SyntaxNode root)
    {
        foreach (var node in root.DescendantNodes())
        {
            var (content, holes) = node switch
            {
                LiteralExpressionSyntax { Token: var literal } when literal.IsKind(SyntaxKind.StringLiteralToken) || literal.IsKind(SyntaxKind.MultiLineRawStringLiteralToken) =>
                    (Inside(literal), []),
                InterpolatedStringExpressionSyntax interpolated =>
                    (TextSpan.FromBounds(interpolated.StringStartToken.Span.End, interpolated.StringEndToken.SpanStart),
                        interpolated.Contents.OfType<InterpolationSyntax>().Select(i => i.Span).ToList()),
                _ => (default(TextSpan), new List<TextSpan>()),
            };
            if (content.IsEmpty || !snippet.Text.AsSpan(content.Start, content.Length).Contains('\n'))
            {
                continue;
            }

            var text = snippet.Text.ToCharArray(content.Start, content.Length);
            foreach (var hole in holes)
            {
                for (var c = hole.Start; c < hole.End; c++)
                {
                    text[c - content.Start] = text[c - content.Start] == '\n' ? '\n' : ' ';
                }
            }

            var firstLine = snippet.FirstLine + snippet.Text.AsSpan(0, content.Start).Count('\n');
            yield return snippet with { Text = new string(text), FirstLine = firstLine, Kind = SourceCodeKind.Script };
        }
    }

    // A string literal's text inside its quotes (a raw literal's: between its opening and closing lines).
    private static TextSpan Inside(SyntaxToken literal)
    {
        var text = literal.Text;
        var raw = text.StartsWith("\"\"\"", StringComparison.Ordinal);
        var open = raw ? text.IndexOf('\n') + 1 : text.IndexOf('"') + 1;
        var close = raw ? text.LastIndexOf('\n') : text.LastIndexOf('"');
        return open > 0 && close > open ? TextSpan.FromBounds(literal.SpanStart + open, literal.SpanStart + close) : default;
    }

    // The text from a run's first token to its last, whitespace (line ends too) folded to one space.
    private static string Excerpt(string text, List<Token> run) =>
        Whitespace().Replace(text[run[0].Start..run[^1].End], " ");

    private static FrozenSet<string> LoadApiNames()
    {
        var names = new HashSet<string>(ApiTypeNames, StringComparer.Ordinal);
        foreach (var type in ApiLibraries().SelectMany(a => a.GetExportedTypes()))
        {
            foreach (var member in type.GetMembers(BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly))
            {
                if (member is not MethodBase { IsSpecialName: true })
                {
                    names.Add(member.Name);
                }
            }
        }

        return names.ToFrozenSet(StringComparer.Ordinal);
    }

    private static FrozenSet<string> LoadApiTypeNames()
    {
        var names = new HashSet<string>(StringComparer.Ordinal);
        foreach (var type in ApiLibraries().SelectMany(a => a.GetExportedTypes()))
        {
            var typeName = type.Name.Split('`')[0];
            names.Add(typeName);
            names.UnionWith(type.Namespace?.Split('.') ?? []);
            if (typeof(Attribute).IsAssignableFrom(type) && typeName.EndsWith("Attribute", StringComparison.Ordinal))
            {
                names.Add(typeName[..^"Attribute".Length]);
            }
        }

        return names.ToFrozenSet(StringComparer.Ordinal);
    }

    private static IEnumerable<Assembly> ApiLibraries()
    {
        Assembly[] libraries =
        [
            typeof(object).Assembly, typeof(Enumerable).Assembly, typeof(System.Collections.BitArray).Assembly,
            typeof(ConcurrentDictionary<,>).Assembly, typeof(FrozenSet).Assembly, typeof(Regex).Assembly,
            typeof(BenchmarkAttribute).Assembly,
        ];
        return libraries.Distinct();
    }

    // A code span in a markdown line: one or more backticks, the code, as many backticks.
    [GeneratedRegex(@"(?<!`)(?<ticks>`+)(?!`)(?<code>.+?)(?<!`)\k<ticks>(?!`)")]
    private static partial Regex CodeSpan();

    [GeneratedRegex(@"\s+")]
    private static partial Regex Whitespace();

    [GeneratedRegex(@"^lines (?<first>\d+)-(?<last>\d+)$")]
    private static partial Regex LineRange();
}
