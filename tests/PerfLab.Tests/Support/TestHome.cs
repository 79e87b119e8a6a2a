namespace PerfLab.Tests.Support;

/// <summary>
/// The PerfLab home shared by the integration tests: kept between test runs (so provisioned runtimes
/// are reused) but apart from the user's own home, so tests never read the reader's cached results.
/// </summary>
public static class TestHome
{
    public static string Path { get; } = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "perflab-tests-home");

    public static PerfLabHome Shared { get; } = new(Path);

    public static Dictionary<string, string> Environment => new() { ["PERFLAB_HOME"] = Path };
}
