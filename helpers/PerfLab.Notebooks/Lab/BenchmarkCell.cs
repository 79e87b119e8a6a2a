using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace PerfLab.Notebooks;

/// <summary>
/// Turns a benchmark cell (C# script: a class, then a call that runs it) into the regular C# file the
/// benchmark compiler builds for each runtime: the cell's using directives and type declarations stay,
/// statements and script-only directives become blank. Every kept character stays on its line and
/// column, so compiler errors point at the cell's own lines.
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
        ArgumentNullException.ThrowIfNull(cellSource);
        var tree = CSharpSyntaxTree.ParseText(cellSource, CSharpParseOptions.Default.WithKind(SourceCodeKind.Script).WithLanguageVersion(LanguageVersion.Latest));
        var root = (CompilationUnitSyntax)tree.GetRoot();
        var keep = new bool[cellSource.Length];
        void Keep(TextSpan span)
        {
            for (var i = span.Start; i < span.End; i++)
            {
                keep[i] = true;
            }
        }

        foreach (var directive in root.Usings)
        {
            Keep(directive.Span);
        }

        var declared = new List<string>();
        foreach (var member in root.Members)
        {
            if (member is BaseTypeDeclarationSyntax or DelegateDeclarationSyntax or BaseNamespaceDeclarationSyntax)
            {
                Keep(member.FullSpan);
                if (member is BaseTypeDeclarationSyntax type)
                {
                    declared.Add(type.Identifier.ValueText);
                }
            }
        }

        // #r and #load are script-only: they must not reach the regular compile.
        foreach (var trivia in root.DescendantTrivia().Where(t => t.IsKind(SyntaxKind.ReferenceDirectiveTrivia) || t.IsKind(SyntaxKind.LoadDirectiveTrivia) || t.IsKind(SyntaxKind.ShebangDirectiveTrivia)))
        {
            for (var i = trivia.FullSpan.Start; i < trivia.FullSpan.End; i++)
            {
                keep[i] = false;
            }
        }

        if (!declared.Contains(typeName, StringComparer.Ordinal))
        {
            return null;
        }

        var text = cellSource.ToCharArray();
        for (var i = 0; i < text.Length; i++)
        {
            if (!keep[i] && text[i] is not ('\n' or '\r'))
            {
                text[i] = ' ';
            }
        }

        return new string(text);
    }
}
