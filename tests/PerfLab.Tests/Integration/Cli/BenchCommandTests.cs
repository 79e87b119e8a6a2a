using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>`perflab bench`, as a process, on the inputs a reader gets wrong, and its help.</summary>
[Collection(BusyCliRuns.Name)]
public class BenchCommandTests
{
    [Fact]
    public async Task Unknown_runtime_gets_one_message_and_a_non_zero_exit()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Tiny.cs", Sources.Tiny());

        var result = await CliProcess.RunAsync(["bench", file, "--runtimes", "net7.0"], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Equal("error: Unknown runtime 'net7.0'.\nfix: Use one of: net8.0, net9.0, net10.0.\n", result.Error);
    }

    [Fact]
    public async Task A_missing_file_gets_one_message()
    {
        var result = await CliProcess.RunAsync(["bench", "does-not-exist.cs"], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.StartsWith("error: File not found: does-not-exist.cs.", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_compile_error_prints_the_readers_line_and_runs_nothing()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Broken.cs", Sources.CompileError());

        var result = await CliProcess.RunAsync(["bench", file, "--mode", "smoke"], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains($"  {file}(6,16): error CS0103: The name 'undefinedVariable' does not exist in the current context", result.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("starting", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_benchmark_that_throws_exits_non_zero_and_shows_the_exception()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Faulty.cs", Sources.Throws());

        var result = await CliProcess.RunAsync(["bench", file, "--mode", "smoke", "--runtimes", "net10.0"], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("Explode on net10.0: System.InvalidOperationException: the reader's benchmark failed on purpose", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Bench_without_a_mode_follows_PERFLAB_MODE_and_says_so()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Tiny.cs", Sources.Tiny());
        var environment = TestHome.Environment;
        environment[ModeChoice.Variable] = "smoke";

        var result = await CliProcess.RunAsync(["bench", file, "--runtimes", "net10.0"], environment);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("Mode: smoke (PERFLAB_MODE).", result.Error, StringComparison.Ordinal);
        Assert.Contains("mode smoke ·", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Bench_with_an_invalid_PERFLAB_MODE_gets_the_one_message_and_runs_nothing()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Tiny.cs", Sources.Tiny());
        var environment = TestHome.Environment;
        environment[ModeChoice.Variable] = "fast";

        var result = await CliProcess.RunAsync(["bench", file, "--runtimes", "net10.0"], environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Equal("error: PERFLAB_MODE is 'fast', which is not a benchmark mode.\nfix: Use smoke (proves it runs), quick (a short job) or full (BenchmarkDotNet's default job), e.g. PERFLAB_MODE=quick.\n", result.Error);
    }

    [Fact]
    public async Task A_file_without_benchmarks_gets_one_message()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Plain.cs", Sources.NoBenchmark());

        var result = await CliProcess.RunAsync(["bench", file], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("error: Plain.cs has no [Benchmark] method.", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_endless_benchmark_times_out_and_leaves_no_process_behind()
    {
        using var home = new TempFolder();
        using var folder = new TempFolder();
        var file = folder.Write("Endless.cs", Sources.EndlessLoop());

        var result = await CliProcess.RunAsync(
            ["bench", file, "--mode", "smoke", "--runtimes", "net10.0", "--case-timeout", "4"],
            new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path });

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("Spin on net10.0: Timed out: the case did not finish within 4 s; its process tree was killed.", result.Output, StringComparison.Ordinal);
        Assert.Empty(CliProcess.ProcessesMentioning(home.Path));
    }

    [Fact]
    public async Task A_path_with_spaces_and_non_ascii_letters_just_works()
    {
        using var folder = new TempFolder();
        var file = folder.Write(Path.Combine("dossier avec espaces", "Bänch Ünïcødé.cs"), Sources.Tiny());

        var result = await CliProcess.RunAsync(["bench", file, "--mode", "smoke", "--runtimes", "net10.0"], TestHome.Environment);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("| Sum    | net10.0 |", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_runtime_that_cannot_be_provisioned_says_the_package_source_is_unreachable()
    {
        using var home = new TempFolder();
        using var packages = new TempFolder();
        using var folder = new TempFolder();
        var file = folder.Write("Tiny.cs", Sources.Tiny());

        // The provisioning restore finds this NuGet.config above its project: one source, nobody listening.
        home.Write("NuGet.config", """
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <clear />
                <add key="nowhere" value="http://127.0.0.1:9/v3/index.json" />
              </packageSources>
            </configuration>
            """);
        var result = await CliProcess.RunAsync(
            ["bench", file, "--mode", "smoke", "--runtimes", "net8.0"],
            new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path, ["NUGET_PACKAGES"] = packages.Path });

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("error: Could not provision .NET 8.0.31: the package source is unreachable.", result.Error, StringComparison.Ordinal);
        Assert.Contains("fix: Connect to your NuGet source", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Bench_help_lists_every_option()
    {
        var result = await CliProcess.RunAsync(["bench", "--help"]);

        Assert.Equal(0, result.ExitCode);
        foreach (var option in new[] { "--runtimes", "--mode", "--filter", "--env", "--json", "--force", "--case-timeout", "--timeout" })
        {
            Assert.Contains(option, result.Output, StringComparison.Ordinal);
        }
    }
}
