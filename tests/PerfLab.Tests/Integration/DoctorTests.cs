using PerfLab.Course.Setup;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

public class DoctorTests
{
    [Fact]
    public async Task Missing_runtimes_are_a_warning_with_the_command_that_fetches_them()
    {
        using var home = new TempFolder();

        var result = await CliProcess.RunAsync(["doctor"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path, ["JUPYTER_DATA_DIR"] = home.Path });

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("[ok  ] .NET SDK", result.Output, StringComparison.Ordinal);
        Assert.Contains("[ok  ] benchmark host", result.Output, StringComparison.Ordinal);
        Assert.Contains("[ok  ] notebook helpers", result.Output, StringComparison.Ordinal);
        Assert.Matches(@"\[warn\] runtime net8\.0 +8\.0\.31 is not here yet", result.Output);
        Assert.Contains("fix: Run `perflab runtimes --provision` now while you are online.", result.Output, StringComparison.Ordinal);
        Assert.Matches(@"No failures; \d+ warning\(s\)\.", result.Output);
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

    [Fact]
    public async Task A_kernelspec_that_starts_a_deleted_build_fails_with_the_command_that_reinstalls_it()
    {
        using var home = new TempFolder();
        var gone = System.IO.Path.Combine(home.Path, "deleted-clone", "PerfLab.Cli.dll");
        home.Write("jupyter/kernels/perflab-csharp/kernel.json", $$"""{ "argv": ["dotnet", "{{gone.Replace("\\", "\\\\", StringComparison.Ordinal)}}", "kernel", "serve", "{connection_file}"], "display_name": "C# (PerfLab)", "language": "C#" }""");

        var result = await CliProcess.RunAsync(["doctor"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path, ["JUPYTER_DATA_DIR"] = System.IO.Path.Combine(home.Path, "jupyter") });

        Assert.Equal(1, result.ExitCode);
        Assert.Contains($"[FAIL] Jupyter kernel", result.Output, StringComparison.Ordinal);
        Assert.Contains($"starts {gone}, which no longer exists", result.Output, StringComparison.Ordinal);
        Assert.Contains("fix: Run `perflab kernel install` again from this clone.", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_pinned_dotnet_interactive_is_an_information_line_with_its_version()
    {
        // ./test.sh restores it (dotnet tool restore) before any test runs.
        using var home = new TempFolder();

        var result = await CliProcess.RunAsync(["doctor"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path, ["JUPYTER_DATA_DIR"] = home.Path });

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Matches(@"\[info\] \.NET Interactive +dotnet-interactive 1\.0\.712001 restored \(\.config/dotnet-tools\.json\)", result.Output);
        Assert.Matches(@"No failures; \d+ warning\(s\)\.", result.Output);
    }

    [Fact]
    public async Task A_pinned_dotnet_interactive_that_is_not_restored_is_information_naming_the_restore_never_a_warning()
    {
        // A repository whose manifest pins a version no restore has fetched: `dotnet tool run` refuses it (it never downloads).
        using var repo = new TempFolder();
        repo.Write(".config/dotnet-tools.json", """{ "version": 1, "isRoot": true, "tools": { "microsoft.dotnet-interactive": { "version": "1.0.1", "commands": ["dotnet-interactive"], "rollForward": false } } }""");

        var check = await InteractiveTool.CheckAsync(repo.Path, DotnetInstallation.Current().Muxer);

        Assert.NotNull(check);
        Assert.Equal(CheckStatus.Info, check.Status);
        Assert.Contains("dotnet-interactive 1.0.1 is pinned in .config/dotnet-tools.json but not restored", check.Detail, StringComparison.Ordinal);
        Assert.Null(await InteractiveTool.CheckAsync(Directory.CreateDirectory(System.IO.Path.Combine(repo.Path, "no-manifest")).FullName, DotnetInstallation.Current().Muxer));
    }
}
