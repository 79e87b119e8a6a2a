using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using static PerfLab.Views.Html.HtmlText;

namespace PerfLab.Views.Html;

/// <summary>
/// C# as HTML with syntax colors, from Roslyn's tokens and trivia (parsed as a script, as the kernel
/// runs a cell; a script also takes a lone method or a whole file). Pure syntax: no compilation, so a
/// type name is only marked where the syntax alone says it is one (declarations, `new T`, type
/// positions, attributes). Used by the notebook reports (cells) and the regex source view (generated code).
/// </summary>
public static class CSharpHighlighter
{
    private static readonly CSharpParseOptions Options = CSharpParseOptions.Default
        .WithKind(SourceCodeKind.Script)
        .WithLanguageVersion(LanguageVersion.Preview);

    /// <summary>Keywords, contextual ones included where the parser reads them as keywords (and `var`).</summary>
    public const string KeywordClass = "kw";

    /// <summary>String and character literals, including interpolated and raw strings.</summary>
    public const string StringClass = "str";

    /// <summary>Numeric literals.</summary>
    public const string NumberClass = "num";

    /// <summary>Comments, including documentation comments.</summary>
    public const string CommentClass = "com";

    /// <summary>Preprocessor directives: #r, #load, #if, #region...</summary>
    public const string DirectiveClass = "dir";

    /// <summary>Identifiers the syntax shows to be type names.</summary>
    public const string TypeClass = "typ";

    /// <summary>Code inside an inactive #if branch.</summary>
    public const string DisabledClass = "dis";

    /// <summary>
    /// The colors of the classes above for elements under <paramref name="scope"/>: a page's own
    /// --kw, --str... variables when it defines them (the notebook report, light and dark), else GitHub's light palette.
    /// </summary>
    /// <param name="scope">A CSS selector, e.g. "pre.source": outputs bring their own classes (the results table uses "num").</param>
    public static string Css(string scope) =>
        $"{scope} .kw {{ color: var(--kw, #cf222e); }} {scope} .str {{ color: var(--str, #0a3069); }} {scope} .num {{ color: var(--num, #0550ae); }}\n"
        + $"{scope} .com {{ color: var(--com, #6e7781); font-style: italic; }} {scope} .dir {{ color: var(--dir, #8250df); }} {scope} .typ {{ color: var(--typ, #953800); }}\n"
        + $"{scope} .dis {{ color: var(--dis, #8c959f); }}\n";

    /// <summary>The source as HTML-encoded text with span elements around colored tokens; the text itself is unchanged.</summary>
    /// <param name="source">C# as written in the cell.</param>
    public static string ToHtml(string source) => Highlight(source, splitLines: false);

    /// <summary>
    /// The source's lines (split at \n) as HTML, each complete in itself: a span never runs from one line
    /// into the next, so lines can be laid out one per table row (the side-by-side views).
    /// </summary>
    /// <param name="source">C# with \n line ends.</param>
    public static IReadOnlyList<string> ToHtmlLines(string source) => Highlight(source, splitLines: true).Split('\n');

    private static string Highlight(string source, bool splitLines)
    {
        ArgumentNullException.ThrowIfNull(source);
        var root = CSharpSyntaxTree.ParseText(source, Options).GetRoot();
        var html = new StringBuilder(source.Length * 2);
        foreach (var token in root.DescendantTokens(descendIntoTrivia: false))
        {
            AppendTrivia(html, token.LeadingTrivia, splitLines);
            Append(html, token.Text, ClassOf(token), splitLines);
            AppendTrivia(html, token.TrailingTrivia, splitLines);
        }

        return html.ToString();
    }

    private static void AppendTrivia(StringBuilder html, SyntaxTriviaList trivia, bool splitLines)
    {
        foreach (var item in trivia)
        {
            // Structured trivia (directives, doc comments) keep their own text, newline included.
            var cssClass = item.Kind() switch
            {
                SyntaxKind.SingleLineCommentTrivia or SyntaxKind.MultiLineCommentTrivia
                    or SyntaxKind.SingleLineDocumentationCommentTrivia or SyntaxKind.MultiLineDocumentationCommentTrivia => CommentClass,
                SyntaxKind.DisabledTextTrivia => DisabledClass,
                _ when item.IsDirective => DirectiveClass,
                _ => null,
            };
            Append(html, item.ToFullString(), cssClass, splitLines);
        }
    }

    private static void Append(StringBuilder html, string text, string? cssClass, bool splitLines)
    {
        if (text.Length == 0)
        {
            return;
        }

        // A doc comment, a raw string or a directive with its newline: one span per line.
        if (splitLines && cssClass is not null && text.IndexOf('\n', StringComparison.Ordinal) is var newline and >= 0)
        {
            Append(html, text[..newline], cssClass, splitLines: false);
            html.Append('\n');
            Append(html, text[(newline + 1)..], cssClass, splitLines);
            return;
        }

        if (cssClass is null)
        {
            html.Append(Escape(text));
        }
        else
        {
            html.Append("<span class=\"").Append(cssClass).Append("\">").Append(Escape(text)).Append("</span>");
        }
    }

    private static string? ClassOf(SyntaxToken token)
    {
        var kind = token.Kind();
        if (SyntaxFacts.IsKeywordKind(kind))
        {
            return KeywordClass;
        }

        return kind switch
        {
            SyntaxKind.NumericLiteralToken => NumberClass,
            SyntaxKind.StringLiteralToken or SyntaxKind.CharacterLiteralToken or SyntaxKind.Utf8StringLiteralToken
                or SyntaxKind.SingleLineRawStringLiteralToken or SyntaxKind.MultiLineRawStringLiteralToken
                or SyntaxKind.Utf8SingleLineRawStringLiteralToken or SyntaxKind.Utf8MultiLineRawStringLiteralToken
                or SyntaxKind.InterpolatedStringStartToken or SyntaxKind.InterpolatedVerbatimStringStartToken
                or SyntaxKind.InterpolatedSingleLineRawStringStartToken or SyntaxKind.InterpolatedMultiLineRawStringStartToken
                or SyntaxKind.InterpolatedStringTextToken or SyntaxKind.InterpolatedStringEndToken
                or SyntaxKind.InterpolatedRawStringEndToken => StringClass,
            SyntaxKind.IdentifierToken => IdentifierClass(token),
            _ => null,
        };
    }

    private static string? IdentifierClass(SyntaxToken token)
    {
        switch (token.Parent)
        {
            // The name a type declaration introduces.
            case BaseTypeDeclarationSyntax or DelegateDeclarationSyntax or TypeParameterSyntax:
                return TypeClass;

            case SimpleNameSyntax name:
                if (name is IdentifierNameSyntax { IsVar: true } && SyntaxFacts.IsInTypeOnlyContext(name))
                {
                    return KeywordClass;
                }

                // In `System.Text.StringBuilder` only the last part is the type; the rest are namespaces.
                ExpressionSyntax whole = name;
                while (whole.Parent is QualifiedNameSyntax qualified)
                {
                    if (qualified.Right != whole)
                    {
                        return null;
                    }

                    whole = qualified;
                }

                if (whole.Parent is AttributeSyntax)
                {
                    return TypeClass;
                }

                return SyntaxFacts.IsInTypeOnlyContext(whole) ? TypeClass : null;

            default:
                return null;
        }
    }
}
