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

    /// <summary>This test run's PerfLab home (<see cref="TestHome"/>: measurements per run, runtimes shared).</summary>
    public static string Home => TestHome.Path;

    /// <summary>Environment for child processes: the test home.</summary>
    public static Dictionary<string, string> Environment => TestHome.Environment;

    // In-process engines (the notebook session, the runner) read PERFLAB_HOME too.
    [ModuleInitializer]
    internal static void UseTestHome() => System.Environment.SetEnvironmentVariable("PERFLAB_HOME", Home);
}
