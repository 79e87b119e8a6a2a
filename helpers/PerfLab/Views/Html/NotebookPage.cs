namespace PerfLab.Views.Html;

/// <summary>
/// The page a notebook frontend shows one display session's outputs on (the course kernel's session, a headless
/// run's): whether plotly.js has gone to it yet. Each session owns its page, so two notebooks run in one process
/// each send plotly.js with their own first chart; .NET Interactive, with no session of the course's, uses
/// <see cref="NotebookFormatterSource.InteractivePage"/>.
/// </summary>
public sealed class NotebookPage
{
    private int _plotlySent;

    /// <summary>
    /// plotly.js for a notebook frontend, the first time this page shows a chart, guarded so a page that already
    /// has it does not run it twice; empty afterwards. Marked, so a report that carries plotly.js in its head can
    /// drop it (<see cref="PlotlyAsset.WithoutLoader"/>).
    /// </summary>
    public string PlotlyLoaderOnce() => Interlocked.Exchange(ref _plotlySent, 1) == 0 ? PlotlyAsset.Loader() : "";

    /// <summary>
    /// Sends plotly.js again with the next chart: the output that carried it is gone (its cell re-run or
    /// deleted), and a saved notebook reopened later needs one output that still holds it.
    /// </summary>
    public void ResendPlotlyLoader() => Interlocked.Exchange(ref _plotlySent, 0);
}
