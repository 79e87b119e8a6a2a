using PerfLab.Course;

namespace PerfLab.Tests.Support;

/// <summary>Files of the repository the tests run in (the folder holding PerfLab.slnx).</summary>
public static class RepoFiles
{
    private static readonly Lazy<string> Root = new(CourseRepository.Root);

    /// <summary>A path below the repository root, from its parts.</summary>
    public static string Path(params string[] parts) => System.IO.Path.Combine([Root.Value, .. parts]);
}
