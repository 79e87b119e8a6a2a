using System.Globalization;
using System.Text.Json.Nodes;
using PerfLab.Notebooks.Tests.Support;
using Xunit.Abstractions;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// The third route: every notebook, unchanged, in smoke mode through real .NET Interactive (the
/// dotnet-interactive tool .config/dotnet-tools.json pins, Polyglot Notebooks' engine) as a Jupyter kernel
/// driven by nbclient. In the routes' collection, so it runs after `perflab run` filled this test run's
/// results and asm caches (<see cref="CourseRun"/>) and reads them instead of measuring again.
/// </summary>
[Collection(BothRoutes.Name)]
public class InteractiveRouteTests(InteractiveKernelspec kernelspec, ITestOutputHelper output) : IClassFixture<InteractiveKernelspec>
{
    private static readonly TimeSpan NotebookTimeout = TimeSpan.FromMinutes(10);

    // Enough of a problem's text to read it in the failure message; the rest is in the cell's output.
    private const int TextLimit = 1500;

    [Fact]
    public async Task Every_notebook_runs_in_dotnet_interactive_under_nbclient_in_smoke_mode_without_error_output()
    {
        var notebooks = RunCommandTests.CourseNotebooks();
        Assert.True(notebooks.Count > 0, $"No notebook found under {Repo.Notebooks}: there is nothing to run.");

        var run = await JupyterPython.RunAsync(
            JupyterPython.Python,
            [JupyterPython.Script("run_notebooks.py"), "--kernel", InteractiveKernelspec.Name, .. notebooks],
            kernelspec.Environment(),
            NotebookTimeout * notebooks.Count + TimeSpan.FromMinutes(1));

        Assert.True(run.ExitCode == 0, $"run_notebooks.py --kernel {InteractiveKernelspec.Name} failed:\n{run}");
        JsonArray ran;
        try
        {
            ran = JsonNode.Parse(run.Output)!["notebooks"]!.AsArray();
        }
        catch (System.Text.Json.JsonException ex)
        {
            Assert.Fail($"run_notebooks.py printed no JSON report ({ex.Message}):\n{run}");
            return;
        }

        output.WriteLine($".NET Interactive {kernelspec.ToolVersion}, HTTP ports {kernelspec.Ports}, smoke mode, PERFLAB_HOME {Repo.Home}");
        foreach (var nb in ran)
        {
            output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{(double)nb!["seconds"]!,7:0.0} s  {Relative(nb)}  ({(int)nb["cells"]!} cells, {nb["problems"]!.AsArray().Count} problem(s))"));
        }

        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{ran.Sum(nb => (double)nb!["seconds"]!),7:0.0} s  total for {ran.Count} notebooks"));

        Assert.Equal(notebooks.Count, ran.Count);
        var problems = ran
            .SelectMany(nb => nb!["problems"]!.AsArray().Select(p => (
                Where: $"{Relative(nb)} cell {p!["cell"]?.ToString() ?? "-"} ({p["kind"]})",
                Text: ((string?)p["text"] ?? "").Trim())))
            .ToList();
        Assert.True(
            problems.Count == 0,
            $"{problems.Count} problem(s) running the notebooks in .NET Interactive {kernelspec.Version}, each with its first line:\n" +
            string.Join("\n", problems.Select(p => $"  {p.Where}: {FirstLine(p.Text)}")) +
            "\n--- in full\n" +
            string.Join("\n\n", problems.Select(p => $"{p.Where}:\n{Shorten(p.Text)}")));
    }

    private static string FirstLine(string text) =>
        text.Split('\n', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries).FirstOrDefault() ?? "(no text)";

    private static string Relative(JsonNode? notebook) => Path.GetRelativePath(Repo.Root, (string)notebook!["path"]!);

    private static string Shorten(string text) =>
        text.Length <= TextLimit ? text : text[..TextLimit] + $" ... ({text.Length - TextLimit} more characters)";
}
