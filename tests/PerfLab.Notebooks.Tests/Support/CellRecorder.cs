using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>Runs cells in a session and keeps what each one published, for assertions with readable failure messages.</summary>
public sealed class CellRecorder : IDisposable
{
    /// <param name="folder">The notebook's folder; default notebooks/.</param>
    /// <param name="mode">The session's benchmark mode; null: PERFLAB_MODE's, as a kernel resolves it.</param>
    /// <param name="readsOnlyBytes">Whether the session's quick and full runs are read for bytes per call only (<see cref="NotebookSession.RunsReadOnlyBytes"/>).</param>
    public CellRecorder(string? folder = null, PerfLab.Contract.BenchmarkMode? mode = PerfLab.Contract.BenchmarkMode.Smoke, bool readsOnlyBytes = false)
    {
        Session = new NotebookSession(folder ?? Repo.Notebooks, mode is { } given ? ModeChoice.Given(given) : null) { RunsReadOnlyBytes = readsOnlyBytes };
    }

    public NotebookSession Session { get; }

    public async Task<Cell> RunAsync(string code, CancellationToken cancellationToken = default)
    {
        var outputs = new List<(TimeSpan At, CellOutput Output)>();
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var outcome = await Session.ExecuteAsync(code, o => { lock (outputs) { outputs.Add((clock.Elapsed, o)); } }, null, cancellationToken);
        lock (outputs)
        {
            return new Cell(outcome, outputs.ToList());
        }
    }

    public void Dispose() => Session.Dispose();

    public sealed record Cell(CellOutcome Outcome, IReadOnlyList<(TimeSpan At, CellOutput Output)> Timed)
    {
        public IEnumerable<CellOutput> Outputs => Timed.Select(t => t.Output);

        public string Stdout => string.Concat(Outputs.OfType<StreamOutput>().Where(s => s.Name == "stdout").Select(s => s.Text));

        public ErrorOutput? Error => Outputs.OfType<ErrorOutput>().FirstOrDefault();

        public DisplayOutput? Result => Outputs.OfType<DisplayOutput>().FirstOrDefault(d => d.IsResult);

        public string? ResultText => Result?.Data["text/plain"];

        public override string ToString() =>
            $"succeeded={Outcome.Succeeded}\n" + string.Join("\n", Outputs.Select(o => o switch
            {
                StreamOutput s => $"[{s.Name}] {s.Text}",
                ErrorOutput e => $"[error {e.Name}] {e.Message}\n  " + string.Join("\n  ", e.Details),
                DisplayOutput d => $"[{(d.IsResult ? "result" : "display")}] " + string.Join(", ", d.Data.Keys) + ": " + d.Data["text/plain"],
                _ => o.ToString(),
            }));
    }
}
