using System.Diagnostics;
using System.Globalization;
using System.Text.Json.Nodes;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// One nbclient route: every course notebook executed by jupyter/run_notebooks.py on one kernel (the course's or
/// .NET Interactive's) in smoke mode, and what it reported: per notebook its seconds, cells and error outputs.
/// </summary>
/// <param name="Kernel">The kernelspec's name.</param>
/// <param name="Run">The script's exit code and output.</param>
/// <param name="Notebooks">The report's notebooks; null when the script printed no JSON report.</param>
/// <param name="Took">Wall time of the whole route.</param>
public sealed record NotebookRoute(string Kernel, CliResult Run, JsonArray? Notebooks, TimeSpan Took)
{
    private static readonly TimeSpan NotebookTimeout = TimeSpan.FromMinutes(10);

    // Enough of a problem's text to read it in the failure message; the rest is in the cell's output.
    private const int TextLimit = 1500;

    /// <summary>The file run_notebooks.py's --after waits for beside the reports: the run it follows has ended.</summary>
    public const string RunFinishedMarker = "perflab-run-finished";

    /// <summary>
    /// Runs every notebook in <paramref name="notebooks"/> on <paramref name="kernel"/>. With <paramref name="after"/>,
    /// it follows a `perflab run` of them (its --out folder and the folder it was given): each notebook starts once its
    /// report is written, or once <see cref="RunFinishedMarker"/> is there, at low priority.
    /// </summary>
    public static async Task<NotebookRoute> RunAsync(string kernel, IReadOnlyDictionary<string, string> environment, IReadOnlyList<string> notebooks, (string Reports, string Root)? after = null)
    {
        var clock = Stopwatch.StartNew();
        string[] following = after is { } followed ? ["--after", followed.Reports, "--root", followed.Root] : [];
        var run = await JupyterPython.RunAsync(
            JupyterPython.Python,
            [JupyterPython.Script("run_notebooks.py"), "--kernel", kernel, .. following, .. notebooks],
            environment,
            NotebookTimeout * notebooks.Count + TimeSpan.FromMinutes(1)).ConfigureAwait(false);
        JsonArray? ran = null;
        try
        {
            ran = JsonNode.Parse(run.Output)?["notebooks"]?.AsArray();
        }
        catch (System.Text.Json.JsonException)
        {
        }

        return new NotebookRoute(kernel, run, ran, clock.Elapsed);
    }

    /// <summary>Each error output (or error-like stderr) as "notebook cell N (kind):" and its text, shortened.</summary>
    public IReadOnlyList<string> Problems() =>
        Notebooks?.SelectMany(nb => nb!["problems"]!.AsArray().Select(p =>
            $"{Relative(nb)} cell {p!["cell"]?.ToString() ?? "-"} ({p["kind"]}):\n{Shorten((string)p["text"]!)}")).ToList() ?? [];

    /// <summary>One line per notebook (seconds, cells, problems) and the total.</summary>
    public IEnumerable<string> Timings()
    {
        foreach (var nb in Notebooks ?? [])
        {
            yield return string.Create(CultureInfo.InvariantCulture, $"{(double)nb!["seconds"]!,7:0.0} s  {Relative(nb)}  ({(int)nb["cells"]!} cells, {nb["problems"]!.AsArray().Count} problem(s))");
        }

        yield return string.Create(CultureInfo.InvariantCulture, $"{Took.TotalSeconds,7:0.0} s  the whole route ({Notebooks?.Count ?? 0} notebooks on {Kernel})");
    }

    /// <summary>Fails unless the script ran every notebook in <paramref name="notebooks"/> and no cell had an error output.</summary>
    public void AssertEveryCellRan(IReadOnlyList<string> notebooks, string kernelDescription)
    {
        Assert.True(Run.ExitCode == 0, $"run_notebooks.py --kernel {Kernel} failed:\n{Run}");
        Assert.True(Notebooks is not null, $"run_notebooks.py --kernel {Kernel} printed no JSON report:\n{Run}");
        Assert.Equal(notebooks.Count, Notebooks.Count);
        var problems = Problems();
        Assert.True(problems.Count == 0, $"{problems.Count} problem(s) running the notebooks in {kernelDescription}:\n\n{string.Join("\n\n", problems)}\n--- driver stderr\n{Shorten(Run.Error)}");
    }

    private static string Relative(JsonNode? notebook) => Path.GetRelativePath(Repo.Root, (string)notebook!["path"]!);

    private static string Shorten(string text)
    {
        var trimmed = text.Trim();
        return trimmed.Length <= TextLimit ? trimmed : trimmed[..TextLimit] + $" ... ({trimmed.Length - TextLimit} more characters)";
    }
}
