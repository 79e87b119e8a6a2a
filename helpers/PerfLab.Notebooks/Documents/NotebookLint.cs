using System.Text.Json.Nodes;

namespace PerfLab.Notebooks.Documents;

/// <summary>
/// The course's notebook dialect, checked: outputs stripped, one identical setup cell that is the only
/// place loading anything, no magics or package directives (the course kernel runs plain C#), and the
/// metadata that makes Jupyter and Polyglot Notebooks open the file as C#; and relative links in the
/// prose that point at files which exist.
/// </summary>
public static partial class NotebookLint
{
    /// <summary>The kernelspec name every notebook declares (the course's kernel).</summary>
    public const string KernelName = "perflab-csharp";

    /// <summary>The kernel Polyglot Notebooks must open the notebook with.</summary>
    public const string PolyglotKernelName = "csharp";

    /// <summary>Every problem in <paramref name="notebook"/>, one message each, naming the file and the cell; empty when it is clean.</summary>
    /// <param name="notebook">The notebook.</param>
    /// <param name="repoRoot">The repository root (the setup cell's relative path depends on it).</param>
    public static IReadOnlyList<string> Check(NotebookDocument notebook, string repoRoot)
    {
        ArgumentNullException.ThrowIfNull(notebook);
        ArgumentException.ThrowIfNullOrWhiteSpace(repoRoot);
        var file = Path.GetRelativePath(Path.GetFullPath(repoRoot), Path.GetFullPath(notebook.Path)).Replace('\\', '/');
        var problems = new List<string>();
        CheckMetadata(notebook.Metadata, file, problems);

        var firstCode = notebook.Cells.FirstOrDefault(c => c.Kind == CellKind.Code);
        var setup = SetupCell.For(notebook.Path, repoRoot);
        if (firstCode is null)
        {
            problems.Add($"{file}: has no code cell; the first code cell must be the setup cell:\n{setup}");
        }

        foreach (var cell in notebook.Cells.Where(c => c.Kind == CellKind.Code))
        {
            var at = $"{file}, {cell.Name}";
            if (cell.HasOutputs)
            {
                problems.Add($"{at}: stores outputs; clear them before committing (outputs stay out of git, recorded results live in data/).");
            }

            if (cell.ExecutionCount is { } count)
            {
                problems.Add($"{at}: stores an execution count ({count}); clear outputs before committing.");
            }

            if (cell == firstCode)
            {
                CheckSetup(cell, setup, at, problems);
            }

            CheckLines(cell, isSetup: cell == firstCode, at, problems);
        }

        foreach (var cell in notebook.Cells.Where(c => c.Kind == CellKind.Markdown))
        {
            CheckLinks(cell, Path.GetDirectoryName(Path.GetFullPath(notebook.Path))!, $"{file}, {cell.Name}", problems);
        }

        return problems;
    }

    // A relative link (a previous/next notebook, a doc) must point at a file that exists: a broken one
    // fails in Jupyter and in the report alike. Web links and anchors are not checked.
    private static void CheckLinks(NotebookCell cell, string folder, string at, List<string> problems)
    {
        foreach (System.Text.RegularExpressions.Match link in MarkdownLink().Matches(cell.Source))
        {
            var target = link.Groups[1].Value;
            if (target.Contains("://", StringComparison.Ordinal) || target.StartsWith('#') || target.StartsWith("mailto:", StringComparison.Ordinal))
            {
                continue;
            }

            var path = target.Split('#')[0];
            if (!File.Exists(Path.Combine(folder, path)) && !Directory.Exists(Path.Combine(folder, path)))
            {
                problems.Add($"{at}: links to {target}, which does not exist next to the notebook; fix the link or write the name without a link until the target exists.");
            }
        }
    }

    [System.Text.RegularExpressions.GeneratedRegex(@"\]\(([^)\s]+)\)")]
    private static partial System.Text.RegularExpressions.Regex MarkdownLink();

    private static void CheckMetadata(JsonObject metadata, string file, List<string> problems)
    {
        var kernel = Text((metadata["kernelspec"] as JsonObject)?["name"]);
        if (kernel != KernelName)
        {
            problems.Add($"{file}: metadata.kernelspec.name is {Shown(kernel)}, expected \"{KernelName}\" (the course's kernel).");
        }

        var polyglot = Text(((metadata["polyglot_notebook"] as JsonObject)?["kernelInfo"] as JsonObject)?["defaultKernelName"]);
        if (polyglot != PolyglotKernelName)
        {
            problems.Add($"{file}: metadata.polyglot_notebook.kernelInfo.defaultKernelName is {Shown(polyglot)}, expected \"{PolyglotKernelName}\" (what Polyglot Notebooks reads to open the notebook as C#).");
        }

        // Jupyter writes the kernel's language_info into the file on save; the committed one says what the cells are parsed as.
        var version = Text((metadata["language_info"] as JsonObject)?["version"]);
        if (version is not null && version != Execution.NotebookSession.CSharpVersion)
        {
            problems.Add($"{file}: metadata.language_info.version is {Shown(version)}, expected \"{Execution.NotebookSession.CSharpVersion}\" (the C# version the course kernel parses cells as).");
        }
    }

    private static void CheckSetup(NotebookCell cell, string expected, string at, List<string> problems)
    {
        var actual = Normalize(cell.Source);
        expected = Normalize(expected);
        if (actual == expected)
        {
            return;
        }

        var actualLines = actual.Split('\n');
        var expectedLines = expected.Split('\n');
        var line = 0;
        while (line < actualLines.Length && line < expectedLines.Length && actualLines[line] == expectedLines[line])
        {
            line++;
        }

        var differs = line < actualLines.Length && line < expectedLines.Length
            ? $"line {line + 1} is `{actualLines[line]}`, expected `{expectedLines[line]}`"
            : line < expectedLines.Length
                ? $"line {line + 1} is missing, expected `{expectedLines[line]}`"
                : $"line {line + 1} is extra: `{actualLines[line]}`";
        problems.Add($"{at}: the first code cell is not the setup cell ({differs}). It must read exactly:\n{expected}");
    }

    private static void CheckLines(NotebookCell cell, bool isSetup, string at, List<string> problems)
    {
        foreach (var raw in cell.Source.Split('\n'))
        {
            var line = raw.Trim();
            if (line.StartsWith("#!", StringComparison.Ordinal) || IsPercentMagic(line))
            {
                problems.Add($"{at}: `{line}` is a magic command; the course kernel runs plain C# only (time things with the helpers instead).");
            }
            else if (IsDirective(line, "#r"))
            {
                var argument = line[2..].TrimStart();
                if (argument.StartsWith("\"nuget:", StringComparison.OrdinalIgnoreCase))
                {
                    problems.Add($"{at}: `{line}` loads a NuGet package; packages come only through the helpers, which pin their versions.");
                }
                else if (!isSetup)
                {
                    problems.Add($"{at}: `{line}` loads an assembly outside the setup cell; only the first code cell loads the helpers (move any reusable code into helpers/).");
                }
            }
            else if (IsDirective(line, "#i"))
            {
                problems.Add($"{at}: `{line}` adds a package source; packages come only through the helpers.");
            }
        }
    }

    // `#r` and `#i` followed by a space or a quote: `#region` and `#if` are C#.
    private static bool IsDirective(string line, string name) =>
        line.StartsWith(name, StringComparison.Ordinal)
        && (line.Length == name.Length || char.IsWhiteSpace(line[name.Length]) || line[name.Length] == '"');

    // `%time`, `%%time`; a line like `% 2` continuing an expression is C#.
    private static bool IsPercentMagic(string line) =>
        line.StartsWith("%%", StringComparison.Ordinal) || (line.Length > 1 && line[0] == '%' && char.IsLetter(line[1]));

    private static string Normalize(string text) => text.Replace("\r\n", "\n", StringComparison.Ordinal);

    private static string? Text(JsonNode? node) =>
        node is JsonValue value && value.TryGetValue<string>(out var text) ? text : null;

    private static string Shown(string? value) => value is null ? "missing" : $"\"{value}\"";
}
