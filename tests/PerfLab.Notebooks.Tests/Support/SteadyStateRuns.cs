using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Notebooks.Tests.Integration;
using PerfLab.Results;
using PerfLab.Runtimes;
using static PerfLab.Notebooks.Tests.Support.NotebookClaims;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// The quick route: the quick runs behind every claim of a notebook's text about bytes per call, which a smoke
/// run cannot support. Smoke runs Tier0 code, which allocates what Tier1 keeps on the stack, and measures one
/// call, into which any allocation of another thread of the process falls (1,336 B once, for a method that
/// allocates 40). Claims that allow kilobytes of slack read the routes' smoke runs instead. Run once per test
/// run by the routes' fixture (<see cref="CourseRun"/>), beside `perflab run` (its runs read only bytes, so they share
/// the measuring lock with that run's smoke runs); the claims only read it.
/// </summary>
public sealed class SteadyStateRuns
{
    /// <summary>Each quick run: the notebook, its classes, the methods its claims read, the runtimes they name (null: all).</summary>
    public static readonly IReadOnlyList<(string Notebook, string[] Classes, string[] Methods, string[]? Runtimes)> Plan =
    [
        (JitTieringAllocationClaimsTests.StackAllocation, ["class ShortLived", "class DisposeStruct", "class ThreeWords", "class PixelBytes", "class WorkWeek"], ["ShiftHours", "BothSpellings", "WidestHeader", "Paint", "LongestDay"], null),
        (CollectionsClaimsTests.Enumeration, ["class UndoHistory", "class StockLevels"], ["WalkStack", "WalkStackAsSequence", "UnitsInStock"], null),
        (CollectionsClaimsTests.Linq, ["class WithACondition"], ["AnyNegative", "AllNonNegative", "CountEven", "FirstFromTheEnd", "SingleMatch"], ["net8.0", "net9.0"]),
        (CollectionsClaimsTests.Linq, ["class ContainsAfter"], ["AfterDistinct", "AfterUnion", "AfterOrderBy"], ["net9.0", "net10.0"]),
        (CollectionsClaimsTests.Dictionaries, ["class PieceValues", "class MonthAbbreviations", "class StatusReasons", "class ReadOnlyTables", "class BuildOrRead"], CollectionsClaimsTests.LookupsThatAllocateNothing, ["net9.0", "net10.0"]),
        (CollectionsClaimsTests.Specialized, ["class PriorityBoarding"], ["PriorityFirst"], ["net9.0", "net10.0"]),
        // Count's engine grows its automaton lazily: one smoke call would carry all of it.
        (RegexClaimsTests.Backtracking, ["class WordTally"], ["AutomatonCount", "AutomatonMatches", "BacktrackerCount", "BacktrackerMatches"], ["net10.0"]),
        (RegexClaimsTests.Searching, ["class FindThePeriod"], ["CharByChar", "StringIndexOf", "BytesIndexOfAny"], null),
        (RegexClaimsTests.Spans, ["class PostTags", "class SpanPathsInTheLibrary"], ["SplitIntoStrings", "SplitIntoRanges", "RecalledInBatch"], ["net9.0", "net10.0"]),
    ];

    private readonly Dictionary<string, Dictionary<(string Method, string Runtime), long?>> _bytes = [];

    private readonly Dictionary<string, string> _failures = [];

    /// <summary>Bytes per call of each (method, runtime) of <paramref name="notebook"/>'s quick runs.</summary>
    public IReadOnlyDictionary<(string Method, string Runtime), long?> BytesOf(string notebook)
    {
        Assert.False(_failures.TryGetValue(notebook, out var failure), $"{notebook}'s quick run failed: {failure}");
        return _bytes.TryGetValue(notebook, out var bytes) ? bytes : throw new InvalidOperationException($"{notebook} has no quick run: add its classes to SteadyStateRuns.Plan.");
    }

    private void Add(string notebook, BenchmarkRun run)
    {
        var bytes = _bytes.TryGetValue(notebook, out var known) ? known : _bytes[notebook] = [];
        foreach (var result in run.Results)
        {
            var key = (result.Method, result.Runtime);
            // A second measurement of the same call keeps the fewer bytes, as the engine does across launches.
            bytes[key] = bytes.TryGetValue(key, out var earlier) && earlier < result.AllocatedBytes ? earlier : result.AllocatedBytes;
        }

        if (run.Results.Where(r => r.Error is not null).Select(r => $"{r.Method} on {r.Runtime}: {r.Error}").ToArray() is { Length: > 0 } errors)
        {
            _failures[notebook] = (_failures.TryGetValue(notebook, out var earlier) ? earlier + "; " : "") + string.Join("; ", errors);
        }
    }

    /// <summary>Makes every quick run of <see cref="Plan"/>.</summary>
    public async Task InitializeAsync()
    {
        foreach (var (notebook, classes, methods, runtimes) in Plan)
        {
            var run = await MeasureAsync(notebook, classes, methods, RuntimeCatalog.FindAll(runtimes));
            Add(notebook, run);

            // A stray allocation of another thread (the runtime's tiering worker, under load) lands in one launch and is
            // divided by the calls it ran: fewer bytes than the smallest object per call is such a stray, and so may be
            // any count of a slow call, whose launch runs few calls. On a loaded machine such strays are common: a 10 ms
            // call that allocates nothing counted 576 B a call (about 2.5 KB in its memory iteration) in 3 of 20 quick
            // launches, with or without the tiering drive (2026-11-30); on CI a 1 ms call counted 72 B in three launches
            // in a row. The engine keeps the fewest bytes of a run's launches: measure those calls again in 3 launches,
            // twice at most. An allocation of every call stays in every launch, and fails its claim as before.
            for (var again = 0; again < 2; again++)
            {
                var suspect = run.Results.Where(MayBeStray).ToArray();
                if (suspect.Length == 0)
                {
                    break;
                }

                run = await MeasureAsync(notebook, classes, suspect.Select(r => r.Method).Distinct().ToArray(), RuntimeCatalog.FindAll(suspect.Select(r => r.Runtime).Distinct().ToArray()), launches: 3);
                Add(notebook, run);
            }
        }
    }

    private static bool MayBeStray(BenchmarkResult result) =>
        result.AllocatedBytes is > 0 and { } bytes && (bytes < SmallestObjectBytes || result.Statistics?.Mean > SlowCallNs);

    // A quick iteration of 50 ms runs 2,500 calls of this length or more: a faster call's count stays below an object
    // (24 B) unless 60 KB strayed into its launch.
    private const double SlowCallNs = 20_000;

    // An object's header, method table pointer and one field, on 64-bit.
    private const int SmallestObjectBytes = 24;

    private static Task<BenchmarkRun> MeasureAsync(string notebook, string[] classes, string[] methods, IReadOnlyList<PinnedRuntime> runtimes, int launches = 1) =>
        new BenchmarkEngine().RunAsync(new BenchmarkRequest
        {
            Source = CellsTogether(notebook, classes),
            SourcePath = "notebook-cell.cs",
            Mode = BenchmarkMode.Quick,
            // One launch each keeps CI's critical path as it was; a stray allocation is measured again (above).
            Launches = launches,
            // Nor with other work on the machine: sharing the measuring lock lets `perflab run`'s smoke runs go on beside.
            ReadsOnlyBytes = true,
            Runtimes = runtimes,
            Filter = methods.Select(m => "*." + m).ToArray(),
        });
}
