using System.Runtime.CompilerServices;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>Paths in the repository, and the test-wide PerfLab home.</summary>
public static class Repo
{
    /// <summary>The repository root (the folder holding PerfLab.slnx).</summary>
    public static string Root { get; } = Find();

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

    private static string Find()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "PerfLab.slnx")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException("The tests run from inside the repository.");
    }
}
