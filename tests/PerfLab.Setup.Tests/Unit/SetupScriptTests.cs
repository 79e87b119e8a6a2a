using PerfLab.Setup.Tests.Support;

namespace PerfLab.Setup.Tests.Unit;

/// <summary>The setup scripts the README, the dev container and the workflows run.</summary>
public sealed class SetupScriptTests
{
    private static async Task<CliResult> BashSyntaxCheckAsync(string script)
    {
        using var process = CliProcess.StartProgram("bash", ["-n", script], workingDirectory: Repo.Root);
        return await CliProcess.CompleteAsync(process, TimeSpan.FromMinutes(1));
    }

    [Fact]
    public void Both_setup_scripts_exist_and_setup_sh_is_executable()
    {
        Assert.True(File.Exists(Repo.PathOf("setup.ps1")), "setup.ps1 is missing at the repository root.");
        var sh = Repo.PathOf("setup.sh");
        Assert.True(File.Exists(sh), "setup.sh is missing at the repository root.");
        Assert.True(Repo.IsExecutable(sh), "setup.sh is not executable: git update-index --chmod=+x setup.sh");
    }

    [UnixFact("no bash to ask; Linux and macOS runs check it")]
    public async Task Setup_sh_passes_bash_syntax_check()
    {
        var result = await BashSyntaxCheckAsync("setup.sh");

        Assert.True(result.ExitCode == 0, $"bash -n setup.sh failed:\n{result}");
    }

    [UnixFact("no bash to ask; Linux and macOS runs check it")]
    public async Task Bash_syntax_check_rejects_a_broken_script()
    {
        using var temp = new TempFolder();
        var broken = temp.Write("broken.sh", "if true; then\n  echo unfinished\n");

        var result = await BashSyntaxCheckAsync(broken);

        Assert.NotEqual(0, result.ExitCode);
    }
}
