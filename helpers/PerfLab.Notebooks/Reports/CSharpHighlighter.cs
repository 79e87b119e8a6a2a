using System.Net;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace PerfLab.Notebooks.Reports;

/// <summary>
/// C# cell source as HTML with syntax colors, from Roslyn's tokens and trivia (parsed as a script,
/// as the kernel runs it). Pure syntax: no compilation, so a type name is only marked where the
/// syntax alone says it is one (declarations, `new T`, type positions, attributes).
/// </summary>
internal static class CSharpHighlighter
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

    /// <summary>The source as HTML-encoded text with span elements around colored tokens; the text itself is unchanged.</summary>
    /// <param name="source">C# as written in the cell.</param>
    public static string ToHtml(string source)
    {
        ArgumentNullException.ThrowIfNull(source);
        var root = CSharpSyntaxTree.ParseText(source, Options).GetRoot();
        var html = new StringBuilder(source.Length * 2);
        foreach (var token in root.DescendantTokens(descendIntoTrivia: false))
        {
            AppendTrivia(html, token.LeadingTrivia);
            Append(html, token.Text, ClassOf(token));
            AppendTrivia(html, token.TrailingTrivia);
        }

        return html.ToString();
    }

    private static void AppendTrivia(StringBuilder html, SyntaxTriviaList trivia)
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
            Append(html, item.ToFullString(), cssClass);
        }
    }

    private static void Append(StringBuilder html, string text, string? cssClass)
    {
        if (text.Length == 0)
        {
            return;
        }

        if (cssClass is null)
        {
            html.Append(WebUtility.HtmlEncode(text));
        }
        else
        {
            html.Append("<span class=\"").Append(cssClass).Append("\">").Append(WebUtility.HtmlEncode(text)).Append("</span>");
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
