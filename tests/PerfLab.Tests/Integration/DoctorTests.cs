using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

public class DoctorTests
{
    [Fact]
    public async Task Missing_runtimes_are_a_warning_with_the_command_that_fetches_them()
    {
        using var home = new TempFolder();

        var result = await CliProcess.RunAsync(["doctor"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path });

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("[ok  ] .NET SDK", result.Output, StringComparison.Ordinal);
        Assert.Contains("[ok  ] benchmark host", result.Output, StringComparison.Ordinal);
        Assert.Matches(@"\[warn\] runtime net8\.0 +8\.0\.31 is not here yet", result.Output);
        Assert.Contains("fix: Run `perflab runtimes --provision` now while you are online.", result.Output, StringComparison.Ordinal);
        Assert.Contains("All checks passed.", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_home_that_cannot_be_written_fails_with_a_fix_and_a_non_zero_exit()
    {
        using var folder = new TempFolder();
        var notAFolder = folder.Write("occupied", "a file where the home folder should be");

        var result = await CliProcess.RunAsync(["doctor"], new Dictionary<string, string> { ["PERFLAB_HOME"] = notAFolder });

        Assert.Equal(1, result.ExitCode);
        Assert.Contains($"[FAIL] write access", result.Output, StringComparison.Ordinal);
        Assert.Contains("fix: Set PERFLAB_HOME to a folder you can write to.", result.Output, StringComparison.Ordinal);
    }
}
