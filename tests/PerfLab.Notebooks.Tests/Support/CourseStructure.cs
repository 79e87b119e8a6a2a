using System.Text;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PerfLab.Contract;
using PerfLab.Notebooks.Documents;
using PerfLab.Results;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// The course's skeleton, checked on a notebook's text: the kinds of loss a rewrite has caused before (an exercise
/// section deleted, a taught section deleted while "You will learn" still promises it, a figure id measured before
/// the prose introduces it, a figure category that matches none of the post's rows, a cell that only works after
/// another, far earlier one ran). Each check returns one message per problem, naming the notebook and cell.
/// </summary>
public static partial class CourseStructure
{
    /// <summary>Problems with the notebook's exercise section: it must have a "## Exercise" heading, a task, and code.</summary>
    public static IEnumerable<string> ExerciseSection(NotebookDocument notebook, string name)
    {
        var heading = notebook.Cells.FirstOrDefault(c => c.Kind == CellKind.Markdown && Headings(c.Source).Any(h => h.StartsWith("Exercise", StringComparison.OrdinalIgnoreCase)));
        if (heading is null)
        {
            yield return $"{name} has no \"## Exercise\" section: every notebook ends its lessons with one (a task, a code cell, a check cell).";
            yield break;
        }

        var task = Section(heading.Source, "Exercise");
        if (task.Trim().Length < 80)
        {
            yield return $"{name} {heading.Name}: the exercise heading is not followed by its task (what to change, and what must stay the same).";
        }

        if (ExerciseSections.CodeCells(notebook).Count == 0)
        {
            yield return $"{name} {heading.Name}: the exercise section has no code cell for the reader to change.";
        }
    }

    /// <summary>
    /// "You will learn" items that no heading ("##" or "###") teaches: an item shares at least one word with a heading (words of
    /// the notebook's topic, such as "collections" in notebooks/collections, and common words do not count); an item
    /// about the exercise needs the exercise section.
    /// </summary>
    public static IEnumerable<string> LearnedItems(NotebookDocument notebook, string name, string topic)
    {
        var intro = notebook.Cells.FirstOrDefault(c => c.Kind == CellKind.Markdown)?.Source ?? "";
        var items = LearnItems(intro);
        if (items.Count == 0)
        {
            yield return $"{name}: the first cell has no \"**You will learn**\" list.";
            yield break;
        }

        var ignored = new HashSet<string>(StringComparer.Ordinal) { Stem(topic), Stem(topic.TrimEnd('s')) };
        var headings = notebook.Cells.Where(c => c.Kind == CellKind.Markdown).Skip(1)
            .SelectMany(c => Headings(c.Source, "## ").Concat(Headings(c.Source, "### ")))
            .Where(h => !h.StartsWith("Load the helpers", StringComparison.Ordinal) && !h.StartsWith("Summary", StringComparison.Ordinal))
            .ToArray();
        foreach (var item in items)
        {
            var words = Words(item).Except(ignored).ToHashSet(StringComparer.Ordinal);
            if (words.Contains(Stem("exercise")))
            {
                if (!headings.Any(h => h.StartsWith("Exercise", StringComparison.OrdinalIgnoreCase)))
                {
                    yield return $"{name}: \"You will learn\" promises an exercise (\"{Short(item)}\"), and no \"## Exercise\" heading follows.";
                }

                continue;
            }

            if (!headings.Where(h => !h.StartsWith("Exercise", StringComparison.OrdinalIgnoreCase)).Any(h => Words(h).Overlaps(words)))
            {
                yield return $"{name}: \"You will learn\" promises \"{Short(item)}\", and no heading names any of its words ({string.Join(", ", words.Order(StringComparer.Ordinal))}): restore the section that teaches it, or drop the promise.";
            }
        }
    }

    /// <summary>Figure ids a benchmark cell names in [BenchmarkCategory] that no markdown before it mentions (the first cell's list of what you will learn does not count).</summary>
    public static IEnumerable<string> FiguresIntroduced(NotebookDocument notebook, string name)
    {
        var prose = new StringBuilder();
        foreach (var cell in notebook.Cells.Skip(1))
        {
            if (cell.Kind == CellKind.Markdown)
            {
                prose.AppendLine(cell.Source);
                continue;
            }

            foreach (var id in CategoryIds(cell.Source).Distinct(StringComparer.Ordinal).Where(id => !MentionsFigure(prose.ToString(), id)))
            {
                yield return $"{name} {cell.Name} measures {id}, and no prose before it introduces the figure: say what the post measured (the figure, its PR, its numbers) before the cell.";
            }
        }
    }

    /// <summary>
    /// Benchmark methods whose [BenchmarkCategory] names a figure of <paramref name="figures"/> with ratios, where no
    /// row of the post's tables matches the method (by name, the explicit "ID:Row", a one-method figure, or the
    /// baseline pair) with the case's parameters: the reader would see no "Published" line, and the fidelity report
    /// would pair the case with nothing.
    /// </summary>
    public static IEnumerable<string> FigureRowsMatched(NotebookDocument notebook, string name, PublishedFigures.Catalog figures)
    {
        foreach (var cell in notebook.Cells.Where(c => c.Kind == CellKind.Code && c.Source.Contains("[Benchmark", StringComparison.Ordinal)))
        {
            var root = Parse(cell.Source);
            foreach (var type in root.DescendantNodes().OfType<ClassDeclarationSyntax>())
            {
                var classCategories = Categories(type.AttributeLists);
                var parameterSets = ParamsCombinations(type);
                foreach (var method in type.Members.OfType<MethodDeclarationSyntax>().Where(m => HasAttribute(m.AttributeLists, "Benchmark")))
                {
                    var categories = Categories(method.AttributeLists).Concat(classCategories).ToArray();
                    if (categories.Length == 0)
                    {
                        continue;
                    }

                    var isBaseline = method.AttributeLists.SelectMany(l => l.Attributes).Any(a => Named(a, "Benchmark") && a.ArgumentList?.Arguments.Any(x => x.ToString().Replace(" ", "", StringComparison.Ordinal) == "Baseline=true") == true);
                    foreach (var parameters in Cases(parameterSets, method))
                    {
                        var comparison = PublishedFigures.Find(figures, categories, method.Identifier.Text, parameters, isBaseline);
                        if (comparison is { Kind: not "asm", After: null })
                        {
                            var shown = parameters.Count == 0 ? "" : "(" + string.Join(", ", parameters.Select(p => $"{p.Name}={p.Value}")) + ")";
                            yield return $"{name} {cell.Name}: {type.Identifier.Text}.{method.Identifier.Text}{shown} names {comparison.Id}, and no row of the post's tables matches it: name the post's row on the method ([BenchmarkCategory(\"{comparison.Id}:Method\")]) or match its parameters.";
                        }
                    }
                }
            }
        }
    }

    /// <summary>
    /// Code cells that use a variable declared at the top level of an earlier code cell other than the code cell just
    /// before them (the setup cell's excepted): after a kernel restart, running the section alone fails with CS0103.
    /// </summary>
    public static IEnumerable<string> HiddenState(NotebookDocument notebook, string name)
    {
        var code = notebook.Cells.Where(c => c.Kind == CellKind.Code).ToArray();
        var declaredIn = new Dictionary<string, NotebookCell>(StringComparer.Ordinal);
        for (var i = 0; i < code.Length; i++)
        {
            var root = Parse(code[i].Source);
            var own = TopLevelVariables(root).ToHashSet(StringComparer.Ordinal);
            var previous = i > 0 ? code[i - 1] : null;
            var used = root.DescendantNodes().OfType<IdentifierNameSyntax>()
                .Where(n => n.Parent is not MemberAccessExpressionSyntax access || access.Expression == n)
                .Select(n => n.Identifier.Text)
                .Distinct(StringComparer.Ordinal);
            foreach (var variable in used.Where(v => !own.Contains(v)))
            {
                if (declaredIn.TryGetValue(variable, out var origin) && origin != previous && origin != code[0])
                {
                    yield return $"{name} {code[i].Name} uses `{variable}`, declared in {origin.Name}: after a kernel restart the cell fails until that cell runs again. Declare what the cell needs in the cell (or in the code cell just before it).";
                }
            }

            foreach (var variable in own)
            {
                declaredIn[variable] = code[i];
            }
        }
    }

    /// <summary>
    /// Measurement notes blocks that sit under the next section's heading or after its "Before you run it" prompt: notes
    /// on a result belong to the section that ran it, before the next "## " heading.
    /// </summary>
    public static IEnumerable<string> NotesPlacement(NotebookDocument notebook, string name)
    {
        foreach (var cell in notebook.Cells.Where(c => c.Kind == CellKind.Markdown))
        {
            var lines = cell.Source.ReplaceLineEndings("\n").Split('\n');
            for (var i = 0; i < lines.Length; i++)
            {
                if (lines[i] != "<details>")
                {
                    continue;
                }

                var above = lines[..i];
                var heading = Array.FindLastIndex(above, l => l.StartsWith("## ", StringComparison.Ordinal));
                if (Array.FindLastIndex(above, l => l.StartsWith("> Before you run", StringComparison.Ordinal)) > heading)
                {
                    yield return $"{name} {cell.Name}: a measurement notes block follows a \"Before you run it\" prompt: move it before the section's heading \"{(heading >= 0 ? lines[heading] : "")}\", to the section whose results it discusses.";
                }
            }
        }
    }

    /// <summary>The most teaching prose a notebook may hold: what a reader reads in one sitting, with notes folded.</summary>
    public const int TeachingProseLimit = 16_000;

    /// <summary>
    /// A notebook whose teaching prose is over <see cref="TeachingProseLimit"/> characters: its Markdown cells without
    /// measurement notes (<c>&lt;details&gt;</c> blocks), tables, fenced code and HTML comments, which a reader skips or
    /// opens on purpose.
    /// </summary>
    public static IEnumerable<string> TeachingProse(NotebookDocument notebook, string name)
    {
        var length = notebook.Cells.Where(c => c.Kind == CellKind.Markdown).Sum(c => TeachingText(c.Source).Length);
        if (length > TeachingProseLimit)
        {
            yield return string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{name}: {length:N0} characters of teaching prose, over {TeachingProseLimit:N0}: move what is about measuring into the sections' measurement notes, or say it shorter.");
        }
    }

    private static string TeachingText(string markdown)
    {
        var text = SkippedBlocks().Replace(markdown.ReplaceLineEndings("\n"), "");
        return string.Join("\n", text.Split('\n').Where(l => !l.TrimStart().StartsWith('|')));
    }

    [GeneratedRegex(@"<details>.*?</details>|```.*?```|<!--.*?-->", RegexOptions.Singleline)]
    private static partial Regex SkippedBlocks();

    private static CompilationUnitSyntax Parse(string source) =>
        (CompilationUnitSyntax)CSharpSyntaxTree.ParseText(source, CSharpParseOptions.Default.WithKind(SourceCodeKind.Script).WithLanguageVersion(LanguageVersion.Latest)).GetRoot();

    // A script's top-level "var x = ...;" parses as a field of the submission.
    private static IEnumerable<string> TopLevelVariables(CompilationUnitSyntax root) =>
        root.Members.OfType<FieldDeclarationSyntax>().SelectMany(f => f.Declaration.Variables)
            .Concat(root.Members.OfType<GlobalStatementSyntax>().Select(g => g.Statement).OfType<LocalDeclarationStatementSyntax>().SelectMany(d => d.Declaration.Variables))
            .Select(v => v.Identifier.Text);

    private static bool Named(AttributeSyntax attribute, string name)
    {
        var text = attribute.Name.ToString();
        return text == name || text == name + "Attribute" || text.EndsWith("." + name, StringComparison.Ordinal);
    }

    private static bool HasAttribute(SyntaxList<AttributeListSyntax> lists, string name) => lists.SelectMany(l => l.Attributes).Any(a => Named(a, name));

    private static string[] Categories(SyntaxList<AttributeListSyntax> lists) =>
        lists.SelectMany(l => l.Attributes)
            .Where(a => Named(a, "BenchmarkCategory"))
            .SelectMany(a => a.ArgumentList?.Arguments ?? [])
            .Select(a => a.Expression)
            .OfType<LiteralExpressionSyntax>()
            .Select(l => l.Token.ValueText)
            .ToArray();

    // Every combination of the class's [Params] values: (name, value) as BenchmarkDotNet names the case's parameters.
    private static List<List<CaseParameter>> ParamsCombinations(ClassDeclarationSyntax type)
    {
        var sets = new List<List<CaseParameter>> { new() };
        foreach (var property in type.Members.OfType<PropertyDeclarationSyntax>())
        {
            var values = property.AttributeLists.SelectMany(l => l.Attributes).Where(a => Named(a, "Params"))
                .SelectMany(a => a.ArgumentList?.Arguments ?? []).Select(a => ValueText(a.Expression)).ToArray();
            if (values.Length > 0)
            {
                sets = sets.SelectMany(s => values.Select(v => s.Append(new CaseParameter(property.Identifier.Text, v)).ToList())).ToList();
            }
        }

        return sets;
    }

    private static IEnumerable<IReadOnlyList<CaseParameter>> Cases(List<List<CaseParameter>> parameterSets, MethodDeclarationSyntax method)
    {
        var arguments = method.AttributeLists.SelectMany(l => l.Attributes).Where(a => Named(a, "Arguments")).ToArray();
        if (arguments.Length == 0)
        {
            return parameterSets;
        }

        var names = method.ParameterList.Parameters.Select(p => p.Identifier.Text).ToArray();
        return arguments.SelectMany(a => parameterSets.Select(s => (IReadOnlyList<CaseParameter>)s.Concat(
            (a.ArgumentList?.Arguments ?? []).Select((x, i) => new CaseParameter(i < names.Length ? names[i] : "", ValueText(x.Expression)))).ToList()));
    }

    private static string ValueText(ExpressionSyntax expression) => expression is LiteralExpressionSyntax literal
        ? literal.Token.ValueText.Replace("_", "", StringComparison.Ordinal)
        : expression.ToString();

    private static IEnumerable<string> CategoryIds(string source) => FigureCategory().Matches(source).Select(m => m.Groups["id"].Value);

    // "N10-C01" is introduced by "N10-C01", by a list that carries its prefix on ("N10-J33, J34, J35"), or by a range
    // such as "N10-C01..C04" that covers it.
    private static bool MentionsFigure(string prose, string id)
    {
        if (prose.Contains(id, StringComparison.Ordinal))
        {
            return true;
        }

        if (FigureList().Matches(prose).Any(m => id.StartsWith(m.Groups["prefix"].Value, StringComparison.Ordinal)
            && m.Groups["more"].Captures.Any(c => m.Groups["prefix"].Value + c.Value == id)))
        {
            return true;
        }

        var dash = id.IndexOf('-', StringComparison.Ordinal);
        var (prefix, kind, number) = (id[..(dash + 1)], id[(dash + 1)..].TrimEnd("0123456789".ToCharArray()), id[(dash + 1)..]);
        return FigureRange().Matches(prose).Any(m =>
            m.Groups["prefix"].Value == prefix && m.Groups["kind"].Value == kind && m.Groups["kind2"].Value == kind &&
            string.CompareOrdinal(m.Groups["kind"].Value + m.Groups["from"].Value, number) <= 0 &&
            string.CompareOrdinal(number, m.Groups["kind2"].Value + m.Groups["to"].Value) <= 0 &&
            m.Groups["from"].Value.Length == number.Length - kind.Length && m.Groups["to"].Value.Length == number.Length - kind.Length);
    }

    private static IReadOnlyList<string> LearnItems(string intro)
    {
        var start = intro.IndexOf("**You will learn**", StringComparison.Ordinal);
        if (start < 0)
        {
            return [];
        }

        var items = new List<string>();
        foreach (var line in intro[(start + "**You will learn**".Length)..].ReplaceLineEndings("\n").Split('\n').SkipWhile(l => l.Trim().Length == 0))
        {
            if (line.StartsWith("- ", StringComparison.Ordinal))
            {
                items.Add(line[2..]);
            }
            else if (line.StartsWith("  ", StringComparison.Ordinal) && items.Count > 0)
            {
                items[^1] += " " + line.Trim();
            }
            else
            {
                break;
            }
        }

        return items;
    }

    private static IEnumerable<string> Headings(string markdown, string level = "## ") =>
        markdown.ReplaceLineEndings("\n").Split('\n').Where(l => l.StartsWith(level, StringComparison.Ordinal)).Select(l => l[level.Length..].Trim());

    // The text of a cell from its heading on, without the heading line.
    private static string Section(string markdown, string heading)
    {
        var lines = markdown.ReplaceLineEndings("\n").Split('\n');
        return string.Join("\n", lines.SkipWhile(l => !l.StartsWith("## " + heading, StringComparison.OrdinalIgnoreCase)).Skip(1));
    }

    private static string Short(string item) => item.Length <= 70 ? item : item[..70] + "...";

    private static HashSet<string> Words(string text) =>
        Word().Matches(MarkdownLink().Replace(text, "$1"))
            .Select(m => m.Value.ToLowerInvariant())
            .Where(w => w.Length > 2 && !Common.Contains(w))
            .Select(Stem)
            .ToHashSet(StringComparer.Ordinal);

    // Words share a stem when they share their first six letters: "sizes" and "size", "allocation" and "allocates".
    private static string Stem(string word) => word.Length <= 6 ? word.ToLowerInvariant() : word[..6].ToLowerInvariant();

    private static readonly HashSet<string> Common = new(
        "the and for with from into over under about each every one two three more most less all any same other own through both only but also use using used see seen learn notebook net what how why when where which who your you their them they than then not does can will would should this that its are was were has have had why".Split(' '),
        StringComparer.Ordinal);

    [GeneratedRegex(@"BenchmarkCategory\(\s*""(?<id>(?:N9|N10|C30)-[A-Z]+\d+)")]
    private static partial Regex FigureCategory();

    [GeneratedRegex(@"(?<prefix>(?:N9|N10|C30)-)[A-Z]+\d+(?:\s*,\s*(?<more>[A-Z]+\d+)(?![\w-]))+")]
    private static partial Regex FigureList();

    [GeneratedRegex(@"(?<prefix>(?:N9|N10|C30)-)(?<kind>[A-Z]+)(?<from>\d+)\s*(?:\.\.|–|to)\s*(?<kind2>[A-Z]+)(?<to>\d+)")]
    private static partial Regex FigureRange();

    [GeneratedRegex(@"[A-Za-z][A-Za-z0-9]+")]
    private static partial Regex Word();

    [GeneratedRegex(@"\[([^\]]*)\]\([^)]*\)")]
    private static partial Regex MarkdownLink();
}
