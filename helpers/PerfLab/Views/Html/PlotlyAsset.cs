using System.Text;

namespace PerfLab.Views.Html;

/// <summary>
/// The course's one copy of plotly.js (Plotly.NET's, embedded in its package; never a CDN: workshops go offline), in
/// each form a page takes it: a file others load by its address (<see cref="File"/>, the site's and the room's
/// <see cref="AssetPath"/>), packed into a standalone page's head (<see cref="PackedPageScript"/>), or as a loader a
/// notebook frontend's page gets once (<see cref="NotebookPage.PlotlyLoaderOnce"/>) and a report drops again.
/// </summary>
public static class PlotlyAsset
{
    /// <summary>Where a site or the room serves <see cref="File"/>, relative to its root.</summary>
    public const string AssetPath = "assets/plotly.min.js";

    private const string Resource = "Plotly.NET.plotly-2.28.0.min.js";

    // plotly.js for a notebook frontend (NotebookPage sends it once per page), marked so reports can drop it.
    internal static string Loader() => $"<script {LoaderAttribute}>if (typeof Plotly === 'undefined') {{" + InlineScript() + "}</script>";

    /// <summary>Whether <paramref name="html"/> holds the loader <see cref="NotebookPage.PlotlyLoaderOnce"/> put in it.</summary>
    /// <param name="html">An output's HTML.</param>
    public static bool HasLoader(string html) =>
        html?.Contains($"<script {LoaderAttribute}>", StringComparison.Ordinal) == true;

    /// <summary><paramref name="html"/> without the plotly.js loader <see cref="NotebookPage.PlotlyLoaderOnce"/> put in it.</summary>
    /// <param name="html">An output's HTML.</param>
    public static string WithoutLoader(string html)
    {
        ArgumentNullException.ThrowIfNull(html);
        var start = html.IndexOf($"<script {LoaderAttribute}>", StringComparison.Ordinal);
        if (start < 0)
        {
            return html;
        }

        // plotly.js comes with every "</script" escaped (InlineScript), so the first one closes the loader.
        var end = html.IndexOf("</script>", start, StringComparison.Ordinal);
        return end < 0 ? html : html[..start] + html[(end + "</script>".Length)..];
    }

    private const string LoaderAttribute = "data-perflab-plotly";

    /// <summary>plotly.js as a file, for pages that load it by its address (the course site, the room's page).</summary>
    public static string File() => Text();

    // plotly.js for an inline script element: "</script" in it escaped, so the element ends where it should.
    private static string InlineScript() => Text().Replace("</script", "<\\/script", StringComparison.OrdinalIgnoreCase);

    /// <summary>
    /// The script element that brings plotly.js to a standalone page's head, packed: gzip in base64 is about
    /// 1.45 MB where plotly.js is 3.6 MB, the most of every report. The browser unpacks it with
    /// DecompressionStream and runs it as an inline script; until then Plotly.newPlot queues its calls, so
    /// the charts the page draws while it loads are drawn when plotly.js is ready. A browser without
    /// DecompressionStream (before 2023) shows why in each chart's place. Notebook frontends get
    /// <see cref="NotebookPage.PlotlyLoaderOnce"/>, plain: a frontend's page may forbid what unpacking needs.
    /// </summary>
    public static string PackedPageScript() => Packed.Value;

    /// <summary>The attribute that marks <see cref="PackedPageScript"/>'s element (one per page).</summary>
    public const string PackedAttribute = "data-perflab-plotly-packed";

    private static readonly Lazy<string> Packed = new(() =>
    {
        using var packed = new MemoryStream();
        using (var gzip = new System.IO.Compression.GZipStream(packed, System.IO.Compression.CompressionLevel.SmallestSize))
        {
            gzip.Write(Encoding.UTF8.GetBytes(Text()));
        }

        return $"<script {PackedAttribute}>" + PlotlyUnpacker.Replace("PACKED", Convert.ToBase64String(packed.ToArray()), StringComparison.Ordinal) + "</script>";
    });

    // Queues newPlot until plotly.js is unpacked and run, then replays the calls in order.
    private const string PlotlyUnpacker = """
        (function () {
          var queued = [];
          window.Plotly = { newPlot: function () { queued.push(arguments); return Promise.resolve(); } };
          function fail(why) {
            var show = function () { document.querySelectorAll('.chart').forEach(function (c) { c.textContent = 'The charts cannot be drawn: ' + why; }); };
            if (document.readyState === 'loading') { document.addEventListener('DOMContentLoaded', show); } else { show(); }
          }
          if (typeof DecompressionStream === 'undefined') { fail('this browser cannot unpack plotly.js (it needs DecompressionStream, in every browser since 2023).'); return; }
          var text = atob('PACKED'), bytes = new Uint8Array(text.length);
          for (var i = 0; i < text.length; i++) { bytes[i] = text.charCodeAt(i); }
          new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(function (code) {
            delete window.Plotly;
            var script = document.createElement('script');
            script.text = code;
            document.head.appendChild(script);
            queued.forEach(function (call) { window.Plotly.newPlot.apply(window.Plotly, call); });
          }).catch(function (error) { fail('plotly.js did not unpack (' + error + ').'); });
        })();
        """;

    private static string Text()
    {
        using var stream = typeof(Plotly.NET.Chart).Assembly.GetManifestResourceStream(Resource)
            ?? throw new PerfLabException($"plotly.js is missing from the Plotly.NET package ({Resource}).", "Restore the packages again (`dotnet restore`).");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }
}
