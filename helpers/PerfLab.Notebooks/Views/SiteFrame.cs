namespace PerfLab.Notebooks.Views;

/// <summary>How a notebook's page sits in the course site (<c>perflab site</c>) instead of standing alone.</summary>
/// <param name="Stylesheet">The address of the site's one stylesheet, relative to the page.</param>
/// <param name="PlotlyScript">The address of the site's one copy of plotly.js, relative to the page.</param>
/// <param name="Header">The page's header: navigation, title, where the results and listings come from (trusted HTML).</param>
/// <param name="Footer">The page's footer (trusted HTML).</param>
/// <param name="Notes">A one-line note under a code cell's source, by cell index (trusted HTML).</param>
/// <param name="HiddenOutputs">Code cells, by index, whose outputs the page leaves out (its note says why).</param>
/// <param name="Links">Where each link of the prose goes, or null to keep its words without a link.</param>
public sealed record SiteFrame(
    string Stylesheet,
    string PlotlyScript,
    string Header,
    string Footer,
    IReadOnlyDictionary<int, string> Notes,
    IReadOnlySet<int> HiddenOutputs,
    Func<string, string?> Links);
