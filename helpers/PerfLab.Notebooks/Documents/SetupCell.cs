namespace PerfLab.Notebooks.Documents;

/// <summary>
/// The one setup cell every notebook starts with: the same text everywhere except for how many
/// "../" lead from the notebook's folder back to the repository root. It is the only place that
/// loads the helpers; it runs unchanged in the course's kernel and in .NET Interactive.
/// </summary>
public static class SetupCell
{
    /// <summary>The helpers' build output, relative to the repository root (PerfLab.Notebooks.csproj's OutputPath).</summary>
    public const string HelpersPath = "helpers/PerfLab.Notebooks/bin/lab/PerfLab.Notebooks.dll";

    /// <summary>The command that builds the helpers, from the repository root.</summary>
    public const string BuildCommand = "dotnet build helpers/PerfLab.Notebooks";

    /// <summary>The setup cell for a notebook at <paramref name="notebookPath"/> in the repository at <paramref name="repoRoot"/>.</summary>
    /// <param name="notebookPath">The notebook file.</param>
    /// <param name="repoRoot">The repository root.</param>
    public static string For(string notebookPath, string repoRoot)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(notebookPath);
        ArgumentException.ThrowIfNullOrWhiteSpace(repoRoot);
        var folder = Path.GetDirectoryName(Path.GetFullPath(notebookPath))!;
        var relative = Path.GetRelativePath(folder, Path.Combine(Path.GetFullPath(repoRoot), HelpersPath)).Replace('\\', '/');
        return Text(relative);
    }

    /// <summary>The setup cell that loads the helpers from <paramref name="relativeDll"/>.</summary>
    /// <param name="relativeDll">The helpers' DLL relative to the notebook's folder.</param>
    public static string Text(string relativeDll) =>
        $"""
        // Setup: loads the course helpers. Not built yet? From the repository root run: {BuildCommand}
        #r "{relativeDll}"
        using PerfLab.Notebooks;
        Lab.Setup()
        """;
}
