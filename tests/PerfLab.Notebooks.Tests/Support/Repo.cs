using System.Runtime.CompilerServices;
using PerfLab.Course;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>Paths in the repository; and the test home (<see cref="TestHome"/>) for the engines this process runs.</summary>
public static class Repo
{
    /// <summary>The repository root (the folder holding PerfLab.slnx).</summary>
    public static string Root { get; } = CourseRepository.Root();

    /// <summary>The notebooks folder.</summary>
    public static string Notebooks => CourseRepository.PathOf(CourseRepository.NotebooksFolder, Root);

    // In-process engines (the notebook session, the runner) read PERFLAB_HOME too: this run's (TestHome: measurements per run, runtimes shared).
    [ModuleInitializer]
    internal static void UseTestHome() => System.Environment.SetEnvironmentVariable("PERFLAB_HOME", TestHome.Path);
}
