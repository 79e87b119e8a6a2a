using PerfLab.Contract;

namespace PerfLab.Benchmarks;

/// <summary>
/// Which cases' launches share each round of turns (<see cref="LaunchTurns"/>). A class with a baseline method compares
/// each method with the baseline on the same runtime and parameters; launched in rounds of their own, each such ratio
/// was between two independent sets of launch means, and a round the machine slowed as a whole widened it. Seated in
/// the same rounds, on every runtime at once, the methods' ratios take the rounds as blocks
/// (<see cref="Results.RatioInterval.InRounds"/>), as the runtimes' ratios of one case already do. Every other case is a
/// group of its own, and so are the methods of a class that would seat more than <see cref="MostSeats"/> hosts at once.
/// A method whose rounds measured nothing leaves the group after them (<see cref="LaunchPlan.MeasuredNothing"/>), as it
/// would stop with rounds of its own: the rest of its class does not keep it launching.
/// </summary>
internal static class SharedRounds
{
    /// <summary>
    /// The most launches one round seats: each is a host process alive for the whole round (about 100 MB each), and
    /// their start-ups and tiering drives run side by side before the turns begin.
    /// </summary>
    public const int MostSeats = 16;

    /// <summary>
    /// Whether <paramref name="source"/> may hold a baseline method, which must be known before the first round (the
    /// engine then lists the cases first): [Benchmark(Baseline = true)] is spelled out, so a source without the word has none.
    /// </summary>
    public static bool MayHaveBaseline(string source) => source.Contains("Baseline", StringComparison.Ordinal);

    /// <summary>The indices of the cases whose launches share rounds with the case at <paramref name="index"/>, itself included, in list order.</summary>
    /// <param name="cases">Every case, as the host listed them.</param>
    /// <param name="index">A case's position in <paramref name="cases"/>.</param>
    /// <param name="runtimes">The runtimes each case is launched on.</param>
    public static IReadOnlyList<int> GroupOf(IReadOnlyList<CaseInfo> cases, int index, int runtimes)
    {
        ArgumentNullException.ThrowIfNull(cases);
        var of = cases[index];
        var group = Enumerable.Range(0, cases.Count).Where(i => SameClassAndParameters(cases[i], of)).ToArray();
        return group.Any(i => cases[i].IsBaseline) && group.Length * runtimes <= MostSeats ? group : [index];
    }

    private static bool SameClassAndParameters(CaseInfo a, CaseInfo b) =>
        a.TypeName == b.TypeName && a.Parameters.SequenceEqual(b.Parameters);
}
