namespace PerfLab.Course;

/// <summary>
/// The course's repository: the folder holding PerfLab.slnx, and what lives where in it. The one place it is
/// looked for and its paths are named, for the helpers (from their build output inside it), the tests and the
/// bench scripts.
/// </summary>
/// <remarks>
/// Paths are relative to the root and '/'-separated, as the docs and the reference files spell them;
/// <see cref="PathOf"/> makes one absolute.
/// </remarks>
public static class CourseRepository
{
    /// <summary>The notebooks, one folder per topic; notebooks/README.md is their index.</summary>
    public const string NotebooksFolder = "notebooks";

    /// <summary>The exercises' solutions.</summary>
    public const string SolutionsFolder = NotebooksFolder + "/solutions";

    /// <summary>The figures the posts publish, one JSON file per post.</summary>
    public const string PublishedFolder = "data/published";

    /// <summary>Which figures each notebook cites.</summary>
    public const string OutlineFile = "data/outline.json";

    /// <summary>The benchmark files the reference job runs before the notebooks.</summary>
    public const string ReferenceSuiteFolder = "data/reference/suite";

    /// <summary>The reference job's results, one file per machine.</summary>
    public const string ReferenceMachinesFolder = "data/reference/machines";

    /// <summary>The documentation, where `perflab fidelity` writes its report.</summary>
    public const string DocsFolder = "docs";

    /// <summary>The helper projects, one folder each.</summary>
    public const string HelpersFolder = "helpers";

    /// <summary>The `perflab` command's project.</summary>
    public const string CliProject = HelpersFolder + "/PerfLab.Cli";

    /// <summary>The course's notebook timings in quick mode (<see cref="Timings.TimingsFile"/>), which the docs' run times quote.</summary>
    public const string TimingsFile = "data/timings/quick.json";

    /// <summary>The example benchmark files.</summary>
    public const string SamplesFolder = "samples";

    // The file that marks the repository's root.
    private const string MarkerFile = "PerfLab.slnx";

    /// <summary>The `perflab` command a build of <see cref="CliProject"/> writes, e.g. for `dotnet PATH doctor`.</summary>
    /// <param name="configuration">The build configuration: Debug (`dotnet build`'s default) or Release.</param>
    public static string CliAssembly(string configuration = "Debug") => $"{CliProject}/bin/{configuration}/net10.0/PerfLab.Cli.dll";

    /// <summary>The repository root: the nearest folder above the running assembly that holds PerfLab.slnx.</summary>
    /// <exception cref="PerfLabException">This build does not run from inside the repository.</exception>
    public static string Root() =>
        Find(AppContext.BaseDirectory) ?? throw new PerfLabException(
            $"PerfLab runs from {AppContext.BaseDirectory}, which is not inside the course's repository.",
            "Run it from a clone of the course: `dotnet run --project helpers/PerfLab.Cli -- ...` from the repository root.");

    /// <summary>The nearest folder at or above <paramref name="start"/> that holds PerfLab.slnx, or null when there is none.</summary>
    /// <param name="start">Where to start looking, e.g. the current folder.</param>
    public static string? Find(string start)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(start);
        for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, MarkerFile)))
            {
                return dir.FullName;
            }
        }

        return null;
    }

    /// <summary>The absolute path of <paramref name="relative"/> in the repository.</summary>
    /// <param name="relative">A path below the root, '/'-separated, e.g. <see cref="OutlineFile"/> or "notebooks/jit".</param>
    /// <param name="root">The repository's root; null: <see cref="Root"/>.</param>
    /// <exception cref="PerfLabException">No root was given and this build does not run from inside the repository.</exception>
    public static string PathOf(string relative, string? root = null)
    {
        ArgumentNullException.ThrowIfNull(relative);
        return Path.GetFullPath(Path.Combine(root ?? Root(), relative.Replace('/', Path.DirectorySeparatorChar)));
    }

    /// <summary>
    /// <paramref name="path"/> relative to the repository, '/'-separated: how files shared across machines (the
    /// reference results) and messages name it.
    /// </summary>
    /// <param name="path">A file or folder in the repository.</param>
    /// <param name="root">The repository's root; null: <see cref="Root"/>.</param>
    public static string Relative(string path, string? root = null) =>
        Path.GetRelativePath(root ?? Root(), path).Replace('\\', '/');
}
