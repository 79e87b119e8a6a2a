namespace PerfLab.Course;

/// <summary>The course's repository, found from the running build (the helpers run from their build output inside it).</summary>
public static class CourseRepository
{
    /// <summary>The repository root: the nearest folder above the running assembly that holds PerfLab.slnx.</summary>
    /// <exception cref="PerfLabException">This build does not run from inside the repository.</exception>
    public static string Root()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "PerfLab.slnx")))
            {
                return dir.FullName;
            }
        }

        throw new PerfLabException(
            $"PerfLab runs from {AppContext.BaseDirectory}, which is not inside the course's repository.",
            "Run it from a clone of the course: `dotnet run --project helpers/PerfLab.Cli -- ...` from the repository root.");
    }
}
