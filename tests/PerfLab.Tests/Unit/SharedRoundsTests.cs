using PerfLab.Benchmarks;
using PerfLab.Contract;

namespace PerfLab.Tests.Unit;

public class SharedRoundsTests
{
    private static CaseInfo Case(int index, string type, string method, bool baseline = false, string? size = null) =>
        new(index, type, method, size is null ? [] : [new CaseParameter("Size", size)], baseline);

    [Fact]
    public void A_baseline_methods_class_shares_rounds_per_parameter_set_and_other_cases_go_alone()
    {
        CaseInfo[] cases =
        [
            Case(0, "Ns.Sums", "Loop", baseline: true, size: "10"),
            Case(1, "Ns.Sums", "Vector", size: "10"),
            Case(2, "Ns.Sums", "Loop", baseline: true, size: "1000"),
            Case(3, "Ns.Sums", "Vector", size: "1000"),
            Case(4, "Ns.Plain", "One"),
            Case(5, "Ns.Plain", "Two"),
        ];

        Assert.Equal([0, 1], SharedRounds.GroupOf(cases, 1, runtimes: 3));
        Assert.Equal([2, 3], SharedRounds.GroupOf(cases, 2, runtimes: 3));
        Assert.Equal([4], SharedRounds.GroupOf(cases, 4, runtimes: 3));
        Assert.Equal([5], SharedRounds.GroupOf(cases, 5, runtimes: 3));
    }

    [Fact]
    public void A_class_that_would_seat_more_hosts_than_a_round_holds_keeps_a_round_per_case()
    {
        var cases = Enumerable.Range(0, 6).Select(i => Case(i, "Ns.Many", "M" + i, baseline: i == 0)).ToArray();

        // Six methods on two runtimes seat 12 hosts; on three, 18, more than SharedRounds.MostSeats (16).
        Assert.Equal([0, 1, 2, 3, 4, 5], SharedRounds.GroupOf(cases, 3, runtimes: 2));
        Assert.Equal([3], SharedRounds.GroupOf(cases, 3, runtimes: 3));
    }

    [Fact]
    public void Only_a_source_that_names_a_baseline_is_listed_before_its_first_round()
    {
        Assert.True(SharedRounds.MayHaveBaseline("[Benchmark(Baseline = true)] public int A() => 1;"));
        Assert.False(SharedRounds.MayHaveBaseline("[Benchmark] public int A() => 1;"));
    }
}
