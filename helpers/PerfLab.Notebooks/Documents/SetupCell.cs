namespace PerfLab.Notebooks.Documents;

/// <summary>
/// The one setup cell every notebook starts with: the same text everywhere except for how many
/// "../" lead from the notebook's folder back to the repository root. It is the only place that
/// loads the helpers; it runs unchanged in the course's kernel and in .NET Interactive.
/// </summary>
public static class SetupCell
{
    /// <summary>The helpers' build output folder, relative to the repository root (PerfLab.Notebooks.csproj's OutputPath).</summary>
    public const string HelpersFolder = "helpers/PerfLab.Notebooks/bin/lab";

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
        var relative = Path.GetRelativePath(folder, Path.Combine(Path.GetFullPath(repoRoot), HelpersFolder)).Replace('\\', '/');
        return Text(relative);
    }

    /// <summary>The setup cell that loads the helpers from <paramref name="relativeFolder"/>.</summary>
    /// <param name="relativeFolder">The helpers' build output folder relative to the notebook's folder.</param>
    /// <remarks>
    /// BenchmarkDotNet's attributes are referenced too: a benchmark cell's class is compiled by the
    /// kernel as well (to name the type it runs), and .NET Interactive adds only what #r names.
    /// </remarks>
    public static string Text(string relativeFolder) =>
        $"""
        // Setup: loads the course helpers. Not built yet? From the repository root run: {BuildCommand}
        #r "{relativeFolder}/BenchmarkDotNet.Annotations.dll"
        #r "{relativeFolder}/Plotly.NET.CSharp.dll"
        #r "{relativeFolder}/PerfLab.Notebooks.dll"
        #r "{relativeFolder}/PerfLab.Inputs.dll"
        using BenchmarkDotNet.Attributes;
        using PerfLab.Notebooks;
        Lab.Setup()
        """;
}
