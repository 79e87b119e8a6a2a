using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Scripting;

namespace PerfLab.Notebooks.Execution;

/// <summary>Completion candidates and the span of text they replace.</summary>
/// <param name="Matches">Names, sorted, without duplicates.</param>
/// <param name="Start">Start of the replaced span.</param>
/// <param name="End">End of the replaced span (the cursor).</param>
public sealed record Completions(IReadOnlyList<string> Matches, int Start, int End);

/// <summary>Completion from the compiler's own view of the cell: members after a dot, names in scope elsewhere.</summary>
internal static class Completer
{
    public static Completions Complete(Script script, string code, int cursor, CancellationToken cancellationToken)
    {
        cursor = Math.Clamp(cursor, 0, code.Length);
        var start = cursor;
        while (start > 0 && (char.IsLetterOrDigit(code[start - 1]) || code[start - 1] == '_'))
        {
            start--;
        }

        var prefix = code[start..cursor];
        var compilation = script.GetCompilation();
        var tree = compilation.SyntaxTrees.Last();
        var model = compilation.GetSemanticModel(tree);
        var root = tree.GetRoot(cancellationToken);

        IEnumerable<ISymbol> symbols;
        var dot = start > 0 ? root.FindToken(start - 1) : default;
        if (dot.IsKind(SyntaxKind.DotToken) && dot.Parent is MemberAccessExpressionSyntax access)
        {
            var target = model.GetSymbolInfo(access.Expression, cancellationToken).Symbol;
            var type = target as ITypeSymbol ?? model.GetTypeInfo(access.Expression, cancellationToken).Type;
            var staticOnly = target is ITypeSymbol;
            symbols = type is null ? [] : model.LookupSymbols(start, type, includeReducedExtensionMethods: !staticOnly)
                .Where(s => !staticOnly || s.IsStatic || s is ITypeSymbol);
        }
        else
        {
            symbols = model.LookupSymbols(start);
        }

        var names = symbols
            .Where(s => s.CanBeReferencedByName && !s.IsImplicitlyDeclared && s.Name.StartsWith(prefix, StringComparison.OrdinalIgnoreCase))
            .Select(s => s.Name)
            .Distinct(StringComparer.Ordinal)
            .Order(StringComparer.OrdinalIgnoreCase)
            .ToArray();
        return new Completions(names, start, cursor);
    }
}
