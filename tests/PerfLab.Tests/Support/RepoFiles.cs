using PerfLab.Course;

namespace PerfLab.Tests.Support;

/// <summary>Files of the repository the tests run in (the folder holding PerfLab.slnx).</summary>
public static class RepoFiles
{
    private static readonly Lazy<string> Root = new(CourseRepository.Root);

    /// <summary>A path below the repository root, '/'-separated (CourseRepository names the course's folders); the root itself by default.</summary>
    public static string Path(string relative = "") => CourseRepository.PathOf(relative, Root.Value);
}
