using PerfLab.Notebooks.Views;
using PerfLab.Results;
using PerfLab.Views.Html;

namespace PerfLab.Notebooks.Execution;

/// <summary>What a running cell shows and replaces in place: HTML for notebook frontends, and the same as text.</summary>
/// <param name="Html">An HTML fragment.</param>
/// <param name="Text">Its text form (text/plain).</param>
internal sealed record LiveView(string Html, string Text)
{
    /// <summary>The MIME bundle a Jupyter display carries.</summary>
    public IReadOnlyDictionary<string, string> Data => new Dictionary<string, string>(StringComparer.Ordinal) { ["text/html"] = Html, ["text/plain"] = Text };

    /// <summary>A run's table so far: the table alone (its charts and plotly.js come with the final result).</summary>
    public static LiveView Of(BenchmarkRun run) => new(ResultsHtml.Table(run), run.ToString());

    /// <summary>One progress line.</summary>
    public static LiveView Line(string line) => new(OutputHtml.ProgressLine(line), line);
}
