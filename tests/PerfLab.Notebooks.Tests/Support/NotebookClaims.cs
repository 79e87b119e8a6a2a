using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Disassembly;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;
using PerfLab.Results;
using PerfLab.Runtimes;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// What the claims tests read. Listings and smoke results come from the notebook routes' own run (the
/// claims tests share the routes' collection, whose fixture runs every notebook first, and this run's
/// caches): a claim asks exactly what the notebook's cell asked, and fails if the route did not answer
/// it. Exact bytes per call come from the quick route (<see cref="SteadyStateRuns"/>): a smoke run measures one
/// call of Tier0 code.
/// </summary>
public static class NotebookClaims
{
    private static readonly AsmEngine Asm = new();

    private static readonly BenchmarkEngine Runner = new();

    /// <summary>Every runtime the course measures, oldest first.</summary>
    public static readonly string[] AllRuntimes = ["net8.0", "net9.0", "net10.0"];

    /// <summary>What jit/07 and regex/04 set to show a CPU without AVX-512 (.NET 10 reads the second name).</summary>
    public static readonly string[] NoAvx512 = ["DOTNET_EnableAVX512F=0", "DOTNET_EnableAVX512=0"];

    /// <summary>
    /// The compilable part of the notebook cell that declares <paramref name="marker"/> ("class X": its usings
    /// and types, without the cell's statements), as Lab extracts it when the cell runs.
    /// </summary>
    public static string CellClasses(string notebook, string marker)
    {
        var document = NotebookDocument.Load(Path.Combine(Repo.Notebooks, notebook));
        var cell = document.Cells.FirstOrDefault(c => c.Kind == CellKind.Code && c.Source.Contains(marker, StringComparison.Ordinal))
            ?? throw new InvalidOperationException($"{notebook} has no code cell declaring `{marker}`: did the class get renamed?");
        return BenchmarkCell.Extract(cell.Source, marker["class ".Length..], marker);
    }

    /// <summary>Several cells' classes as one source: their usings, deduplicated, on top (one run measures them all).</summary>
    public static string CellsTogether(string notebook, params string[] markers)
    {
        var parts = markers.Select(marker => CellClasses(notebook, marker).Split('\n')).ToArray();
        var usings = parts.SelectMany(lines => lines.Where(l => l.StartsWith("using ", StringComparison.Ordinal))).Distinct();
        return string.Join("\n", usings.Concat(parts.SelectMany(lines => lines.Where(l => !l.StartsWith("using ", StringComparison.Ordinal)))));
    }

    /// <summary>
    /// The listings a notebook cell's <c>Lab.AsmAsync&lt;X&gt;(variant, env, methods)</c> showed in this test run,
    /// read from the routes' capture. Pass the call's own arguments: a different list is a different capture.
    /// </summary>
    public static async Task<AsmReport> RouteListingsAsync(string notebook, string marker, AsmVariant variant = AsmVariant.SteadyState, string[]? env = null, params string[] methods)
    {
        var request = AsmRequestLikeLab(CellClasses(notebook, marker), marker["class ".Length..], variant, env ?? [], methods);
        var lines = new List<string>();
        var report = await Asm.CaptureAsync(request, lines.Add);
        var cached = lines.Count(l => l.Contains("cached listing", StringComparison.Ordinal));
        Assert.True(cached == request.Runtimes.Count,
            $"{notebook}: no notebook route captured Lab.AsmAsync<{marker["class ".Length..]}>({Describe(variant, env, methods)}) in this test run, so the claim "
            + "had to capture it itself. Claims read the routes' listings: is that call still in the notebook with these arguments?\n" + string.Join("\n", lines));
        return report;
    }

    /// <summary>
    /// A capture the notebook does not show, for what its text says of code it only times or of other hardware:
    /// the one kind of listing a claim makes itself, every method it needs at once.
    /// </summary>
    public static Task<AsmReport> OwnListingsAsync(string notebook, string marker, string[] env, params string[] methods) =>
        Asm.CaptureAsync(AsmRequestLikeLab(CellClasses(notebook, marker), marker["class ".Length..], AsmVariant.SteadyState, env, methods));

    /// <summary>
    /// The smoke-mode run a notebook cell's <c>Lab.RunAsync&lt;X&gt;(runtimes, env)</c> made in this test run, read
    /// from the routes' results.
    /// </summary>
    public static async Task<BenchmarkRun> RouteRunAsync(string notebook, string marker, string[]? runtimes = null, string[]? env = null)
    {
        var name = marker["class ".Length..];
        var run = await Runner.RunAsync(new BenchmarkRequest
        {
            Source = CellClasses(notebook, marker),
            SourcePath = "notebook-cell.cs",
            Runtimes = RuntimeCatalog.FindAll(runtimes),
            Mode = BenchmarkMode.Smoke,
            Filter = [name + ".*"],
            Environment = BenchmarkRequest.ParseEnvironment(env ?? []),
        });
        Assert.True(run.Cached, $"{notebook}: no notebook route ran Lab.RunAsync<{name}>() in smoke mode on {string.Join(", ", runtimes ?? AllRuntimes)} in this test run, so the claim had to run it itself. Is that call still in the notebook with these arguments?");
        return run;
    }

    /// <summary>
    /// Bytes per call of each (method, runtime) as the routes' smoke runs of <paramref name="cells"/> measured them
    /// (each cell's class with the runtimes its Lab.RunAsync names; null: every runtime). Only for claims that
    /// allow kilobytes of slack: a smoke run measures one call of Tier0 code, and any allocation of another
    /// thread of the process falls into it. Exact bytes come from <see cref="SteadyStateRuns"/>.
    /// </summary>
    public static async Task<Dictionary<(string Method, string Runtime), long?>> RouteAllocationsAsync(string notebook, params (string Marker, string[]? Runtimes)[] cells)
    {
        var bytes = new Dictionary<(string Method, string Runtime), long?>();
        foreach (var (marker, runtimes) in cells)
        {
            foreach (var result in (await RouteRunAsync(notebook, marker, runtimes)).Results)
            {
                bytes.Add((result.Method, result.Runtime), result.AllocatedBytes);
            }
        }

        return bytes;
    }

    /// <summary>
    /// Each asm view of <paramref name="notebook"/>'s report, as `perflab run` wrote it in this test run, opened in
    /// Chromium: the view listing <c>Type:Method</c> of each lead must show that listing and fold every other one.
    /// Returns what differs, one line per view.
    /// </summary>
    public static async Task<IReadOnlyList<string>> OpenListingProblemsAsync(string reports, string notebook, params (string Type, string Method)[] leads)
    {
        var report = Path.Combine(reports, Path.ChangeExtension(notebook, ".html"));
        await using var browser = await OfflineBrowser.OpenAsync(report);
        // Per view, "shown NAME" or "folded NAME" per listing; checkVisibility, as a folded <details> keeps its table laid out.
        var views = await browser.Tab.EvaluateAsync<string[][]>("""
            () => [...document.querySelectorAll('.perflab-asm')].map(view => [...view.querySelectorAll('details')].map(d =>
              ([...d.querySelectorAll('table')].some(t => t.checkVisibility()) ? 'shown ' : 'folded ') + d.querySelector('summary').textContent))
            """);
        var problems = new List<string>();
        foreach (var (type, method) in leads)
        {
            var name = $"{type}:{method}";
            var view = views.FirstOrDefault(v => v.Any(l => l.Split(' ', 2)[1].StartsWith(name + "(", StringComparison.Ordinal)));
            var shown = view?.Where(l => l.StartsWith("shown ", StringComparison.Ordinal)).Select(l => l["shown ".Length..]).ToArray();
            if (shown is null)
            {
                problems.Add($"{notebook}: no asm view lists {name}");
            }
            else if (shown.Length != 1 || !shown[0].StartsWith(name + "(", StringComparison.Ordinal))
            {
                problems.Add($"{notebook}: the view listing {name} shows [{string.Join("; ", shown)}] open, not {name} alone");
            }
        }

        return problems;
    }

    /// <summary>
    /// Bytes per call are averaged over the measured calls, and BenchmarkDotNet counts the whole process: another
    /// thread's allocation during the measurement adds a fraction of an object per call (CI saw 10 and 18 B on lookups
    /// that allocate nothing, though the quick route measures such a call again and keeps the fewer bytes). So "nothing" means less than one object
    /// per call (24 bytes, the smallest); a claim of some bytes keeps a margin of 8, since object sizes differ in steps
    /// of 8.
    /// </summary>
    public static void AllocatesAbout(int expected, long? actual, string what) =>
        Assert.True(actual >= expected && actual < expected + (expected == 0 ? SmallestObject : 8), $"{what}: {actual} B per call, the notebook says {expected}");

    private const int SmallestObject = 24;

    /// <summary>An instruction with single spaces, as the notebooks quote it ("cmp esi, dword ptr [rax+0x08]").</summary>
    public static string Spaced(string instruction) => System.Text.RegularExpressions.Regex.Replace(instruction.Trim(), @"\s+", " ");

    /// <summary>The one listing of <paramref name="runtime"/> in a capture of one method.</summary>
    public static AsmListing Only(AsmReport report, string runtime) => Assert.Single(report.Runtimes.Single(r => r.Runtime == runtime).Listings);

    /// <summary>The listing of <paramref name="method"/> on <paramref name="runtime"/> in a capture of several.</summary>
    public static AsmListing Method(AsmReport report, string runtime, string method)
    {
        var listings = report.Runtimes.Single(r => r.Runtime == runtime).Listings;
        // "Class:Method(args)", or "Class:Method[T1,T2](args)" for a generic method.
        return listings.SingleOrDefault(l => l.Method.Contains(":" + method + "(", StringComparison.Ordinal) || l.Method.Contains(":" + method + "[", StringComparison.Ordinal))
            ?? throw new Xunit.Sdk.XunitException($"no listing of {method} on {runtime}; the capture has {string.Join(", ", listings.Select(l => l.Method))}");
    }

    /// <summary>
    /// A PGO-shaped listing's size follows the profile and can move by a byte or two between runs. One that calls
    /// the runtime can move by a byte a call: jit/05's LogReading on .NET 10 (two calls) was 63 bytes in one process and
    /// 62 in another on the same AMD EPYC (2026-11-29); the likely reason, not traced: a call through an indirection
    /// cell takes 6 bytes and a direct one 5, and which the JIT emits depends on where the target lies.
    /// </summary>
    public static void SizeIs(int expected, AsmListing listing, string what)
    {
        if (listing.UsesPgo)
        {
            Assert.True(Math.Abs(listing.CodeSize - expected) <= 3, $"{what}: {listing.CodeSize} bytes, expected about {expected}");
        }
        else
        {
            Assert.True(Math.Abs(listing.CodeSize - expected) <= listing.Calls, $"{what}: {listing.CodeSize} bytes, expected {expected}{(listing.Calls > 0 ? $" (give or take a byte for each of its {listing.Calls} calls)" : "")}");
        }
    }

    /// <summary>
    /// What a notebook's own classes compute (positions, counts, answers), evaluated in a notebook session as the
    /// reader's kernel runs them: the setup cell, then each class, then the expression; its displayed text.
    /// </summary>
    public static async Task<string> EvaluateAsync(string notebook, string[] markers, string expression)
    {
        var path = Path.Combine(Repo.Notebooks, notebook);
        using var cells = new CellRecorder(Path.GetDirectoryName(path));
        var setup = await cells.RunAsync(SetupCell.For(path, Repo.Root));
        Assert.True(setup.Outcome.Succeeded, setup.ToString());
        foreach (var marker in markers)
        {
            var declared = await cells.RunAsync(CellClasses(notebook, marker));
            Assert.True(declared.Outcome.Succeeded, $"{marker}: {declared}");
        }

        var value = await cells.RunAsync(expression);
        Assert.True(value.Outcome.Succeeded, value.ToString());
        return value.ResultText ?? "";
    }

    // The request Lab.AsmAsync<T>(variant, env, methods) makes for a class (Lab's own naming: Class.Method).
    private static AsmRequest AsmRequestLikeLab(string source, string name, AsmVariant variant, string[] env, string[] methods) => new()
    {
        Source = source,
        SourcePath = "notebook-cell.cs",
        Methods = methods.Select(m => m.Contains('.', StringComparison.Ordinal) ? m : name + "." + m).ToArray(),
        FullOpts = variant == AsmVariant.FullOpts,
        NoPgo = variant == AsmVariant.NoPgo,
        Tier0 = variant == AsmVariant.Tier0,
        Environment = BenchmarkRequest.ParseEnvironment(env),
    };

    private static string Describe(AsmVariant variant, string[]? env, string[] methods) =>
        string.Join(", ", new[] { variant == AsmVariant.SteadyState && env is null ? null : "AsmVariant." + variant, env is null ? null : "[" + string.Join(", ", env) + "]" }
            .Concat(methods.Select(m => "\"" + m + "\""))
            .Where(a => a is not null));
}
