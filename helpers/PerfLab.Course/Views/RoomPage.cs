using PerfLab.Course.Room;

namespace PerfLab.Course.Views;

/// <summary>
/// The room's page (GET /): for the cell picked (the most recent by default), every laptop's ratio with its interval as
/// a dot with whiskers, one chart per case and runtime, the laptops grouped (and colored) by CPU family and
/// instruction sets; the reference machines' ratio and the post's as labelled lines, where they exist for the chart's
/// row (<see cref="RoomLines"/>); who reported and who has not. It draws from GET /api/summary (<see cref="RoomSummary"/>) and draws
/// again on each server-sent event of GET /api/events. No string the laptops sent is ever parsed as HTML: the page
/// builds its text with textContent, and hands Plotly (which reads a few tags in labels) every string escaped. Its
/// script is a file of its own, so the page's Content-Security-Policy runs no inline script at all. plotly.js is the
/// course's own copy (Plotly.NET's, as every report inlines it), served by the room: the page needs no network beyond it.
/// </summary>
public static class RoomPage
{
    /// <summary>Where the page's script is served.</summary>
    public const string ScriptPath = "/assets/room.js";

    /// <summary>Where plotly.js is served.</summary>
    public const string PlotlyPath = "/" + PerfLab.Views.Html.PlotlyAsset.AssetPath;

    /// <summary>The page's Content-Security-Policy: scripts from the room only, none inline; Plotly's inline styles allowed.</summary>
    public const string ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    /// <summary>The page.</summary>
    public static string Html { get; } = $$"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>PerfLab room</title>
        <link rel="icon" href="data:,">
        <style>
        body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #222; }
        header { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: baseline; }
        h1 { font-size: 1.4rem; margin: 0; }
        h2 { font-size: 1.15rem; margin: 1.2rem 0 0.3rem; }
        select { font-size: 1rem; max-width: 60vw; }
        .who, .missing, .smoke { margin: 0.2rem 0; }
        .missing { color: #8a4b00; }
        .chart { width: 100%; max-width: 1100px; height: 380px; }
        .empty { color: #666; }
        </style>
        <script src="{{PlotlyPath}}"></script>
        <script src="{{ScriptPath}}" defer></script>
        </head>
        <body>
        <header>
        <h1>PerfLab room</h1>
        <p id="room" class="summary">Waiting for the room…</p>
        <label>Cell <select id="cell"></select></label>
        </header>
        <main id="cells"></main>
        </body>
        </html>

        """;

    /// <summary>The page's script.</summary>
    public const string Script = """
        (function () {
          'use strict';
          var colors = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'];
          var room = document.getElementById('room');
          var select = document.getElementById('cell');
          var main = document.getElementById('cells');
          var picked = null;
          var latest = null;

          // Plotly reads a few tags (<b>, <br>, <a href>) in its labels and turns &amp;, &lt; and &gt; back into text: every
          // string it gets has those three escaped, so no tag of a laptop's reaches it (quotes outside a tag are only text).
          function esc(text) {
            return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
          }

          function el(tag, cls, text) {
            var e = document.createElement(tag);
            if (cls) { e.className = cls; }
            if (text !== undefined) { e.textContent = text; }
            return e;
          }

          function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

          function draw() {
            if (!latest) { return; }
            room.textContent = plural(latest.laptops.length, 'laptop', 'laptops') + ' in the room, ' + plural(latest.cells.length, 'cell', 'cells') + ' run.';
            var keep = picked;
            select.replaceChildren();
            latest.cells.forEach(function (cell, i) {
              var option = el('option', null, (i === 0 ? 'latest: ' : '') + cell.title + ' (' + plural(cell.results.length, 'laptop', 'laptops') + ')');
              option.value = cell.code;
              select.appendChild(option);
            });
            var cell = latest.cells.find(function (c) { return c.code === keep; }) || latest.cells[0];
            main.replaceChildren();
            if (!cell) {
              main.appendChild(el('p', 'empty', 'No results yet. Each laptop joins with the command printed by perflab room serve, then runs a cell.'));
              return;
            }

            select.value = cell.code;
            main.appendChild(el('h2', null, cell.title));
            main.appendChild(el('p', 'who', plural(cell.results.length, 'laptop', 'laptops') + ' reported: ' + cell.results.map(function (r) { return r.nickname + ' (' + r.mode + ')'; }).join(', ')));
            main.appendChild(el('p', 'missing', cell.missing.length ? 'Not yet: ' + cell.missing.join(', ') : 'Every laptop in the room has run it.'));
            var smoke = cell.results.filter(function (r) { return r.ratios.length === 0; });
            if (smoke.length) {
              main.appendChild(el('p', 'smoke', 'Ran it without numbers (smoke mode, or no ratio): ' + smoke.map(function (r) { return r.nickname; }).join(', ')));
            }

            function keyOf(x) { return x.case + ' on ' + x.runtime + ' / ' + x.baseline; }
            var series = [];
            cell.results.forEach(function (r) {
              r.ratios.forEach(function (ratio) {
                var key = keyOf(ratio);
                if (series.indexOf(key) < 0) { series.push(key); }
              });
            });
            // A chart for every row the reference machines or the post have a ratio of, laptops' points or not.
            cell.lines.forEach(function (line) { if (series.indexOf(keyOf(line)) < 0) { series.push(keyOf(line)); } });
            var groups = [];
            cell.results.forEach(function (r) { if (groups.indexOf(r.group) < 0) { groups.push(r.group); } });

            series.forEach(function (key) {
              var chart = el('div', 'chart');
              main.appendChild(chart);
              var traces = groups.map(function (group, g) {
                var points = [];
                cell.results.filter(function (r) { return r.group === group; }).forEach(function (r) {
                  r.ratios.forEach(function (ratio) {
                    if (keyOf(ratio) === key) { points.push({ r: r, ratio: ratio }); }
                  });
                });
                return {
                  type: 'scatter', mode: 'markers', name: esc(group),
                  x: points.map(function (p) { return esc(p.r.nickname); }),
                  y: points.map(function (p) { return p.ratio.ratio; }),
                  error_y: {
                    type: 'data', symmetric: false,
                    array: points.map(function (p) { return p.ratio.high === null ? 0 : p.ratio.high - p.ratio.ratio; }),
                    arrayminus: points.map(function (p) { return p.ratio.low === null ? 0 : p.ratio.ratio - p.ratio.low; })
                  },
                  hovertext: points.map(function (p) {
                    var interval = p.ratio.low === null ? 'no interval' : p.ratio.low.toFixed(2) + '–' + p.ratio.high.toFixed(2);
                    return esc(p.r.nickname) + '<br>' + esc(p.r.processor) + '<br>' + p.ratio.ratio.toFixed(2) + ' (' + interval + ')';
                  }),
                  hoverinfo: 'text',
                  marker: { size: 10, color: colors[g % colors.length] }
                };
              });
              // The reference machines' ratio (dashed, grey) and the post's (dash-dot, purple), labelled at the right.
              var lines = cell.lines.filter(function (line) { return keyOf(line) === key; });
              var shapes = [{ type: 'line', xref: 'paper', x0: 0, x1: 1, y0: 1, y1: 1, line: { dash: 'dot', color: '#888' } }];
              var annotations = [];
              lines.forEach(function (line) {
                var post = line.kind === 'post';
                shapes.push({ type: 'line', xref: 'paper', x0: 0, x1: 1, y0: line.ratio, y1: line.ratio, line: { dash: post ? 'dashdot' : 'dash', width: 2, color: post ? '#7b3294' : '#555' } });
                annotations.push({ xref: 'paper', x: 1, xanchor: 'right', y: line.ratio, yanchor: 'bottom', showarrow: false, text: esc(line.label + ' ' + line.ratio.toFixed(2)), font: { size: 11, color: post ? '#7b3294' : '#555' } });
              });
              window.Plotly.newPlot(chart, traces, {
                title: { text: esc(key) },
                xaxis: { type: 'category', title: { text: 'laptop' } },
                yaxis: { title: { text: 'ratio (below 1: faster)' }, rangemode: 'tozero' },
                shapes: shapes,
                annotations: annotations,
                showlegend: true,
                legend: { title: { text: 'CPU' } },
                margin: { t: 50 }
              }, { displaylogo: false, responsive: true });
            });
          }

          function refresh() {
            fetch('/api/summary', { cache: 'no-store' })
              .then(function (response) { return response.json(); })
              .then(function (summary) { latest = summary; draw(); })
              .catch(function (error) { room.textContent = 'The room does not answer (' + error + '); retrying.'; });
          }

          var pending = null;
          function soon() {
            if (pending) { return; }
            pending = setTimeout(function () { pending = null; refresh(); }, 250);
          }

          select.addEventListener('change', function () { picked = select.value; draw(); });
          new EventSource('/api/events').onmessage = soon;
          refresh();
        })();

        """;
}
