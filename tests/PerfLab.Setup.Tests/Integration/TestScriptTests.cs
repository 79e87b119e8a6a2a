using PerfLab.Setup.Tests.Support;

namespace PerfLab.Setup.Tests.Integration;

/// <summary>The README's test command: ./test.sh, which .ci/run calls, sets up what the tests drive or says what is missing.</summary>
public sealed class TestScriptTests
{
    [Fact]
    public void Test_sh_is_the_readme_test_command_and_ci_runs_exactly_it()
    {
        var script = Repo.PathOf("test.sh");
        Assert.True(File.Exists(script), "test.sh is missing at the repository root.");
        Assert.True(OperatingSystem.IsWindows() || Repo.IsExecutable(script), "test.sh is not executable: git update-index --chmod=+x test.sh");

        var readme = File.ReadAllLines(Repo.PathOf("README.md")).Select(l => l.Trim()).ToList();
        Assert.Contains("./test.sh", readme);
        var ci = File.ReadAllLines(Repo.PathOf(".ci/run")).Where(l => !l.TrimStart().StartsWith('#') && l.Trim().Length > 0).ToList();
        Assert.Contains("./test.sh", ci);
    }

    [UnixFact("test.sh is for Linux and macOS; test.ps1 says what Windows needs")]
    public async Task Where_nothing_can_be_installed_it_stops_before_testing_naming_each_piece_and_its_command()
    {
        // A machine without apt-get, sudo or npm on PATH, and no browser where the tests look for one.
        using var temp = new TempFolder();
        var bin = Directory.CreateDirectory(Path.Combine(temp.Path, "bin")).FullName;
        foreach (var tool in new[] { "dirname", "id", "sed" })
        {
            var found = new[] { "/usr/bin", "/bin" }.Select(d => Path.Combine(d, tool)).First(File.Exists);
            File.CreateSymbolicLink(Path.Combine(bin, tool), found);
        }

        using var process = CliProcess.StartProgram("/bin/bash", [Repo.PathOf("test.sh")], new Dictionary<string, string>
        {
            ["PATH"] = bin,
            ["PERFLAB_CHROMIUM"] = Path.Combine(temp.Path, "no-chromium"),
        }, workingDirectory: temp.Path);
        var result = await CliProcess.CompleteAsync(process, TimeSpan.FromMinutes(1));

        Assert.True(result.ExitCode == 2, $"expected exit code 2 before any test ran:\n{result}");
        Assert.Contains("missing chromium", result.Output, StringComparison.Ordinal);
        Assert.Contains("cannot install what the tests need here", result.Error, StringComparison.Ordinal);
        Assert.Contains("sudo apt-get install -y chromium", result.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("Test run for", result.Output, StringComparison.Ordinal);
    }
}
