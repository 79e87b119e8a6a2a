using PerfLab.Setup.Tests.Support;

namespace PerfLab.Setup.Tests.Integration;

/// <summary>tests/timing/summary.py, which ends every full test run: where the time went, read from trx files.</summary>
public sealed class TimingSummaryTests
{
    // The shape `dotnet test --logger trx` writes: the run's times, and per test a definition and a result.
    private static string Trx(string assembly, string start, string finish, params (string Name, string Duration, string Outcome)[] tests) => $"""
        <?xml version="1.0" encoding="utf-8"?>
        <TestRun id="1" name="run" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">
          <Times creation="{start}" queuing="{start}" start="{start}" finish="{finish}" />
          <Results>
        {string.Concat(tests.Select(t => $"    <UnitTestResult testName=\"{t.Name}\" duration=\"{t.Duration}\" outcome=\"{t.Outcome}\" />\n"))}  </Results>
          <TestDefinitions>
            <UnitTest name="x" storage="{assembly.ToLowerInvariant()}"><TestMethod codeBase="{assembly}" name="x" /></UnitTest>
          </TestDefinitions>
        </TestRun>
        """;

    private static async Task<CliResult> SummaryAsync(params string[] args)
    {
        using var process = CliProcess.StartProgram("/usr/bin/python3", [Repo.PathOf("tests/timing/summary.py"), .. args], workingDirectory: Repo.Root);
        return await CliProcess.CompleteAsync(process, TimeSpan.FromMinutes(1));
    }

    [Fact]
    public async Task It_gives_each_projects_wall_time_and_counts_and_the_slowest_tests_across_projects()
    {
        using var results = new TempFolder();
        results.Write("a.trx", Trx("/repo/tests/PerfLab.Tests/bin/Debug/net10.0/PerfLab.Tests.dll", "2026-11-25T21:00:00.1234567+00:00", "2026-11-25T21:03:00.1234567+00:00",
            ("Fast", "00:00:00.5000000", "Passed"), ("Slow", "00:01:10.0000000", "Failed")));
        results.Write("sub/b.trx", Trx("/repo/tests/PerfLab.Notebooks.Tests/bin/Debug/net10.0/PerfLab.Notebooks.Tests.dll", "2026-11-25T21:00:00.0000000+00:00", "2026-11-25T21:15:00.0000000+00:00",
            ("Route", "00:02:00.0000000", "Passed")));

        var result = await SummaryAsync(results.Path, "--top", "2");

        Assert.True(result.ExitCode == 0, result.ToString());
        var lines = result.Output.Split('\n').Select(l => l.Trim()).ToList();
        Assert.Equal("15.0 min  PerfLab.Notebooks.Tests  (1 passed)", lines[1]);
        Assert.Equal("3.0 min  PerfLab.Tests  (1 failed, 1 passed)", lines[2]);
        Assert.Equal("Slowest 2 tests:", lines[3]);
        Assert.Equal("120.0 s  PerfLab.Notebooks.Tests: Route", lines[4]);
        Assert.Equal("70.0 s  PerfLab.Tests: Slow  [Failed]", lines[5]);
    }

    [Fact]
    public async Task A_folder_without_trx_files_is_named_in_one_line_and_fails()
    {
        using var empty = new TempFolder();

        var result = await SummaryAsync(empty.Path);

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains($"no .trx files in {empty.Path}", result.Error, StringComparison.Ordinal);
    }
}
