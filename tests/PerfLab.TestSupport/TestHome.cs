namespace PerfLab.Tests.Support;

/// <summary>
/// The PerfLab home of the integration tests (every test project), apart from the reader's own. Only what
/// cannot be wrong is kept between test runs: provisioned runtimes, their download projects, the precompiled hosts,
/// compiled benchmark assemblies (content-addressed) and the cross-process locks live in <see cref="SharedRoot"/>.
/// Measurements (cached results and asm listings) and scratch folders live in a folder of this test run
/// alone, so a noisy measurement one run cached can never fail the next run.
/// </summary>
/// <remarks>
/// The run is named by <c>PERFLAB_TEST_RUN</c> (test.sh sets it, so the three test projects of one run share
/// their measurements: each notebook runs once per route); without it, each test process is a run of its own.
/// </remarks>
public static class TestHome
{
    /// <summary>What every test run shares, kept between runs.</summary>
    public static string SharedRoot { get; } = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "perflab-tests-home");

    /// <summary>The folders of a home that may outlive a run: nothing in them depends on a measurement.</summary>
    public static IReadOnlyList<string> SharedFolders { get; } = ["dotnet", "provision", "builds", "hosts", "locks"];

    /// <summary>The environment variable naming the test run.</summary>
    public const string RunVariable = "PERFLAB_TEST_RUN";

    /// <summary>This test run's name.</summary>
    public static string Run { get; } = RunName(System.Environment.GetEnvironmentVariable(RunVariable));

    /// <summary>This run's home: PERFLAB_HOME for the tests' engines and child processes.</summary>
    public static string Path { get; } = Prepare(SharedRoot, Run);

    // A run this process named alone is this process's to remove (test.sh removes the runs it names).
    static TestHome()
    {
        if (string.IsNullOrWhiteSpace(System.Environment.GetEnvironmentVariable(RunVariable)))
        {
            AppDomain.CurrentDomain.ProcessExit += (_, _) => RemoveRun(Path);
        }
    }

    /// <summary>This run's home as an object.</summary>
    public static PerfLabHome Shared { get; } = new(Path);

    /// <summary>Environment for child processes: this run's home.</summary>
    public static Dictionary<string, string> Environment => new() { ["PERFLAB_HOME"] = Path };

    private static string RunName(string? given)
    {
        if (string.IsNullOrWhiteSpace(given))
        {
            return $"pid{System.Environment.ProcessId}-{Guid.NewGuid():N}"[..20];
        }

        if (given.Any(c => !(char.IsAsciiLetterOrDigit(c) || c is '-' or '_')) || given.Length > 64)
        {
            throw new ArgumentException($"{RunVariable}='{given}' is not a run name: use up to 64 letters, digits, '-' or '_' (test.sh sets it).");
        }

        return given;
    }

    /// <summary>
    /// Makes the home of run <paramref name="run"/> under <paramref name="sharedRoot"/>: a fresh folder whose
    /// shared folders link to the shared root's. Runs older than a day are removed (a run that crashed).
    /// </summary>
    public static string Prepare(string sharedRoot, string run)
    {
        var runs = System.IO.Path.Combine(sharedRoot, "runs");
        var home = System.IO.Path.Combine(runs, run);
        Directory.CreateDirectory(home);
        RemoveStaleRuns(runs, keep: home);
        PerfLabHome.Linked(home, sharedRoot, SharedFolders);
        return home;
    }

    private static void RemoveStaleRuns(string runs, string keep)
    {
        foreach (var old in Directory.EnumerateDirectories(runs))
        {
            if (old != keep && Directory.GetLastWriteTimeUtc(old) < DateTime.UtcNow.AddDays(-1))
            {
                RemoveRun(old);
            }
        }
    }

    private static void RemoveRun(string home)
    {
        try
        {
            // Unlinks the shared folders' links without following them.
            Directory.Delete(home, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // In use or already gone: a later run removes it once it is a day old.
        }
    }
}
