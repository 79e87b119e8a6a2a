using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace PerfLab.Notebooks.Execution;

/// <summary>The two halves of a cell, each the cell's own length with the other half blanked.</summary>
/// <param name="Declarations">The using directives and type declarations (script-only directives blanked): a regular C# file.</param>
/// <param name="Statements">The using directives, statements and script directives (type declarations blanked): the script part.</param>
/// <param name="TypeNames">The types declared at the top level, by name (those inside a namespace with it: Ns.Name).</param>
/// <param name="UsesGeneratedRegex">A declared type carries a [GeneratedRegex] attribute.</param>
internal sealed record CellParts(string Declarations, string Statements, IReadOnlyList<string> TypeNames, bool UsesGeneratedRegex);

/// <summary>
/// Turns a benchmark cell (C# script: a class, then a call that runs it) into the regular C# file the
/// benchmark compiler builds for each runtime: the cell's using directives and type declarations stay,
/// statements and script-only directives become blank. Every kept character stays on its line and
/// column, so compiler errors point at the cell's own lines. The kernel splits a [GeneratedRegex] cell
/// the same way (<see cref="Split"/>): declarations as a library, statements as the script.
/// </summary>
internal static class BenchmarkCell
{
    /// <summary>The compilable part of <paramref name="cellSource"/>.</summary>
    /// <param name="cellSource">The whole cell.</param>
    /// <param name="typeName">The class the cell runs; it must be declared in the cell.</param>
    /// <param name="cellName">How messages name the cell.</param>
    /// <exception cref="PerfLabException">The cell does not declare <paramref name="typeName"/>.</exception>
    public static string Extract(string cellSource, string typeName, string cellName) =>
        TryExtract(cellSource, typeName) ?? throw new PerfLabException(
            $"The class {typeName} is not declared in this cell ({cellName}), nor in an earlier cell that ran it with Lab.",
            $"Lab compiles the text of the cell that declares the class for each runtime. Move `class {typeName}` into this cell, or run the cell that declares it (with Lab.RunAsync or Lab.AsmAsync) first.");

    /// <summary>The compilable part of <paramref name="cellSource"/>, or null when it does not declare <paramref name="typeName"/>.</summary>
    /// <param name="cellSource">The whole cell.</param>
    /// <param name="typeName">The class looked for.</param>
    public static string? TryExtract(string cellSource, string typeName)
    {
        var parts = Split(cellSource);
        return parts.TypeNames.Contains(typeName, StringComparer.Ordinal) ? parts.Declarations : null;
    }

    /// <summary>Splits <paramref name="cellSource"/> into its declarations and its statements, positions kept.</summary>
    /// <param name="cellSource">The whole cell.</param>
    public static CellParts Split(string cellSource)
    {
        ArgumentNullException.ThrowIfNull(cellSource);
        var tree = CSharpSyntaxTree.ParseText(cellSource, CSharpParseOptions.Default.WithKind(SourceCodeKind.Script).WithLanguageVersion(LanguageVersion.Latest));
        var root = (CompilationUnitSyntax)tree.GetRoot();
        var declarations = new bool[cellSource.Length];
        var statements = Enumerable.Repeat(true, cellSource.Length).ToArray();
        static void Set(bool[] mask, TextSpan span, bool value)
        {
            for (var i = span.Start; i < span.End; i++)
            {
                mask[i] = value;
            }
        }

        foreach (var directive in root.Usings)
        {
            Set(declarations, directive.Span, true);
        }

        var declared = new List<string>();
        var usesGeneratedRegex = false;
        foreach (var member in root.Members)
        {
            if (member is BaseTypeDeclarationSyntax or DelegateDeclarationSyntax or BaseNamespaceDeclarationSyntax)
            {
                Set(declarations, member.FullSpan, true);
                Set(statements, member.FullSpan, false);
                usesGeneratedRegex |= member.DescendantNodes().OfType<AttributeSyntax>().Any(IsGeneratedRegex);
                if (member is BaseTypeDeclarationSyntax type)
                {
                    declared.Add(type.Identifier.ValueText);
                }
                else if (member is BaseNamespaceDeclarationSyntax ns)
                {
                    declared.AddRange(ns.DescendantNodes().OfType<BaseTypeDeclarationSyntax>()
                        .Where(t => t.Parent is BaseNamespaceDeclarationSyntax)
                        .Select(t => ((BaseNamespaceDeclarationSyntax)t.Parent!).Name + "." + t.Identifier.ValueText));
                }
            }
        }

        // #r and #load are script-only: they must not reach the regular compile, and stay in the script.
        foreach (var trivia in root.DescendantTrivia().Where(t => t.IsKind(SyntaxKind.ReferenceDirectiveTrivia) || t.IsKind(SyntaxKind.LoadDirectiveTrivia) || t.IsKind(SyntaxKind.ShebangDirectiveTrivia)))
        {
            Set(declarations, trivia.FullSpan, false);
            Set(statements, trivia.FullSpan, true);
        }

        return new CellParts(Blank(cellSource, declarations), Blank(cellSource, statements), declared, usesGeneratedRegex);
    }

    // [GeneratedRegex], [GeneratedRegexAttribute], qualified or not.
    private static bool IsGeneratedRegex(AttributeSyntax attribute)
    {
        var name = attribute.Name switch
        {
            QualifiedNameSyntax q => q.Right.Identifier.ValueText,
            AliasQualifiedNameSyntax a => a.Name.Identifier.ValueText,
            SimpleNameSyntax n => n.Identifier.ValueText,
            _ => "",
        };
        return name is "GeneratedRegex" or "GeneratedRegexAttribute";
    }

    // Whatever is not kept becomes a space; line breaks always stay, so lines and columns do not move.
    private static string Blank(string text, bool[] keep)
    {
        var chars = text.ToCharArray();
        for (var i = 0; i < chars.Length; i++)
        {
            if (!keep[i] && chars[i] is not ('\n' or '\r'))
            {
                chars[i] = ' ';
            }
        }

        return new string(chars);
    }
}
