using PerfLab.Views.Terminal;

namespace PerfLab.Disassembly;

/// <summary>What to show the assembly of.</summary>
public sealed record AsmRequest
{
    /// <summary>The C# source.</summary>
    public required string Source { get; init; }

    /// <summary>The path compiler errors point at.</summary>
    public required string SourcePath { get; init; }

    /// <summary>The methods as the reader names them: "Sum", "Bench.Sum", "Sum(int[])", a property or a local function; empty means every [Benchmark] method.</summary>
    public IReadOnlyList<string> Methods { get; init; } = [];

    /// <summary>Runtimes, oldest first; each is compared with the one before it.</summary>
    public IReadOnlyList<Runtimes.PinnedRuntime> Runtimes { get; init; } = PerfLab.Runtimes.RuntimeCatalog.Default;

    /// <summary>What SharpLab and Compiler Explorer show: tiering off, so the first code is fully optimized.</summary>
    public bool FullOpts { get; init; }

    /// <summary>Dynamic PGO off (DOTNET_TieredPGO=0).</summary>
    public bool NoPgo { get; init; }

    /// <summary>The first code the JIT produced for the method (Tier0: compiled fast, unoptimized) instead of the steady state.</summary>
    public bool Tier0 { get; init; }

    /// <summary>Environment variables set on every host process, e.g. DOTNET_EnableAVX512F=0 (see <see cref="Benchmarks.BenchmarkRequest.ParseEnvironment"/>).</summary>
    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();

    /// <summary>How long the host drives the benchmark towards optimized code.</summary>
    public TimeSpan DriveTimeout { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Longest time one runtime's process may take. The drive checks its own deadline between rounds of 200 calls, so a
    /// slow method overruns it: collections/04's TicketTriage (27 ms a call) passed 60 s beside CI's three test
    /// projects on an AMD EPYC of 2 cores (2026-11-29).
    /// </summary>
    public TimeSpan ProcessTimeout { get; init; } = TimeSpan.FromSeconds(180);

    /// <summary>Capture even when listings of an identical request are cached, and replace them.</summary>
    public bool Force { get; init; }

    /// <summary>"steady state", "FullOpts", "steady state, PGO off" or "Tier0", and the environment it ran with.</summary>
    public string Variant => (FullOpts, NoPgo, Tier0) switch
    {
        (true, _, _) => "FullOpts (tiering off)",
        (_, _, true) => NoPgo ? "Tier0 (first compile, unoptimized), dynamic PGO off" : "Tier0 (first compile, unoptimized)",
        (_, true, _) => "steady state, dynamic PGO off",
        _ => "steady state (Tier1 with dynamic PGO)",
    } + (Environment.Count > 0 ? ", with " + string.Join(", ", Environment.Select(e => $"{e.Key}={e.Value}")) : "");
}

/// <summary>The listing of each method on one runtime.</summary>
/// <param name="Runtime">Moniker.</param>
/// <param name="Version">Exact version that ran.</param>
/// <param name="Listings">One per method found (the last optimized code the JIT produced).</param>
/// <param name="NotCompiled">Methods the JIT never compiled on its own (inlined everywhere, or never called).</param>
public sealed record RuntimeAsm(string Runtime, string Version, IReadOnlyList<AsmListing> Listings, IReadOnlyList<string> NotCompiled);

/// <summary>Runtimes that produced the same code for a method, and that code.</summary>
/// <param name="Runtimes">Monikers, in order.</param>
/// <param name="Listing">The listing of the first of them.</param>
public sealed record AsmGroup(IReadOnlyList<string> Runtimes, AsmListing Listing)
{
    /// <summary>"net8.0, net9.0".</summary>
    public string Label => string.Join(", ", Runtimes);

    /// <summary>"Tier1, PGO, 59 bytes".</summary>
    public string Description => $"{Listing.Tier}{(Listing.UsesPgo ? ", PGO" : "")}, {Listing.CodeSize} bytes";

    /// <summary>"bounds checks 1, allocations 0, ...".</summary>
    public string Counts => $"bounds checks {Listing.BoundsChecks}, allocations {Listing.Allocations}, write barriers {Listing.WriteBarriers}, calls {Listing.Calls}, loops {Listing.Loops}";
}

/// <summary>One method across runtimes, grouped by identical code.</summary>
/// <param name="Method">The JIT's full name.</param>
/// <param name="Groups">Consecutive runtimes with the same code.</param>
public sealed record AsmMethodView(string Method, IReadOnlyList<AsmGroup> Groups)
{
    /// <summary>The listing the views show first and open, the others folded (see <see cref="AsmReport.Methods"/>).</summary>
    public bool Lead { get; init; }

    /// <summary>How much the code changes between runtimes: <see cref="LineDiff.ChangedLines"/> of each pair of consecutive groups, summed.</summary>
    public int ChangedLines => Groups.Skip(1).Select((group, i) => LineDiff.ChangedLines(AsmDiff.Align(Groups[i].Listing, group.Listing))).Sum();
}

/// <summary>The assembly of one method on several runtimes, with what changed between them.</summary>
/// <param name="Method">What the reader asked for.</param>
/// <param name="Variant">Steady state, FullOpts or PGO off.</param>
/// <param name="Runtimes">Per runtime, in the order asked for.</param>
[PerfLab.Views.Html.TypeFormatterSource(typeof(PerfLab.Views.Html.NotebookFormatterSource))]
public sealed record AsmReport(string Method, string Variant, IReadOnlyList<RuntimeAsm> Runtimes)
{
    /// <summary>The JIT's full name of the method the reader asked to open (<see cref="Opening"/>), or null: the one whose code differs most.</summary>
    public string? Open { get; init; }

    /// <summary>This report with the listing of <paramref name="method"/> shown first and open, the others folded.</summary>
    /// <param name="method">"RankSpan", "CloneLoops.RankSpan", "Tally.Add" (class and method), or the JIT's full name.</param>
    /// <exception cref="PerfLabException">No listed method has that name, or several do.</exception>
    public AsmReport Opening(string method)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(method);
        var listed = MethodNames().Select(m => m.Method).ToArray();
        var named = listed.Where(m => m == method || NamedAs(m, method)).ToArray();
        return named.Length switch
        {
            1 => this with { Open = named[0] },
            0 => throw new PerfLabException($"There is no listing of {method} to open: the listings are of {string.Join(", ", listed.Select(ShortName))}.", "Name one of those methods."),
            _ => throw new PerfLabException($"{method} names {named.Length} listings: {string.Join("; ", named)}.", "Give the full name of the one to open."),
        };
    }

    // "RankSpan" or "CloneLoops.RankSpan" (a nested class as Outer.Inner) names the JIT's "CloneLoops:RankSpan():this".
    private static bool NamedAs(string jitName, string name)
    {
        var dot = name.LastIndexOf('.');
        var (type, member) = Split(jitName);
        return member == name[(dot + 1)..] && (dot < 0 || type == name[..dot] || type.EndsWith("." + name[..dot], StringComparison.Ordinal));
    }

    private static string ShortName(string jitName)
    {
        var (type, member) = Split(jitName);
        return type + "." + member;
    }

    // The JIT's "Ns.Outer+Inner:Member[T](args):ret" as ("Ns.Outer.Inner", "Member").
    private static (string Type, string Member) Split(string jitName)
    {
        var colon = jitName.IndexOf(':', StringComparison.Ordinal);
        var rest = jitName[(colon + 1)..];
        var end = rest.IndexOfAny(['(', '[']);
        return (jitName[..Math.Max(colon, 0)].Replace('+', '.'), end < 0 ? rest : rest[..end]);
    }

    /// <summary>For each method, the one-line summary between consecutive runtimes that both compiled it.</summary>
    public IReadOnlyList<string> Summaries()
    {
        var lines = new List<string>();
        foreach (var (method, key) in MethodNames())
        {
            var present = Runtimes.Select(r => (r.Runtime, Listing: r.Listings.FirstOrDefault(l => l.SameMethodKey == key))).Where(x => x.Listing is not null).ToArray();
            for (var i = 1; i < present.Length; i++)
            {
                lines.Add($"{method}: {AsmDiff.Summary(present[i - 1].Runtime, present[i - 1].Listing!, present[i].Runtime, present[i].Listing!)}");
            }
        }

        return lines;
    }

    // Each method once, in the order first printed, named as the newest runtime that spells its small types
    // the C# way printed it (else as the newest runtime printed it).
    private IEnumerable<(string Method, string Key)> MethodNames() =>
        Runtimes.SelectMany(r => r.Listings).GroupBy(l => l.SameMethodKey)
            .Select(g => ((g.LastOrDefault(l => l.PrintsCSharpNames) ?? g.Last()).Method, g.Key));

    /// <summary>The listing of <paramref name="method"/> (a JIT name prefix) on <paramref name="runtime"/>.</summary>
    /// <param name="runtime">Moniker.</param>
    /// <param name="method">Start of the JIT's name, e.g. "Bench:Sum".</param>
    public AsmListing? Find(string runtime, string method) =>
        Runtimes.FirstOrDefault(r => r.Runtime == runtime)?.Listings.LastOrDefault(l => l.Method.StartsWith(method, StringComparison.Ordinal));

    /// <summary>
    /// Per method, the runtimes grouped where their code is the same (after masking addresses), in the
    /// order asked for; a runtime on which the method has no code of its own is left out. The lead comes first:
    /// the method named by <see cref="Open"/>, else the one whose code differs most between runtimes (the most
    /// <see cref="AsmMethodView.ChangedLines"/>; the first listed on a tie), so a cell that shows a whole class
    /// opens the listing that changed.
    /// </summary>
    public IReadOnlyList<AsmMethodView> Methods()
    {
        var views = Grouped();
        var lead = Open is null ? views.MaxBy(v => v.ChangedLines) : views.FirstOrDefault(v => v.Method == Open);
        return lead is null ? views : [lead with { Lead = true }, .. views.Where(v => !ReferenceEquals(v, lead))];
    }

    private List<AsmMethodView> Grouped()
    {
        var views = new List<AsmMethodView>();
        foreach (var (method, key) in MethodNames())
        {
            var groups = new List<AsmGroup>();
            foreach (var runtime in Runtimes)
            {
                var listing = runtime.Listings.FirstOrDefault(l => l.SameMethodKey == key);
                if (listing is null)
                {
                    continue;
                }

                if (groups.Count > 0 && AsmDiff.Align(groups[^1].Listing, listing).All(l => !l.Changed))
                {
                    groups[^1] = groups[^1] with { Runtimes = [.. groups[^1].Runtimes, runtime.Runtime] };
                }
                else
                {
                    groups.Add(new AsmGroup([runtime.Runtime], listing));
                }
            }

            views.Add(new AsmMethodView(method, groups));
        }

        return views;
    }

    /// <summary>The terminal view: see <see cref="AsmTerminalView"/>.</summary>
    public override string ToString() => AsmTerminalView.Render(this);
}
