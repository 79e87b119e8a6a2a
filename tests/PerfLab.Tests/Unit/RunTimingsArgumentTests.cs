using PerfLab.Course;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>`perflab run --timings`: a path it cannot write, or a notebook it cannot name, stops it before any notebook runs.</summary>
public class RunTimingsArgumentTests
{
    private static string Notebook00 => CourseRepository.PathOf("notebooks/00-start-here.ipynb");

    [Fact]
    public async Task A_timings_path_that_cannot_be_written_is_refused_before_any_notebook_runs()
    {
        using var folder = new TempFolder();
        var blocker = folder.Write("file", "not a folder");

        var (exitCode, output, error) = await InProcessCli.InvokeAsync("run", Notebook00, "--timings", Path.Combine(blocker, "quick.json"));

        Assert.Equal(1, exitCode);
        Assert.StartsWith($"error: --timings {Path.Combine(blocker, "quick.json")}: cannot write there (", error, StringComparison.Ordinal);
        Assert.EndsWith("fix: Give a path in a folder you can write to.\n", error.ReplaceLineEndings("\n"), StringComparison.Ordinal);
        Assert.Equal("", output);
    }

    [Fact]
    public async Task A_folder_given_as_the_timings_file_is_refused()
    {
        using var folder = new TempFolder();

        var (exitCode, _, error) = await InProcessCli.InvokeAsync("run", Notebook00, "--timings", folder.Path);

        Assert.Equal(1, exitCode);
        Assert.Equal($"error: --timings {folder.Path} is a folder.\nfix: Give the timings file's path, e.g. --timings data/timings/quick.json.\n", error.ReplaceLineEndings("\n"));
    }

    [Fact]
    public async Task A_notebook_outside_the_repository_cannot_be_timed_and_a_missing_one_is_named()
    {
        using var folder = new TempFolder();
        var outside = folder.Write("00-copy.ipynb", File.ReadAllText(Notebook00));
        var timings = Path.Combine(folder.Path, "quick.json");

        var (exitCode, _, error) = await InProcessCli.InvokeAsync("run", outside, "--timings", timings);
        var (missingExit, _, missing) = await InProcessCli.InvokeAsync("run", Path.Combine(folder.Path, "nope.ipynb"), "--timings", timings);

        Assert.Equal(1, exitCode);
        Assert.Contains($"--timings records the course's notebooks, by their path in the repository ({CourseRepository.Root()}); {outside} is outside it.", error, StringComparison.Ordinal);
        Assert.False(File.Exists(timings), "a refused run wrote the timings file");
        Assert.Equal(1, missingExit);
        Assert.StartsWith($"error: Not found: {Path.Combine(folder.Path, "nope.ipynb")}.", missing, StringComparison.Ordinal);
    }
}
