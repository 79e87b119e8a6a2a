using System.Runtime.CompilerServices;
using PerfLab.Course;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>Paths in the repository, and the test-wide PerfLab home.</summary>
public static class Repo
{
    /// <summary>The repository root (the folder holding PerfLab.slnx).</summary>
    public static string Root { get; } = CourseRepository.Root();

    /// <summary>The notebooks folder.</summary>
    public static string Notebooks => Path.Combine(Root, "notebooks");

    /// <summary>
    /// The PerfLab home shared by the integration tests of both test projects: kept between runs so
    /// provisioned runtimes are reused, apart from the reader's own home and its cached results.
    /// </summary>
    public static string Home { get; } = Path.Combine(Path.GetTempPath(), "perflab-tests-home");

    /// <summary>Environment for child processes: the test home.</summary>
    public static Dictionary<string, string> Environment => new() { ["PERFLAB_HOME"] = Home };

    // In-process engines (the notebook session, the runner) read PERFLAB_HOME too.
    [ModuleInitializer]
    internal static void UseTestHome() => System.Environment.SetEnvironmentVariable("PERFLAB_HOME", Home);
}
