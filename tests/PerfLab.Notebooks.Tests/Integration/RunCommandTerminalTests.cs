using static PerfLab.Notebooks.Tests.Support.TestNotebooks;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// `perflab run` on a terminal: a pseudo-terminal from util-linux's script(1), so standard error is not redirected.
/// One tiny notebook (one case on one runtime, smoke mode, two launches so the status line has a launch and a time
/// left) run twice, about 15 s in all.
/// </summary>
public class RunCommandTerminalTests
{
    private const string Script = "/usr/bin/script";

    // The command script(1) hands to the shell is a constant: the paths reach it as environment variables.
    private const string Command = "exec dotnet \"$PERFLAB_CLI\" run \"$NOTEBOOK\" --mode smoke --out \"$REPORTS\"";

    [Fact]
    public async Task Benchmark_progress_is_one_status_line_rewritten_in_place_and_the_cells_output_stays_lines()
    {
        using var folder = new TempFolder();
        var (screen, report) = await RunOnTerminalAsync(folder, verbose: false);

        Assert.Contains("  | hello from the cell\n", screen, StringComparison.Ordinal);
        var rewrites = screen.Split('\n').SelectMany(line => line.Split('\r').Skip(1)).ToArray();
        Assert.True(rewrites.Any(r => r.Contains("net10.0 case 1/1 launch 2/2 Add", StringComparison.Ordinal) && r.Contains(" s left", StringComparison.Ordinal)),
            "no status line rewritten in place with the case, the launch and the time left:\n" + screen);
        var progressLines = screen.Split('\n').Where(l => l.Contains("  | [", StringComparison.Ordinal) && l.Contains("net10.0 case", StringComparison.Ordinal)).ToArray();
        Assert.True(progressLines.Length == 0, "per-launch progress printed as lines on a terminal without --verbose:\n" + string.Join("\n", progressLines));
        Assert.Contains("✓ tiny.ipynb: 2 code cells ran", screen, StringComparison.Ordinal);

        // The report keeps what it always kept: each launch's lines, folded.
        Assert.Contains("net10.0 case 1/1 launch 2/2 Add done", File.ReadAllText(report), StringComparison.Ordinal);
    }

    [Fact]
    public async Task With_verbose_each_launch_prints_its_lines_and_nothing_is_rewritten()
    {
        using var folder = new TempFolder();
        var (screen, _) = await RunOnTerminalAsync(folder, verbose: true);

        Assert.Contains("  | hello from the cell\n", screen, StringComparison.Ordinal);
        var launchLines = screen.Split('\n').Where(l => l.Contains("  | [", StringComparison.Ordinal) && l.Contains("net10.0 case 1/1 launch", StringComparison.Ordinal) && l.Contains(" Add done", StringComparison.Ordinal)).ToArray();
        Assert.True(launchLines.Length == 2, "expected one 'done' line per launch with --verbose:\n" + screen);
        Assert.False(screen.Contains('\r', StringComparison.Ordinal), "--verbose rewrote a line in place:\n" + screen);
    }

    // Everything the terminal got (stdout and stderr share it), its line ends as written (the pty's \r\n made \n),
    // and the HTML report.
    private static async Task<(string Screen, string Report)> RunOnTerminalAsync(TempFolder folder, bool verbose)
    {
        Assert.True(File.Exists(Script), $"{Script} (util-linux) is missing: these tests need it for a pseudo-terminal.");
        var notebook = folder.Write("tiny.ipynb", Json(
            Metadata(),
            Code("using BenchmarkDotNet.Attributes;\nusing PerfLab.Notebooks;\nConsole.WriteLine(\"hello from the cell\");"),
            Code("public class Tiny\n{\n    [Benchmark] public int Add() => 40 + 2;\n}\nawait Lab.RunAsync<Tiny>(runtimes: [\"net10.0\"], force: true, launches: 2)")));
        var reports = Path.Combine(folder.Path, "out");
        var environment = TestHome.Environment;
        environment["PERFLAB_CLI"] = CliProcess.CliAssembly;
        environment["NOTEBOOK"] = notebook;
        environment["REPORTS"] = reports;

        // -q: no banner; -f: flush as written; -e: the command's exit code; /dev/null: no typescript file.
        using var process = CliProcess.StartProgram(Script, ["-qfec", Command + (verbose ? " --verbose" : ""), "/dev/null"], environment);
        var result = await CliProcess.CompleteAsync(process, TimeSpan.FromMinutes(3));

        Assert.True(result.ExitCode == 0, result.ToString());
        return (result.Output.Replace("\r\n", "\n", StringComparison.Ordinal), Path.Combine(reports, "tiny.html"));
    }
}
