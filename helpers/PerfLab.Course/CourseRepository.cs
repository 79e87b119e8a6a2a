namespace PerfLab.Course;

/// <summary>
/// The course's repository: the folder holding PerfLab.slnx. The one place it is looked for, by the
/// helpers (from their build output inside it), the tests and the bench scripts.
/// </summary>
public static class CourseRepository
{
    // The file that marks the repository's root.
    private const string MarkerFile = "PerfLab.slnx";

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
}
