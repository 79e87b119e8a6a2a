using System.Text.Json.Nodes;
using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Tests.Support;
using PerfLab.Views.Json;

namespace PerfLab.Tests.Unit;

/// <summary>Reference machine files read back and matched with the published comparison a case reproduces.</summary>
public class ReferenceRunsTests
{
    // The fixtures name only what each test is about; a file holds the rest too: its date, and each run's and row's own
    // fields (a run on no processor of its own, rows of no parameters or iterations), so it reads as a reference document.
    private static string Write(TempFolder folder, string name, string fixture)
    {
        var document = JsonNode.Parse(fixture)!.AsObject();
        document["created"] ??= "2026-11-24T09:00:00.0000000+00:00";
        var run = JsonNode.Parse(ResultJson.Serialize(Fake.Run(BenchmarkMode.Full, Fake.Outcome("net10.0", "10.0.12", Fake.Case("Sum", 1, 0)))))!.AsObject();
        run["machine"]!["processor"] = null;
        var row = run["results"]![0]!.AsObject();
        row["measurementsNs"] = new JsonArray();
        foreach (var entry in document["runs"]!.AsArray())
        {
            Fill(entry!["run"]!.AsObject(), run, "results");
            foreach (var result in entry["run"]!["results"]!.AsArray())
            {
                Fill(result!.AsObject(), row);
            }
        }

        return folder.Write(name, document.ToJsonString());
    }

    private static void Fill(JsonObject target, JsonObject defaults, params string[] except)
    {
        foreach (var (key, value) in defaults.Where(p => !target.ContainsKey(p.Key) && !except.Contains(p.Key)).ToArray())
        {
            target[key] = value?.DeepClone();
        }
    }

    private static string Machine(string schema) => $$"""
        {
          "schema": "{{schema}}", "mode": "full",
          "machine": { "name": "box", "processor": "A CPU", "logicalCores": 4 },
          "runs": [ { "suite": "data/reference/suite/X.cs", "run": { "results": [
            { "type": "X", "method": "Lambda", "runtime": "net9.0", "isBaseline": false, "statistics": { "mean": 20.0 }, "published": { "id": "N10-J01", "after": { "method": "Sum" } } },
            { "type": "X", "method": "Lambda", "runtime": "net10.0", "isBaseline": false, "statistics": { "mean": 5.0 }, "published": { "id": "N10-J01", "after": { "method": "Sum" } } },
            { "type": "X", "method": "Other", "runtime": "net10.0", "isBaseline": false, "statistics": { "mean": 1.0 }, "published": null } ] } } ]
        }
        """;

    // A machine measuring N10-J01 on .NET 9 (mean 20 ns) and .NET 10 (mean 5 ns); each row's other fields as given.
    private static string TwoRows(string net9Fields, string net10Fields) => $$"""
        {
          "schema": "perflab-reference/1", "mode": "full",
          "machine": { "name": "box", "processor": "A CPU", "logicalCores": 2 },
          "runs": [ { "suite": "data/reference/suite/X.cs", "run": { "results": [
            { "type": "X", "method": "Lambda", "runtime": "net9.0", "isBaseline": false, "statistics": { "mean": 20.0 }, {{net9Fields}}, "published": { "id": "N10-J01", "after": { "method": "Sum" } } },
            { "type": "X", "method": "Lambda", "runtime": "net10.0", "isBaseline": false, "statistics": { "mean": 5.0 }, {{net10Fields}}, "published": { "id": "N10-J01", "after": { "method": "Sum" } } } ] } } ]
        }
        """;

    private static readonly PublishedComparison J01 = new(
        "N10-J01", "post", "Object Stack Allocation", "dotnet/runtime#115172", "m", "runtimes",
        new PublishedRow("Sum", "net9.0", new Dictionary<string, string>(), 19.53, 1.0, 88, null),
        new PublishedRow("Sum", "net10.0", new Dictionary<string, string>(), 6.685, 0.34, 24, null),
        null,
        null);

    [Fact]
    public void A_machine_that_measured_the_figure_gives_its_ratio_and_one_that_did_not_gives_nothing()
    {
        using var folder = new TempFolder();
        Write(folder, "box.json", Machine("perflab-reference/1"));

        var (machines, problems) = ReferenceRuns.Load(folder.Path);

        Assert.Empty(problems);
        var measured = Assert.Single(ReferenceRuns.For(machines, J01));
        Assert.Equal(("box", 0.25), (measured.Machine, measured.Ratio));
        Assert.Equal("A CPU, 4 logical cores, full mode", measured.Description);
        Assert.Null(measured.Interval); // the fixture's rows have no iterations
        Assert.Empty(ReferenceRuns.For(machines, J01 with { Id = "N10-J02" }));
    }

    [Fact]
    public void A_run_that_recorded_another_processor_than_most_describes_its_measurements_with_it()
    {
        // The course machine's file was written last on an Intel Xeon of the same name; most of its runs were made on an
        // AMD EPYC (recorded, or from before runs recorded one: the file's machine then).
        using var folder = new TempFolder();
        Write(folder, "box.json", """
            {
              "schema": "perflab-reference/1", "mode": "full",
              "machine": { "name": "box", "processor": "B CPU", "logicalCores": 2 },
              "runs": [
                { "suite": "a", "run": { "machine": { "processor": "A CPU" }, "results": [] } },
                { "suite": "b", "run": { "machine": { "processor": "A CPU" }, "results": [] } },
                { "suite": "c", "run": { "machine": { "processor": "B CPU" }, "results": [
                  { "type": "X", "method": "Lambda", "runtime": "net9.0", "isBaseline": false, "statistics": { "mean": 20.0 }, "published": { "id": "N10-J01", "after": { "method": "Sum" } } },
                  { "type": "X", "method": "Lambda", "runtime": "net10.0", "isBaseline": false, "statistics": { "mean": 5.0 }, "published": { "id": "N10-J01", "after": { "method": "Sum" } } } ] } } ]
            }
            """);

        var (machines, _) = ReferenceRuns.Load(folder.Path);

        Assert.Equal("A CPU, 2 logical cores, full mode", Assert.Single(machines).Description);
        Assert.Equal("B CPU, 2 logical cores, full mode", Assert.Single(ReferenceRuns.For(machines, J01)).Description);
    }

    [Fact]
    public void A_row_that_names_the_figure_but_matched_none_of_its_rows_is_no_measurement_of_it()
    {
        // collections/01's UndoHistory named N10-C02 on its class: neither WalkStack nor WalkStackAsSequence is a row of the
        // post's table (SumDirect, SumEnumerable), so the engine stored no row, and the fidelity report paired the direct
        // loop's ratio with both of the post's.
        using var folder = new TempFolder();
        Write(folder, "box.json", Machine("perflab-reference/1").Replace("\"after\": { \"method\": \"Sum\" } ", "\"after\": null ", StringComparison.Ordinal));

        var (machines, problems) = ReferenceRuns.Load(folder.Path);

        Assert.Empty(problems);
        Assert.Empty(ReferenceRuns.For(machines, J01));
    }

    [Fact]
    public void A_reference_ratio_carries_its_interval_from_the_iterations_of_its_two_rows()
    {
        using var folder = new TempFolder();
        Write(folder, "box.json", TwoRows("""
            "measurementsNs": [ 20, 22, 18, 21, 19 ]
            """, """
            "measurementsNs": [ 5, 5.5, 4.5, 5.25, 4.75 ]
            """));

        var (machines, _) = ReferenceRuns.Load(folder.Path);

        // Computed apart from PerfLab: ln-scale pooled variance (SS_net10 + SS_net9) / 8, se = sqrt(pooled * (1/5 + 1/5)),
        // t(0.975, 8) = 2.306004135, interval = 0.25 / exp(t * se) .. 0.25 * exp(t * se). The net10.0 row over the net9.0
        // one, as the ratio: swapped, the interval would be around 4.
        var measured = Assert.Single(ReferenceRuns.For(machines, J01));
        var interval = Assert.IsType<RatioInterval>(measured.Interval);
        Assert.Equal(0.25, measured.Ratio, 6);
        Assert.Equal(0.222690, interval.Low, 6);
        Assert.Equal(0.280659, interval.High, 6);
        Assert.Equal(IntervalKind.Iterations, interval.Kind);
    }

    [Fact]
    public void A_reference_of_several_processes_per_case_gives_its_interval_across_them_and_says_how_many()
    {
        using var folder = new TempFolder();
        Write(folder, "box.json", TwoRows("""
            "measurementsNs": [ 20, 20.1, 21, 21.1, 19, 19.1 ], "launchMeansNs": [ 20, 21, 19 ]
            """, """
            "measurementsNs": [ 5, 5.01, 5.5, 5.51, 4.6, 4.61 ], "launchMeansNs": [ 5, 5.5, 4.6 ]
            """));

        var (machines, _) = ReferenceRuns.Load(folder.Path);

        // Computed apart from PerfLab, as above but over the three launch means a side: t(0.975, 4) = 2.776445105. From the
        // iterations (pairs that agree within 1%) it would be far narrower.
        var measured = Assert.Single(ReferenceRuns.For(machines, J01));
        var interval = Assert.IsType<RatioInterval>(measured.Interval);
        Assert.Equal(IntervalKind.Launches, interval.Kind);
        Assert.Equal(0.212132, interval.Low, 6);
        Assert.Equal(0.294627, interval.High, 6);
        Assert.Equal(3, measured.Processes);
    }

    [Fact]
    public void Given_the_code_a_case_ran_only_the_reference_run_of_that_code_counts()
    {
        using var folder = new TempFolder();
        static string Run(string code, double before, double after) => $$"""
            { "suite": "notebooks/a.ipynb", "code": "{{code}}", "run": { "results": [
              { "type": "X", "method": "Lambda", "runtime": "net9.0", "isBaseline": false, "statistics": { "mean": {{before}} }, "published": { "id": "N10-J01", "after": { "method": "Sum" } } },
              { "type": "X", "method": "Lambda", "runtime": "net10.0", "isBaseline": false, "statistics": { "mean": {{after}} }, "published": { "id": "N10-J01", "after": { "method": "Sum" } } } ] } }
            """;
        Write(folder, "box.json", $$"""
            { "schema": "perflab-reference/1", "mode": "full", "machine": { "name": "box", "processor": "A CPU", "logicalCores": 4 },
              "runs": [ {{Run("old-code", 20, 10)}}, {{Run("new-code", 20, 5)}} ] }
            """);

        var (machines, _) = ReferenceRuns.Load(folder.Path);

        Assert.Equal(0.25, Assert.Single(ReferenceRuns.For(machines, J01, "new-code")).Ratio);
        Assert.Equal(0.5, Assert.Single(ReferenceRuns.For(machines, J01, "old-code")).Ratio);
        Assert.Empty(ReferenceRuns.For(machines, J01, "edited-code"));
        Assert.Single(ReferenceRuns.For(machines, J01));
    }

    [Fact]
    public void A_file_of_another_schema_is_named_and_skipped()
    {
        using var folder = new TempFolder();
        Write(folder, "old.json", Machine("perflab-reference/0"));
        Write(folder, "box.json", Machine("perflab-reference/1"));

        var (machines, problems) = ReferenceRuns.Load(folder.Path);

        var problem = Assert.Single(problems);
        Assert.Contains("data/reference/machines/old.json declares schema perflab-reference/0", problem, StringComparison.Ordinal);
        Assert.Contains("perflab reference", problem, StringComparison.Ordinal);
        Assert.Single(machines);
    }

    [Fact]
    public void An_old_vs_new_figure_is_measured_against_a_baseline_that_names_no_figure()
    {
        using var folder = new TempFolder();
        Write(folder, "box.json", """
            {
              "schema": "perflab-reference/1", "mode": "full",
              "machine": { "name": "box", "processor": "A CPU", "logicalCores": 2 },
              "runs": [ { "suite": "notebooks/jit/07-vectorization.ipynb", "run": { "results": [
                { "type": "FirstNonZero", "method": "OneByte", "runtime": "net10.0", "isBaseline": true, "statistics": { "mean": 3000.0 }, "published": null },
                { "type": "FirstNonZero", "method": "EightBytes", "runtime": "net10.0", "isBaseline": false, "statistics": { "mean": 400.0 },
                  "published": { "id": "C30-SP05", "after": { "method": "LoopLongs" } } } ] } } ]
            }
            """);
        var longs = new PublishedComparison(
            "C30-SP05", "post", "Span and Friends", "", "m", "variants",
            new PublishedRow("LoopBytes", "netcoreapp3.0", new Dictionary<string, string>(), 5462.3, 1.0, null, null),
            new PublishedRow("LoopLongs", "netcoreapp3.0", new Dictionary<string, string>(), 568.6, 0.10, null, null),
            null,
            null);

        var (machines, _) = ReferenceRuns.Load(folder.Path);

        var measured = Assert.Single(ReferenceRuns.For(machines, longs));
        Assert.Equal(400.0 / 3000.0, measured.Ratio, 6);
    }

    [Fact]
    public void An_old_vs_new_figure_is_read_on_the_posts_runtime_when_the_run_has_it()
    {
        using var folder = new TempFolder();
        Write(folder, "box.json", """
            {
              "schema": "perflab-reference/1", "mode": "full",
              "machine": { "name": "box", "processor": "A CPU", "logicalCores": 2 },
              "runs": [ { "suite": "notebooks/regex/03-searching.ipynb", "run": { "results": [
                { "type": "DayNames", "method": "EveryPositionEveryDay", "runtime": "net9.0", "isBaseline": true, "statistics": { "mean": 1000.0 }, "published": null },
                { "type": "DayNames", "method": "OneSearchPerDay", "runtime": "net9.0", "isBaseline": false, "statistics": { "mean": 1120.0 },
                  "published": { "id": "N9-S03", "after": { "method": "Contains_ContainsEachNeedle" } } },
                { "type": "DayNames", "method": "EveryPositionEveryDay", "runtime": "net10.0", "isBaseline": true, "statistics": { "mean": 1600.0 }, "published": null },
                { "type": "DayNames", "method": "OneSearchPerDay", "runtime": "net10.0", "isBaseline": false, "statistics": { "mean": 1300.0 },
                  "published": { "id": "N9-S03", "after": { "method": "Contains_ContainsEachNeedle" } } } ] } } ]
            }
            """);
        var eachNeedle = new PublishedComparison(
            "N9-S03", "post", "Strings", "", "m", "variants",
            new PublishedRow("Contains_Iterate", "net9.0", new Dictionary<string, string>(), 227_526, 1.0, null, null),
            new PublishedRow("Contains_ContainsEachNeedle", "net9.0", new Dictionary<string, string>(), 302_330, 1.33, null, null),
            null,
            null);

        var (machines, _) = ReferenceRuns.Load(folder.Path);

        // The .NET 9 rows (1.12, slower than the baseline as in the post), not the newer .NET 10 ones (0.81).
        var measured = Assert.Single(ReferenceRuns.For(machines, eachNeedle));
        Assert.Equal(1120.0 / 1000.0, measured.Ratio, 6);
    }

    [Fact]
    public void The_committed_reference_file_keys_every_run_by_the_code_it_measured_once()
    {
        var folder = RepoFiles.Path(PerfLab.Course.CourseRepository.ReferenceMachinesFolder);
        foreach (var file in Directory.GetFiles(folder, "*.json"))
        {
            var runs = ReferenceDocument.Read(file).Runs;
            Assert.NotEmpty(runs);
            var unkeyed = runs.Where(r => r.Code is null || !System.Text.RegularExpressions.Regex.IsMatch(r.Code, "^[0-9a-f]{64}$")).Select(r => r.Run.Source).ToArray();
            Assert.True(unkeyed.Length == 0, $"{file}: runs without a content key (perflab reference writes one): {string.Join(", ", unkeyed)}");
            var twice = runs.GroupBy(r => r.Code).Where(g => g.Count() > 1).Select(g => string.Join(" and ", g.Select(r => r.Run.Source))).ToArray();
            Assert.True(twice.Length == 0, $"{file}: runs of the same code (a page could show either): {string.Join("; ", twice)}");
        }
    }

    [Fact]
    public void The_course_machines_file_of_one_process_per_case_reads_with_intervals_within_one_process()
    {
        var file = Path.Combine(PerfLab.Course.CourseRepository.Root(), "data", "reference", "machines", "course-machine-linux-x64.json");

        var runs = ReferenceDocument.Read(file).Runs.Select(r => r.Run).ToArray();

        static bool IsOwnBaseline(BenchmarkRun run, BenchmarkResult row) => run.Baseline == "method" ? row.IsBaseline : run.Baseline == "runtime:" + row.Runtime;
        var compared = runs.SelectMany(run => run.Results.Where(r => r.Ratio is not null && !IsOwnBaseline(run, r))).ToArray();
        var intervals = compared.Where(r => r.RatioInterval is not null).ToArray();
        // Full mode, one process per case: runs written before launches have no launch means, later ones one.
        Assert.All(runs.SelectMany(run => run.Results), r => Assert.True(r.LaunchMeansNs is null or { Count: 1 }, $"{r.CaseKey} on {r.Runtime}: {r.LaunchMeansNs?.Count} launch means"));
        Assert.All(runs.SelectMany(run => run.Results.Where(r => IsOwnBaseline(run, r))), r => Assert.Null(r.RatioInterval));
        Assert.All(intervals, r => Assert.Equal(IntervalKind.Iterations, r.RatioInterval!.Kind));
        Assert.All(intervals, r => Assert.InRange(r.Ratio!.Value, r.RatioInterval!.Low, r.RatioInterval.High));
        // The rest are sub-nanosecond cases with an iteration measured at 0 ns on a side: no logarithm, no interval.
        Assert.True(intervals.Length >= 0.9 * compared.Length, $"{intervals.Length} of {compared.Length} compared rows have an interval");
    }

    [Fact]
    public void Reading_the_runs_of_a_file_of_another_schema_says_so()
    {
        using var folder = new TempFolder();
        var file = Write(folder, "old.json", Machine("perflab-reference/0"));

        var ex = Assert.Throws<PerfLabException>(() => ReferenceDocument.Read(file));

        Assert.Contains("declares schema perflab-reference/0", ex.Message, StringComparison.Ordinal);
        Assert.Contains("perflab reference", ex.Fix, StringComparison.Ordinal);
    }
}
