using System.Diagnostics;
using System.Globalization;
using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>The real pipeline: Roslyn compile, provisioned runtimes, one host process per case (smoke mode).</summary>
public class EngineTests
{
    private readonly BenchmarkEngine _engine = new(TestHome.Shared);

    private static BenchmarkRequest Smoke(string source, string name = "Bench.cs", params string[] runtimes) => new()
    {
        Source = source,
        SourcePath = Path.Combine(Path.GetTempPath(), name),
        Mode = BenchmarkMode.Smoke,
        Runtimes = RuntimeCatalog.FindAll(runtimes),
    };

    [Fact]
    public async Task A_tiny_benchmark_runs_on_each_runtime_and_reports_the_exact_version_that_ran()
    {
        var run = await _engine.RunAsync(Smoke(Sources.Tiny()));

        Assert.False(run.HasErrors, run.ToString());
        Assert.Equal(RuntimeCatalog.Monikers, run.Results.Select(r => r.Runtime));
        Assert.Equal(RuntimeCatalog.All.Select(r => r.Version), run.Results.Select(r => r.RuntimeVersion));
        Assert.Equal(RuntimeCatalog.All.Select(r => ".NET " + r.Version), run.Runtimes.Select(r => r.FrameworkDescription));
        Assert.All(run.Results, r => Assert.True(r.Statistics!.Mean > 0));
        Assert.Contains("| Sum    | net8.0  |", run.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Quick_mode_drives_each_case_until_tiering_settles_before_measuring_and_smoke_mode_does_not()
    {
        var phases = new List<string>();
        var progress = new SynchronousProgress(p => { lock (phases) { phases.Add($"{p.Phase}"); } });
        // Two launches: the drive runs in every launch of several; how many launches is another test's subject.
        var traces = Directory.CreateTempSubdirectory("perflab-jit-trace-").FullName;
        var quick = Smoke(Sources.Tiny(), "Tiering.cs", "net10.0") with
        {
            Mode = BenchmarkMode.Quick, Filter = ["*Sum*"], Launches = 2, Force = true,
            Environment = new Dictionary<string, string> { ["PERFLAB_JIT_TRACE"] = traces, ["PERFLAB_SPEED_PROBE"] = "1" },
        };

        var run = await _engine.RunAsync(quick, progress);
        var quickPhases = phases.ToArray();
        phases.Clear();
        await _engine.RunAsync(quick with { Mode = BenchmarkMode.Smoke, Environment = new Dictionary<string, string>() }, progress);

        Assert.False(run.HasErrors, run.ToString());
        var warmup = Array.IndexOf(quickPhases, "TieringWarmup");
        var measured = Array.FindIndex(quickPhases, p => p.StartsWith("Workload", StringComparison.Ordinal));
        Assert.True(warmup >= 0 && warmup < measured, "quick mode phases: " + string.Join(" ", quickPhases.Distinct()));
        Assert.DoesNotContain("TieringWarmup", phases);

        // Each launch's JIT trace: the drive starts once BenchmarkDotNet's preparation is done (its first iteration),
        // and ends only after the JIT has compiled the benchmark method at Tier1, before any measured iteration.
        var files = Directory.GetFiles(traces);
        Assert.Equal(2, files.Length);
        foreach (var file in files)
        {
            var lines = File.ReadAllLines(file).Select(l => l.Trim()).ToList();
            int At(string text) => lines.FindIndex(l => l.EndsWith(text, StringComparison.Ordinal));
            var order = new[] { "EVENT OverheadJitting 1", "EVENT TieringWarmup", "JIT Tier1 Tiny:Sum", "EVENT TieringSettled Tier1", "EVENT WorkloadActual 1" };
            var found = order.Select(At).ToArray();
            Assert.True(found.All(i => i >= 0) && found.Zip(found.Skip(1)).All(p => p.First < p.Second),
                $"{Path.GetFileName(file)}: expected {string.Join(" < ", order)}, found at lines {string.Join(", ", found)}:\n{string.Join("\n", lines.Where(l => l.Contains("EVENT", StringComparison.Ordinal) || l.Contains("Tiny:Sum", StringComparison.Ordinal)))}");

            // The speed probe: each warm-up and measured iteration's own line, then the two probes' times after it.
            var probed = lines.Select((l, i) => (l, i)).Where(p => p.l.Contains(" LINE Workload", StringComparison.Ordinal)).ToArray();
            Assert.Equal(QuickJob.WarmupCount + QuickJob.IterationCount, probed.Length);
            Assert.All(probed, p => Assert.Matches(@" PROBE \d+\.\d{4} \d+\.\d{4}$", lines.Skip(p.i + 1).First(l => !l.Contains(" JIT ", StringComparison.Ordinal))));
        }

        Directory.Delete(traces, recursive: true);
    }

    [Fact]
    public async Task A_case_that_makes_a_dynamic_method_every_call_settles_before_the_drives_time_limit()
    {
        // The JIT compiles in every round of such a case's drive; only compiles of dynamic methods, which never tier, may
        // be quiet, or every launch drives until its time limit.
        var traces = Directory.CreateTempSubdirectory("perflab-jit-trace-").FullName;
        var quick = Smoke(Sources.DynamicPerCall(), "FreshCode.cs", "net10.0") with
        {
            Mode = BenchmarkMode.Quick, Launches = 2, Force = true,
            Environment = new Dictionary<string, string> { ["PERFLAB_JIT_TRACE"] = traces },
        };

        var run = await _engine.RunAsync(quick);

        Assert.False(run.HasErrors, run.ToString());
        var files = Directory.GetFiles(traces);
        Assert.Equal(2, files.Length);
        foreach (var file in files)
        {
            var lines = File.ReadAllLines(file).Select(l => l.Trim()).ToArray();
            var ended = lines.Where(l => l.Contains("EVENT Tiering", StringComparison.Ordinal)).ToArray();
            Assert.True(
                ended.Any(l => l.EndsWith("EVENT TieringSettled Tier1", StringComparison.Ordinal)),
                $"{Path.GetFileName(file)}: the drive did not settle ({lines.Count(l => l.Contains("dynamicClass", StringComparison.Ordinal))} dynamic compiles): {string.Join(" | ", ended)}");
        }

        Directory.Delete(traces, recursive: true);
    }

    [Fact]
    public async Task Quick_mode_measures_each_case_in_several_launches_with_the_runtimes_interleaved_and_an_interval_across_them()
    {
        var starts = new List<string>();
        var pilots = new HashSet<int?>();
        var progress = new SynchronousProgress(p =>
        {
            lock (starts)
            {
                if (p.Message == "starting")
                {
                    starts.Add($"{p.Runtime} case {p.CaseNumber} launch {p.Launch}/{p.LaunchCount}");
                }

                if (p.Phase == "WorkloadPilot")
                {
                    pilots.Add(p.Launch);
                }
            }
        });
        var quick = Smoke(Sources.Tiny(), "Launches.cs", "net9.0", "net10.0") with { Mode = BenchmarkMode.Quick };

        var run = await _engine.RunAsync(quick, progress);

        Assert.False(run.HasErrors, run.ToString());
        // The mode's launches, and more rounds (LaunchPlan) only while a runtime's launches disagree: a noisy machine may add some.
        var launches = run.Results[0].LaunchMeansNs!.Count;
        Assert.InRange(launches, QuickJob.Launches, QuickJob.MaxLaunches);
        var expected = Enumerable.Range(1, launches).SelectMany(l => new[] { $"net9.0 case 1 launch {l}/{Math.Max(l, QuickJob.Launches)}", $"net10.0 case 1 launch {l}/{Math.Max(l, QuickJob.Launches)}" });
        Assert.Equal(expected, starts);
        // The first launch's pilot chooses the iterations; the later launches run them without a pilot of their own.
        Assert.Equal([1], pilots);
        Assert.All(run.Results, r => Assert.Equal(launches, r.LaunchMeansNs!.Count));
        // The last round stopped where the plan stops: every runtime's launches agree well enough, no more rounds could
        // bring one within the target, or the most launches.
        Assert.False(LaunchPlan.WantsAnother(quick, launches, [.. run.Results.Select(r => r.LaunchMeansNs!)], inRounds: true), string.Join("; ", run.Results.Select(r => string.Join(", ", r.LaunchMeansNs!))));
        // Every launch's iterations, less any upper outliers BenchmarkDotNet removed.
        Assert.InRange(run.Results[1].MeasurementsNs.Count, launches * 2, launches * QuickJob.IterationCount);
        // The two runtimes took turns in every round, so each launch carries its round, the same on both sides, and
        // the interval takes the rounds as blocks.
        Assert.Equal(launches, run.Results[0].LaunchRounds!.Distinct().Count());
        Assert.Equal(run.Results[0].LaunchRounds!, run.Results[1].LaunchRounds!);
        Assert.Equal(IntervalKind.Rounds, run.Results[1].RatioInterval!.Kind);
        Assert.Matches(@"\| (\d\.\d\d|no clear difference) \(\d\.\d\d–\d\.\d\d\) \|", run.ToString());
    }

    [Fact]
    public async Task A_baseline_methods_class_seats_every_method_in_each_round_so_their_ratios_take_the_rounds_as_blocks()
    {
        var said = new List<string>();
        var progress = new SynchronousProgress(p =>
        {
            lock (said)
            {
                if (p.Message is "starting" or "listing the cases")
                {
                    said.Add(p.Message == "starting" ? $"{p.Runtime} {p.CaseName} launch {p.Launch}" : p.Message);
                }
            }
        });
        var source = Sources.Tiny().Replace(
            "[Benchmark]",
            "[Benchmark(Baseline = true)]\n    public int Loop() { var sum = 0; foreach (var value in _data) sum += value; return sum; }\n\n    [Benchmark]",
            StringComparison.Ordinal);
        var request = Smoke(source, "Methods.cs", "net9.0", "net10.0") with { Mode = BenchmarkMode.Quick, Launches = 2, Force = true };

        var run = await _engine.RunAsync(request, progress);

        Assert.False(run.HasErrors, run.ToString());
        // One host lists the cases first; then each round starts every method on every runtime before the next round.
        Assert.Equal("listing the cases", said[0]);
        Assert.Equal(["Loop", "Sum"], run.Results.Select(r => r.Method).Distinct());
        Assert.Equal(
            ["launch 1", "launch 1", "launch 1", "launch 1", "launch 2", "launch 2", "launch 2", "launch 2"],
            said.Skip(1).Select(s => s[s.IndexOf("launch", StringComparison.Ordinal)..]));
        Assert.All(run.Results, r => Assert.Equal(run.Results[0].LaunchRounds!, r.LaunchRounds!));
        Assert.Equal(2, run.Results[0].LaunchRounds!.Distinct().Count());
        Assert.All(run.Results.Where(r => !r.IsBaseline), r => Assert.Equal(IntervalKind.Rounds, r.RatioInterval!.Kind));
    }

    [Fact]
    public async Task A_method_that_measures_nothing_leaves_its_class_s_shared_rounds_after_the_first_and_the_others_go_on()
    {
        var started = new List<string>();
        var progress = new SynchronousProgress(p =>
        {
            lock (started)
            {
                if (p.Message == "starting")
                {
                    started.Add($"{p.CaseName} {p.Launch}");
                }
            }
        });
        // Constant's work is removed by the JIT (under a nanosecond); Sum, the baseline, does real work.
        var source = Sources.Tiny().Replace("[Benchmark]", "[Benchmark(Baseline = true)]", StringComparison.Ordinal)
            .Replace("public int Sum() => _data.Sum();", "public int Sum() => _data.Sum();\n\n    [Benchmark]\n    public int Constant() => 4;", StringComparison.Ordinal);
        var request = Smoke(source, "Nothing.cs", "net10.0") with { Mode = BenchmarkMode.Quick, Force = true };

        var run = await _engine.RunAsync(request, progress);

        Assert.False(run.HasErrors, run.ToString());
        var constant = Assert.Single(run.Results, r => r.Method == "Constant");
        var sum = Assert.Single(run.Results, r => r.Method == "Sum");
        // Both sat in round 1; then Constant, having measured nothing, stopped, and Sum had its rounds as if alone.
        Assert.Equal(["Constant 1", "Sum 1"], started.Take(2).Order(StringComparer.Ordinal));
        Assert.Equal(["Constant 1"], started.Where(s => s.StartsWith("Constant", StringComparison.Ordinal)));
        Assert.Single(constant.LaunchMeansNs!);
        Assert.True(sum.LaunchMeansNs!.Count >= QuickJob.Launches, string.Join(", ", started));
    }

    [Fact]
    public async Task Quick_launches_of_a_round_take_turns_an_iteration_at_a_time_and_never_run_together()
    {
        var record = Directory.CreateTempSubdirectory("perflab-turns-").FullName;
        var quick = Smoke(Sources.TurnRecorder(), "Turns.cs", "net9.0", "net10.0") with
        {
            Mode = BenchmarkMode.Quick,
            Environment = new Dictionary<string, string> { ["TURNS_RECORD"] = record },
        };

        // When each process was seen to have ended, by launch (a round): Stopwatch timestamps, which every process on this machine shares.
        var ended = new List<(int Launch, long At)>();
        var progress = new SynchronousProgress(p =>
        {
            if (p.Message == "done")
            {
                lock (ended)
                {
                    ended.Add((p.Launch!.Value, Stopwatch.GetTimestamp()));
                }
            }
        });

        var run = await _engine.RunAsync(quick, progress);

        Assert.False(run.HasErrors, run.ToString());
        // Each process's file: "setup T", then its calls "START END", then "cleanup T": those of BenchmarkDotNet's own
        // instance of the class (jitting, pilot, warm-up, measured and memory iterations), which writes the file last;
        // the drive's instance wrote it first, at the drive's end.
        var files = Directory.EnumerateFiles(record).Select(f => (Process: Path.GetFileNameWithoutExtension(f), Lines: File.ReadAllLines(f).Select(l => l.Split(' ')).ToArray())).ToArray();
        static long At(string text) => long.Parse(text, CultureInfo.InvariantCulture);
        var calls = files
            .SelectMany(f => f.Lines.Where(p => p[0] is not ("setup" or "cleanup")).Select(p => (f.Process, Start: At(p[0]), End: At(p[1]))))
            .OrderBy(c => c.Start)
            .ToArray();
        var processes = files.Length;
        Assert.Equal(run.Results.Sum(r => r.LaunchMeansNs!.Count), processes);
        // Never two processes at once: each call starts after every earlier call has ended.
        var lastEnd = long.MinValue;
        foreach (var call in calls)
        {
            Assert.True(call.Start >= lastEnd, $"a call of process {call.Process} started while another process's call was running");
            lastEnd = Math.Max(lastEnd, call.End);
        }

        // In turns: each process's calls come in several runs between the other runtime's, not in one block
        // (each warm-up and measured iteration).
        var runs = calls.Zip(calls.Skip(1)).Count(pair => pair.First.Process != pair.Second.Process) + 1;
        Assert.True(runs >= processes * (QuickJob.IterationCount + 1), $"{processes} processes ran their calls in {runs} runs: they did not take turns");

        // A round's processes start side by side (each is set up before any of them calls the case), and end side by
        // side (none ends before every one of them has made its last call): neither part measures anything.
        // Rounds never overlap: a process set up after every process so far was cleaned up starts the next round.
        var rounds = new List<List<(long Setup, long Cleanup, string Process)>>();
        foreach (var (setup, cleanup, process) in files.Select(f => (At(f.Lines[0][1]), At(f.Lines[^1][1]), f.Process)).OrderBy(f => f.Item1))
        {
            if (rounds.Count == 0 || setup > rounds[^1].Max(p => p.Cleanup))
            {
                rounds.Add([]);
            }

            rounds[^1].Add((setup, cleanup, process));
        }

        Assert.Equal(processes, rounds.Count * run.Results.Count);
        for (var launch = 1; launch <= rounds.Count; launch++)
        {
            var round = rounds[launch - 1];
            var roundCalls = calls.Where(c => round.Any(p => p.Process == c.Process)).ToArray();
            Assert.True(round.Max(p => p.Setup) < roundCalls.Min(c => c.Start), $"a process of round {launch} was set up only after another had started calling the case: they did not start side by side");
            Assert.True(ended.Where(e => e.Launch == launch).Min(e => e.At) > roundCalls.Max(c => c.End), $"a process of round {launch} ended before another had made its last call: they did not end side by side");
        }

        Directory.Delete(record, recursive: true);
    }

    [Fact]
    public async Task Launches_run_round_after_round_and_the_table_so_far_is_reported_before_each_later_round()
    {
        var events = new List<string>();
        var partials = new List<BenchmarkRun>();
        var lefts = new List<TimeSpan?>();
        var progress = new SynchronousProgress(p =>
        {
            lock (events)
            {
                if (p.Message == "starting")
                {
                    events.Add($"{p.Runtime} case {p.CaseNumber} launch {p.Launch}");
                    lefts.Add(p.Left);
                }

                if (p.Partial is { } partial)
                {
                    events.Add(p.Message!);
                    partials.Add(partial);
                }
            }
        });
        var source = Sources.Tiny().Replace("public int Sum() => _data.Sum();", "public int Sum() => _data.Sum();\n    [Benchmark] public int Max() => _data.Max();", StringComparison.Ordinal);
        var request = Smoke(source, "Rounds.cs", "net9.0", "net10.0") with { Mode = BenchmarkMode.Quick, Launches = 2, Force = true };

        var run = await _engine.RunAsync(request, progress);

        Assert.False(run.HasErrors, run.ToString());
        string[] Round(int launch) => [.. new[] { 1, 2 }.SelectMany(c => new[] { $"net9.0 case {c} launch {launch}", $"net10.0 case {c} launch {launch}" })];
        Assert.Equal([.. Round(1), "round 1 done", .. Round(2)], events);
        // After round 1, every case has a row on every runtime, of one launch; the run's last round is its result, not a report.
        var first = Assert.Single(partials);
        Assert.Equal(4, first.Results.Count);
        Assert.All(first.Results, r => Assert.Single(r.LaunchMeansNs!));
        Assert.All(run.Results, r => Assert.Equal(2, r.LaunchMeansNs!.Count));
        // Nothing to estimate from before the first case's first round (its launches take turns, started together); every
        // later launch says how long is left.
        Assert.All(lefts.Take(2), left => Assert.Null(left));
        Assert.All(lefts.Skip(2), left => Assert.True(left > TimeSpan.Zero, string.Join(", ", lefts)));
    }

    [Theory]
    [InlineData("quick", 2, null, "quick's")]
    [InlineData("quick", 2, "25", "25")]
    [InlineData("quick", 1, null, "unset")]
    [InlineData("smoke", 1, null, "unset")]
    public async Task Quick_mode_hosts_of_several_launches_start_with_a_short_call_counting_delay_unless_the_run_sets_one(string mode, int launches, string? runSetting, string expected)
    {
        expected = expected == "quick's" ? QuickJob.CallCountingDelaySetting(QuickJob.CallCountingDelayMs) : expected;
        // The benchmark fails unless its process sees the expected setting: the process's real environment is the evidence.
        var source = $$"""
            public class Delay
            {
                [Benchmark]
                public int Seen() => (Environment.GetEnvironmentVariable("{{QuickJob.CallCountingDelayVariable}}") ?? "unset") == "{{expected}}"
                    ? 1
                    : throw new InvalidOperationException("the setting is " + (Environment.GetEnvironmentVariable("{{QuickJob.CallCountingDelayVariable}}") ?? "unset"));
            }
            """;
        var environment = runSetting is null ? new Dictionary<string, string>() : new Dictionary<string, string> { [QuickJob.CallCountingDelayVariable] = runSetting };
        var request = Smoke(source, $"Delay-{mode}-{launches}-{runSetting}.cs", "net10.0") with { Mode = ModeChoice.Parse(mode, "mode"), Launches = launches, Environment = environment, Force = true };

        var run = await _engine.RunAsync(request);

        Assert.False(run.HasErrors, run.ToString());
    }

    [Fact]
    public async Task A_quick_request_for_one_launch_runs_one_process_per_case()
    {
        var starts = 0;
        var progress = new SynchronousProgress(p => { if (p.Message == "starting") { Interlocked.Increment(ref starts); } });
        var once = Smoke(Sources.Tiny(), "OneLaunch.cs", "net10.0") with { Mode = BenchmarkMode.Quick, Filter = ["*Sum*"], Launches = 1, Force = true };

        var run = await _engine.RunAsync(once, progress);

        Assert.False(run.HasErrors, run.ToString());
        Assert.Equal(1, starts);
        Assert.Single(Assert.Single(run.Results).LaunchMeansNs!);
    }

    [Fact]
    public async Task A_run_that_reads_only_bytes_measures_them_and_leaves_its_times_out_of_the_cache()
    {
        var bytesOnly = Smoke(Sources.Tiny(), "BytesOnly.cs", "net10.0") with { Mode = BenchmarkMode.Quick, Filter = ["*Sum*"], Launches = 1, ReadsOnlyBytes = true };

        var first = Assert.Single((await _engine.RunAsync(bytesOnly)).Results);
        var second = Assert.Single((await _engine.RunAsync(bytesOnly)).Results);

        Assert.True(first.Error is null && first.AllocatedBytes is not null, $"the bytes-only run measured no bytes per call: {first.Error}");
        Assert.False(second.Cached, "the second run was answered from the cache: a bytes-only run's times, taken beside other work, were kept for later runs");
    }

    [Fact]
    public async Task A_launch_that_fails_after_launches_that_measured_fails_the_case_says_which_and_no_launch_follows()
    {
        var marker = Path.Combine(Path.GetTempPath(), "perflab-launch-" + Guid.NewGuid().ToString("N"));
        var source = $$"""
            public class SecondLaunch
            {
                // The first process creates the file; every later one finds it there and fails.
                private static readonly bool Fails = !Claim();

                private static bool Claim()
                {
                    try { using var file = new FileStream(@"{{marker}}", FileMode.CreateNew); return true; }
                    catch (IOException) { return false; }
                }

                // Real work: a case measured under a nanosecond would stop after its first launch (LaunchPlan).
                private readonly int[] _values = Enumerable.Range(0, 64).ToArray();

                [Benchmark]
                public int Work() => Fails ? throw new InvalidOperationException("a later launch failed on purpose") : _values.Sum();
            }
            """;
        var starts = new List<int?>();
        var progress = new SynchronousProgress(p => { if (p.Message == "starting") { lock (starts) { starts.Add(p.Launch); } } });
        try
        {
            var run = await _engine.RunAsync(Smoke(source, "SecondLaunch.cs", "net10.0") with { Mode = BenchmarkMode.Quick }, progress);

            var row = Assert.Single(run.Results);
            Assert.StartsWith("System.InvalidOperationException: a later launch failed on purpose", row.Error, StringComparison.Ordinal);
            Assert.EndsWith("(in launch 2; the launches before it measured)", row.Error, StringComparison.Ordinal);
            Assert.Equal([1, 2], starts);
            Assert.Null(row.Statistics);
        }
        finally
        {
            File.Delete(marker);
        }
    }

    private sealed class SynchronousProgress(Action<RunProgress> report) : IProgress<RunProgress>
    {
        public void Report(RunProgress value) => report(value);
    }

    [Fact]
    public async Task A_net10_api_behind_if_runs_on_all_three_runtimes()
    {
        var run = await _engine.RunAsync(Smoke(Sources.NewerApiBehindIf()));

        Assert.False(run.HasErrors, run.ToString());
        Assert.Equal(3, run.Results.Count);
    }

    [Fact]
    public async Task A_net10_api_without_if_fails_to_compile_for_8_and_9_only()
    {
        var source = "public class V { [Benchmark] public bool M() => System.Security.Cryptography.MLKem.IsSupported; }";
        var ex = await Assert.ThrowsAsync<PerfLabException>(() => _engine.RunAsync(Smoke(source, "Versioned.cs")));

        var detail = Assert.Single(ex.Details);
        Assert.Contains("Versioned.cs(1,", detail, StringComparison.Ordinal);
        Assert.EndsWith("[net8.0, net9.0]", detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Compile_errors_point_at_the_readers_file_and_line_before_any_process_starts()
    {
        var ex = await Assert.ThrowsAsync<PerfLabException>(() => _engine.RunAsync(Smoke(Sources.CompileError(), "Broken.cs")));

        Assert.Equal("Broken.cs does not compile (1 error).", ex.Message);
        var detail = Assert.Single(ex.Details);
        Assert.Matches(@"Broken\.cs\(6,16\): error CS0103: The name 'undefinedVariable' does not exist in the current context$", detail);
        Assert.Equal("Fix the errors above; nothing was run.", ex.Fix);
    }

    [Fact]
    public async Task A_file_without_benchmarks_is_refused()
    {
        var ex = await Assert.ThrowsAsync<PerfLabException>(() => _engine.RunAsync(Smoke(Sources.NoBenchmark(), "Plain.cs")));
        Assert.Equal("Plain.cs has no [Benchmark] method.", ex.Message);
    }

    [Fact]
    public async Task A_benchmark_that_throws_becomes_a_failed_row_with_the_readers_exception()
    {
        var run = await _engine.RunAsync(Smoke(Sources.Throws(), "Faulty.cs", "net10.0"));

        var row = Assert.Single(run.Results);
        Assert.True(run.HasErrors);
        Assert.StartsWith("System.InvalidOperationException: the reader's benchmark failed on purpose", row.Error, StringComparison.Ordinal);
        Assert.Contains("at Faulty.Explode()", row.Error, StringComparison.Ordinal);
        Assert.Null(row.Statistics);
    }

    [Fact]
    public async Task A_benchmark_that_prints_a_line_like_a_host_event_fails_its_case_with_the_line_and_the_other_cases_run()
    {
        // The host's events are lines that start with this prefix; a reader's line that does too is no event.
        var source = $$"""
            public class Stray
            {
                [Benchmark]
                public int Prints()
                {
                    Console.WriteLine("{{HostProtocol.EventPrefix}}not json");
                    return 1;
                }

                [Benchmark]
                public int Quiet() => 2;
            }
            """;

        var run = await _engine.RunAsync(Smoke(source, "Stray.cs", "net10.0") with { Force = true });

        var prints = Assert.Single(run.Results, r => r.Method == "Prints");
        var quiet = Assert.Single(run.Results, r => r.Method == "Quiet");
        Assert.Null(quiet.Error);
        Assert.NotNull(quiet.Statistics);
        Assert.NotNull(prints.Error);
        Assert.Contains($"'{HostProtocol.EventPrefix}not json'", prints.Error, StringComparison.Ordinal);
        Assert.Contains("without that prefix", prints.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_filter_that_matches_nothing_lists_the_cases_there_are()
    {
        var request = Smoke(Sources.Tiny(), "Tiny.cs", "net10.0") with { Filter = ["*Nothing*"] };
        var ex = await Assert.ThrowsAsync<PerfLabException>(() => _engine.RunAsync(request));

        Assert.StartsWith("No benchmark matches the filter *Nothing*", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_filter_selects_cases_by_class_and_method()
    {
        var source = Sources.Tiny().Replace("public int Sum()", "public int Other() => 1;\n[Benchmark] public int Sum()", StringComparison.Ordinal);
        var request = Smoke(source, "Tiny.cs", "net10.0") with { Filter = ["Tiny.Sum"] };

        var run = await _engine.RunAsync(request);
        Assert.Equal(["Sum"], run.Results.Select(r => r.Method));
    }

    [Fact]
    public async Task An_unchanged_request_is_answered_from_the_cache_and_force_runs_again()
    {
        var request = Smoke(Sources.Tiny(), "Tiny.cs", "net10.0");
        var first = await _engine.RunAsync(request);
        var second = await _engine.RunAsync(request);
        var forced = await _engine.RunAsync(request with { Force = true });

        Assert.False(first.Cached);
        Assert.True(second.Cached);
        Assert.Equal(first.Results[0].Statistics, second.Results[0].Statistics);
        Assert.Equal(0, second.Timing.Measure);
        Assert.False(forced.Cached);
        Assert.Contains("cached result (use --force to re-run)", second.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Environment_variables_reach_the_benchmark_process()
    {
        var source = $$"""
            // {{Guid.NewGuid()}}
            public class EnvCheck
            {
                [Benchmark]
                public bool ServerGc() => System.Runtime.GCSettings.IsServerGC
                    ? Environment.GetEnvironmentVariable("PERFLAB_TEST_VALUE") == "42"
                    : throw new InvalidOperationException("server GC is off");
            }
            """;
        var request = Smoke(source, "EnvCheck.cs", "net10.0") with
        {
            Environment = new Dictionary<string, string> { ["DOTNET_gcServer"] = "1", ["PERFLAB_TEST_VALUE"] = "42" },
        };
        var run = await _engine.RunAsync(request);

        Assert.False(run.HasErrors, run.ToString());
        Assert.Contains("env DOTNET_gcServer=1 PERFLAB_TEST_VALUE=42", run.ToString(), StringComparison.Ordinal);
    }
    [LinuxFact("the commands a launch must not start are Linux's (cat, lscpu), put on PATH as shell scripts")]
    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public async Task A_launch_starts_no_process_to_describe_the_machine()
    {
        // BenchmarkDotNet's summary describes the machine with `cat /proc/cpuinfo` and `lscpu` (and `dotnet --version`),
        // found on PATH: commands here that log their start show whether a launch still pays for them.
        using var bin = new TempFolder();
        var started = Path.Combine(bin.Path, "started.txt");
        foreach (var command in new[] { "cat", "lscpu" })
        {
            var script = bin.Write(command, $"#!/bin/sh\necho {command} >> '{started}'\nexit 0\n");
            File.SetUnixFileMode(script, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }

        var request = Smoke(Sources.Tiny(), "NoDescription.cs", "net10.0") with
        {
            Filter = ["*Sum*"], Force = true,
            Environment = new Dictionary<string, string> { ["PATH"] = bin.Path + ":" + Environment.GetEnvironmentVariable("PATH") },
        };
        var run = await _engine.RunAsync(request);

        Assert.False(run.HasErrors, run.ToString());
        Assert.False(File.Exists(started), "the launch started: " + (File.Exists(started) ? File.ReadAllText(started).ReplaceLineEndings(" ") : ""));
    }
    [Fact]
    public async Task A_smoke_run_runs_a_runtime_s_cases_in_one_process_and_a_case_that_crashes_it_fails_alone()
    {
        var source = $$"""
            // {{Guid.NewGuid()}}
            public class ThreeCases
            {
                [Benchmark] public int A() => 1;
                [Benchmark] public void B() => Environment.FailFast("case B ends its process");
                [Benchmark] public int C() => 3;
            }
            """;
        var starts = new List<string>();
        var progress = new SynchronousProgress(p =>
        {
            if (p.Message == "starting")
            {
                lock (starts)
                {
                    starts.Add($"{p.Runtime} case {p.CaseNumber}");
                }
            }
        });

        var run = await _engine.RunAsync(Smoke(source, "ThreeCases.cs", "net10.0") with { Force = true }, progress);

        // One process from case 1 on; it dies in case 2, which fails with the crash; case 3 gets a process of its own.
        Assert.Equal(["net10.0 case 1", "net10.0 case 3"], starts);
        Assert.Equal(["A", "B", "C"], run.Results.Select(r => r.Method));
        Assert.Null(run.Results[0].Error);
        Assert.Contains("exited with code", run.Results[1].Error, StringComparison.Ordinal);
        Assert.Null(run.Results[2].Error);
    }
}
