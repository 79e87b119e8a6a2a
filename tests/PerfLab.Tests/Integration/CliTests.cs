using System.Diagnostics;
using System.Text;
using PerfLab.Processes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>The real `perflab` command, as a process, on the inputs a reader gets wrong.</summary>
[Collection(BusyCliRuns.Name)]
public class CliTests
{
    [Fact]
    public async Task Unknown_runtime_gets_one_message_and_a_non_zero_exit()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Tiny.cs", Sources.Tiny());

        var result = await CliProcess.RunAsync(["bench", file, "--runtimes", "net7.0"], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Equal("error: Unknown runtime 'net7.0'.\nfix: Use one of: net8.0, net9.0, net10.0.\n", result.Error);
    }

    [Fact]
    public async Task A_missing_file_gets_one_message()
    {
        var result = await CliProcess.RunAsync(["bench", "does-not-exist.cs"], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.StartsWith("error: File not found: does-not-exist.cs.", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_compile_error_prints_the_readers_line_and_runs_nothing()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Broken.cs", Sources.CompileError());

        var result = await CliProcess.RunAsync(["bench", file, "--mode", "smoke"], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains($"  {file}(6,16): error CS0103: The name 'undefinedVariable' does not exist in the current context", result.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("starting", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_benchmark_that_throws_exits_non_zero_and_shows_the_exception()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Faulty.cs", Sources.Throws());

        var result = await CliProcess.RunAsync(["bench", file, "--mode", "smoke", "--runtimes", "net10.0"], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("Explode on net10.0: System.InvalidOperationException: the reader's benchmark failed on purpose", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Bench_without_a_mode_follows_PERFLAB_MODE_and_says_so()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Tiny.cs", Sources.Tiny());
        var environment = TestHome.Environment;
        environment[ModeChoice.Variable] = "smoke";

        var result = await CliProcess.RunAsync(["bench", file, "--runtimes", "net10.0"], environment);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("Mode: smoke (PERFLAB_MODE).", result.Error, StringComparison.Ordinal);
        Assert.Contains("mode smoke ·", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Bench_with_an_invalid_PERFLAB_MODE_gets_the_one_message_and_runs_nothing()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Tiny.cs", Sources.Tiny());
        var environment = TestHome.Environment;
        environment[ModeChoice.Variable] = "fast";

        var result = await CliProcess.RunAsync(["bench", file, "--runtimes", "net10.0"], environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Equal("error: PERFLAB_MODE is 'fast', which is not a benchmark mode.\nfix: Use smoke (proves it runs), quick (a short job) or full (BenchmarkDotNet's default job), e.g. PERFLAB_MODE=quick.\n", result.Error);
    }

    [Fact]
    public async Task A_file_without_benchmarks_gets_one_message()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Plain.cs", Sources.NoBenchmark());

        var result = await CliProcess.RunAsync(["bench", file], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("error: Plain.cs has no [Benchmark] method.", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_endless_benchmark_times_out_and_leaves_no_process_behind()
    {
        using var home = new TempFolder();
        using var folder = new TempFolder();
        var file = folder.Write("Endless.cs", Sources.EndlessLoop());

        var result = await CliProcess.RunAsync(
            ["bench", file, "--mode", "smoke", "--runtimes", "net10.0", "--case-timeout", "4"],
            new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path });

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("Spin on net10.0: Timed out: the case did not finish within 4 s; its process tree was killed.", result.Output, StringComparison.Ordinal);
        Assert.Empty(CliProcess.ProcessesMentioning(home.Path));
    }

    [Fact]
    public async Task A_path_with_spaces_and_non_ascii_letters_just_works()
    {
        using var folder = new TempFolder();
        var file = folder.Write(Path.Combine("dossier avec espaces", "Bänch Ünïcødé.cs"), Sources.Tiny());

        var result = await CliProcess.RunAsync(["bench", file, "--mode", "smoke", "--runtimes", "net10.0"], TestHome.Environment);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("| Sum    | net10.0 |", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_runtime_that_cannot_be_provisioned_says_the_package_source_is_unreachable()
    {
        using var home = new TempFolder();
        using var packages = new TempFolder();
        using var folder = new TempFolder();
        var file = folder.Write("Tiny.cs", Sources.Tiny());

        // The provisioning restore finds this NuGet.config above its project: one source, nobody listening.
        home.Write("NuGet.config", """
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <clear />
                <add key="nowhere" value="http://127.0.0.1:9/v3/index.json" />
              </packageSources>
            </configuration>
            """);
        var result = await CliProcess.RunAsync(
            ["bench", file, "--mode", "smoke", "--runtimes", "net8.0"],
            new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path, ["NUGET_PACKAGES"] = packages.Path });

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("error: Could not provision .NET 8.0.31: the package source is unreachable.", result.Error, StringComparison.Ordinal);
        Assert.Contains("fix: Connect to your NuGet source", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_second_run_waits_for_the_one_measuring_and_says_so()
    {
        using var home = new TempFolder();
        using var folder = new TempFolder();
        var file = folder.Write("Tiny.cs", Sources.Tiny());
        var waiting = new TaskCompletionSource();
        var errors = new StringBuilder();

        Process process;
        using (await FileLock.AcquireAsync(Path.Combine(home.Path, "locks", "measure.lock"), shared: false, null, CancellationToken.None))
        {
            process = StartWatched(["bench", file, "--mode", "smoke", "--runtimes", "net10.0"], home.Path, errors, "another PerfLab run is measuring", waiting);
            await waiting.Task.WaitAsync(TimeSpan.FromMinutes(2));
            Assert.False(process.HasExited);
        }

        await process.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(2));
        Assert.True(process.ExitCode == 0, errors.ToString());
        Assert.Contains($"another PerfLab run is measuring (process {Environment.ProcessId}", errors.ToString(), StringComparison.Ordinal);
        process.Dispose();
    }

    [Fact]
    public async Task Two_runs_at_the_same_time_both_succeed()
    {
        using var folder = new TempFolder();
        var a = folder.Write("A.cs", Sources.Tiny());
        var b = folder.Write("B.cs", Sources.Tiny());

        var results = await Task.WhenAll(
            CliProcess.RunAsync(["bench", a, "--mode", "smoke", "--runtimes", "net10.0", "net8.0"], TestHome.Environment),
            CliProcess.RunAsync(["bench", b, "--mode", "smoke", "--runtimes", "net10.0", "net8.0"], TestHome.Environment));

        Assert.All(results, r => Assert.True(r.ExitCode == 0, r.ToString()));
    }

    [Fact]
    public async Task Two_identical_quick_runs_at_the_same_time_measure_once_and_the_one_that_waited_reads_the_other()
    {
        using var folder = new TempFolder();
        var source = Sources.Tiny() + $"\n// {Guid.NewGuid():N}: a source no earlier run measured\n";
        var a = folder.Write("A.cs", source);
        var b = folder.Write("B.cs", source);

        var results = await Task.WhenAll(
            // One launch each: the lock is the subject, and every launch holds the measuring lock the notebook tests wait for.
            CliProcess.RunAsync(["bench", a, "--mode", "quick", "--launches", "1", "--runtimes", "net10.0"], TestHome.Environment),
            CliProcess.RunAsync(["bench", b, "--mode", "quick", "--launches", "1", "--runtimes", "net10.0"], TestHome.Environment));

        Assert.All(results, r => Assert.True(r.ExitCode == 0, r.ToString()));
        var measured = results.Where(r => r.Error.Contains("net10.0 case 1/1", StringComparison.Ordinal)).ToList();
        // Usually the second waits for the lock and reads the first's result then; one that starts late reads it before.
        var read = results.Where(r => r.Error.Contains("net10.0: cached result", StringComparison.Ordinal)).ToList();
        Assert.True(measured.Count == 1 && read.Count == 1, $"Expected one run to measure and the other to read its result:\n{string.Join("\n====\n", results.Select(r => r.ToString()))}");
    }

    [Fact]
    public async Task A_smoke_run_shares_the_lock_with_work_that_measures_nothing_and_a_quick_run_waits_for_it()
    {
        using var home = new TempFolder();
        using var folder = new TempFolder();
        var file = folder.Write("Tiny.cs", Sources.Tiny());
        var waiting = new TaskCompletionSource();
        var errors = new StringBuilder();

        Process quick;
        using (await FileLock.AcquireAsync(Path.Combine(home.Path, "locks", "measure.lock"), shared: true, null, CancellationToken.None))
        {
            // net10.0 is the SDK's runtime: nothing to provision in an empty home.
            var smoke = await CliProcess.RunAsync(["bench", file, "--mode", "smoke", "--runtimes", "net10.0"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path }, TimeSpan.FromMinutes(2));
            Assert.True(smoke.ExitCode == 0, smoke.ToString());
            Assert.DoesNotContain("another PerfLab run is measuring", smoke.Error, StringComparison.Ordinal);

            quick = StartWatched(["bench", file, "--mode", "quick", "--launches", "1", "--runtimes", "net10.0"], home.Path, errors, "another PerfLab run is measuring", waiting);
            await waiting.Task.WaitAsync(TimeSpan.FromMinutes(2));
            Assert.False(quick.HasExited);
        }

        await quick.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(2));
        Assert.True(quick.ExitCode == 0, errors.ToString());
        quick.Dispose();
    }

    [Fact]
    public async Task Ctrl_c_stops_the_run_and_kills_the_benchmark_process()
    {
        using var home = new TempFolder();
        using var folder = new TempFolder();
        var file = folder.Write("Endless.cs", Sources.EndlessLoop());
        var measuring = new TaskCompletionSource();
        var errors = new StringBuilder();

        // Ctrl+C reaches a program as SIGINT, which a terminal's foreground job has at its default. A test run
        // started in the background (`dotnet test ... &` from a script) inherits SIGINT ignored; .NET keeps an
        // inherited ignore and hands it on to what it starts, so perflab would never see the signal (its stderr
        // stops at "case 1/? starting" while the host spins on): start it as a terminal would.
        using var process = StartWatched(["bench", file, "--mode", "smoke", "--runtimes", "net10.0"], home.Path, errors, "net10.0 case 1/", measuring, sigintAtDefault: true);
        await measuring.Task.WaitAsync(TimeSpan.FromMinutes(2));
        if (IgnoresSigint(process.Id))
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail("perflab was started with SIGINT ignored, so no Ctrl+C can reach it.");
        }

        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (CliProcess.ProcessesMentioning(home.Path).Count == 0 && DateTime.UtcNow < deadline)
        {
            await Task.Delay(100);
        }

        Assert.NotEmpty(CliProcess.ProcessesMentioning(home.Path));

        using (var kill = Process.Start("kill", ["-s", "INT", process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
        {
            await kill.WaitForExitAsync();
        }

        try
        {
            await process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }
        catch (TimeoutException)
        {
            var message = $"perflab did not exit within 30 s of Ctrl+C. Its stderr so far:\n{errors}\nProcesses still mentioning its home: {string.Join(", ", CliProcess.ProcessesMentioning(home.Path))}";
            process.Kill(entireProcessTree: true);
            Assert.Fail(message);
        }

        Assert.Equal(130, process.ExitCode);
        Assert.Contains("Cancelled. Every benchmark process was stopped.", errors.ToString(), StringComparison.Ordinal);
        Assert.Empty(CliProcess.ProcessesMentioning(home.Path));
    }

    [Fact]
    public async Task Ctrl_c_on_a_busy_machine_exits_only_once_every_process_of_its_tree_is_gone()
    {
        using var home = new TempFolder();
        using var folder = new TempFolder();
        var file = folder.Write("Endless.cs", Sources.EndlessLoop());
        var measuring = new TaskCompletionSource();
        var errors = new StringBuilder();
        // One CPU for perflab, its benchmark and the load: a starved perflab needs seconds to kill its tree,
        // more than the 2 s System.CommandLine grants by default, and the other CPUs stay free for the machine.
        var cpu = AllowedCpus()[^1];
        using var process = StartWatched(["bench", file, "--mode", "smoke", "--runtimes", "net10.0"], home.Path, errors, "net10.0 case 1/", measuring, sigintAtDefault: true, cpu: cpu);
        await measuring.Task.WaitAsync(TimeSpan.FromMinutes(2));
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (CliProcess.ProcessesMentioning(home.Path).Count == 0 && DateTime.UtcNow < deadline)
        {
            await Task.Delay(100);
        }

        var tree = Descendants(process.Id);
        Assert.True(tree.Count > 0, $"perflab started no benchmark process. Its stderr so far:\n{errors}");
        var load = Enumerable.Range(0, 64).Select(_ => CliProcess.StartProgram("taskset", ["-c", cpu, "sha256sum", "/dev/zero"])).ToArray();
        try
        {
            await Task.Delay(TimeSpan.FromSeconds(1));
            using (var kill = Process.Start("kill", ["-s", "INT", process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
            {
                await kill.WaitForExitAsync();
            }

            await process.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(2));
            var survivors = tree.Where(p => CommandLineOf(p.Key) == p.Value).Select(p => $"{p.Key}: {p.Value}").ToArray();

            Assert.True(survivors.Length == 0, $"perflab exited (code {process.ExitCode}) while processes of its tree still ran: {string.Join("; ", survivors)}. Its stderr:\n{errors}");
            Assert.Equal(130, process.ExitCode);
        }
        finally
        {
            foreach (var spinner in load)
            {
                spinner.Kill(entireProcessTree: true);
                spinner.Dispose();
            }

            foreach (var (pid, commandLine) in tree.Where(p => CommandLineOf(p.Key) == p.Value))
            {
                using var survivor = Process.GetProcessById(pid);
                survivor.Kill(entireProcessTree: true);
            }
        }
    }

    [Fact]
    public async Task Provisioning_from_runtime_packs_fills_an_empty_home()
    {
        using var home = new TempFolder();
        var env = new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path };

        var before = await CliProcess.RunAsync(["runtimes"], env);
        var provision = await CliProcess.RunAsync(["runtimes", "--provision"], env);

        Assert.Matches(@"net8\.0\s+8\.0\.31\s+missing", before.Output);
        Assert.True(provision.ExitCode == 0, provision.ToString());
        Assert.Matches(@"net8\.0\s+8\.0\.31\s+provisioned\s+" + System.Text.RegularExpressions.Regex.Escape(home.Path), provision.Output);
        Assert.Matches(@"net9\.0\s+9\.0\.20\s+provisioned", provision.Output);
        Assert.True(File.Exists(Path.Combine(home.Path, "dotnet", "shared", "Microsoft.NETCore.App", "8.0.31", "System.Private.CoreLib.dll")));
    }

    [Fact]
    public async Task Asm_prints_each_runtimes_listing_and_the_summary()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Facts.cs", Sources.AsmFacts());

        var result = await CliProcess.RunAsync(["asm", file, "--method", "LengthSwitch.Pack", "--runtimes", "net9.0", "net10.0"], TestHome.Environment);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("asm of LengthSwitch.Pack · steady state (Tier1 with dynamic PGO) · net9.0 9.0.20, net10.0 10.0.12", result.Output, StringComparison.Ordinal);
        Assert.Contains("net9.0 -> net10.0: 118 -> 84 bytes, bounds checks 6 -> 0", result.Output, StringComparison.Ordinal);
        Assert.Contains("   net9.0: Tier1", result.Output, StringComparison.Ordinal);
        Assert.Contains("│ net10.0", result.Output, StringComparison.Ordinal);
        Assert.Contains("call     CORINFO_HELP_RNGCHKFAIL", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Asm_answers_an_unchanged_command_from_the_cache_and_force_captures_again()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Facts.cs", Sources.AsmFacts());
        string[] args = ["asm", file, "--method", "UnknownIndex", "--runtimes", "net10.0"];

        var first = await CliProcess.RunAsync(args, TestHome.Environment);
        var second = await CliProcess.RunAsync(args, TestHome.Environment);
        var forced = await CliProcess.RunAsync([.. args, "--force"], TestHome.Environment);

        Assert.All(new[] { first, second, forced }, r => Assert.True(r.ExitCode == 0, r.ToString()));
        Assert.Contains("capturing the JIT's code for UnknownIndex on net10.0", first.Error, StringComparison.Ordinal);
        Assert.Equal("net10.0: cached listing (use --force to capture again)", second.Error.Trim());
        Assert.Equal(first.Output, second.Output);
        Assert.Contains("capturing the JIT's code for UnknownIndex on net10.0", forced.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("cached listing", forced.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Asm_of_an_unknown_method_gets_one_message_with_close_matches()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Facts.cs", Sources.AsmFacts());

        var result = await CliProcess.RunAsync(["asm", file, "--method", "ConstantIdx"], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("error: No method named 'ConstantIdx' in the benchmark source.", result.Error, StringComparison.Ordinal);
        Assert.Contains("fix: Did you mean: Lookups.ConstantIndex", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Regex_prints_the_explanation_side_by_side_and_writes_the_html_page()
    {
        using var folder = new TempFolder();
        var page = Path.Combine(folder.Path, "regex.html");

        var result = await CliProcess.RunAsync(["regex", @"\w*\p{Sm}", "-r", "net9.0", "-r", "net10.0", "--html", page], TestHome.Environment);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.StartsWith("C# generated for [GeneratedRegex(@\"\\w*\\p{Sm}\")] · net9.0 (generator 9.0.", result.Output, StringComparison.Ordinal);
        Assert.Contains("net9.0 -> net10.0: explanation 2 lines changed;", result.Output, StringComparison.Ordinal);
        Assert.Matches(@"\n! ○ Match a word character greedily any number of times\. +│ ○ Match a word character atomically any number of times\.\n", result.Output);
        Assert.Contains($"HTML: {page}", result.Output, StringComparison.Ordinal);
        Assert.Contains("○ Match a word character atomically any number of times.", File.ReadAllText(page), StringComparison.Ordinal);
        Assert.Equal("", result.Error);
    }

    [Fact]
    public async Task Regex_of_an_invalid_pattern_gets_the_parsers_message()
    {
        var result = await CliProcess.RunAsync(["regex", "(unclosed", "-r", "net10.0"], TestHome.Environment);

        Assert.Equal(1, result.ExitCode);
        Assert.Equal("error: @\"(unclosed\" is not a valid regular expression (the regex generator of net10.0 rejects it).\nfix: Check the pattern; the parser says: Invalid pattern '(unclosed' at offset 9. Not enough )'s.\n", result.Error);
        Assert.Equal("", result.Output);
    }

    [Fact]
    public async Task Bench_help_lists_every_option()
    {
        var result = await CliProcess.RunAsync(["bench", "--help"]);

        Assert.Equal(0, result.ExitCode);
        foreach (var option in new[] { "--runtimes", "--mode", "--filter", "--env", "--json", "--force", "--case-timeout", "--timeout" })
        {
            Assert.Contains(option, result.Output, StringComparison.Ordinal);
        }
    }

    // Starts perflab and completes `seen` once a stderr line contains `signal`.
    private static Process StartWatched(string[] args, string home, StringBuilder errors, string signal, TaskCompletionSource seen, bool sigintAtDefault = false, string? cpu = null)
    {
        var environment = new Dictionary<string, string> { ["PERFLAB_HOME"] = home };
        string[] pinned = cpu is null ? [] : ["taskset", "-c", cpu];
        var process = sigintAtDefault
            ? CliProcess.StartProgram("env", ["--default-signal=INT", .. pinned, "dotnet", CliProcess.CliAssembly, .. args], environment)
            : CliProcess.Start(args, environment);
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is null)
            {
                return;
            }

            lock (errors)
            {
                errors.AppendLine(e.Data);
            }

            if (e.Data.Contains(signal, StringComparison.Ordinal))
            {
                seen.TrySetResult();
            }
        };
        process.OutputDataReceived += (_, _) => { };
        process.BeginErrorReadLine();
        process.BeginOutputReadLine();
        return process;
    }

    // Linux: the CPUs this process may run on, from /proc/self/status (e.g. "0-3,6").
    private static string[] AllowedCpus() =>
        File.ReadLines("/proc/self/status").First(l => l.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal))["Cpus_allowed_list:".Length..]
            .Trim().Split(',')
            .SelectMany(range => range.Split('-') is [var first, var last]
                ? Enumerable.Range(int.Parse(first, System.Globalization.CultureInfo.InvariantCulture), int.Parse(last, System.Globalization.CultureInfo.InvariantCulture) - int.Parse(first, System.Globalization.CultureInfo.InvariantCulture) + 1).Select(c => c.ToString(System.Globalization.CultureInfo.InvariantCulture))
                : [range])
            .ToArray();

    // Linux: every process below a process (pid -> command line), from the parent ids in /proc/PID/stat.
    private static Dictionary<int, string> Descendants(int root)
    {
        var parents = new Dictionary<int, int>();
        foreach (var dir in Directory.EnumerateDirectories("/proc"))
        {
            try
            {
                if (int.TryParse(Path.GetFileName(dir), out var pid))
                {
                    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after its last ')'.
                    var stat = File.ReadAllText(Path.Combine(dir, "stat"));
                    parents[pid] = int.Parse(stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[1], System.Globalization.CultureInfo.InvariantCulture);
                }
            }
            catch (IOException)
            {
                // Exited while we looked.
            }
        }

        var found = new Dictionary<int, string>();
        var queue = new Queue<int>([root]);
        while (queue.TryDequeue(out var parent))
        {
            foreach (var child in parents.Where(p => p.Value == parent).Select(p => p.Key))
            {
                if (CommandLineOf(child) is { } commandLine)
                {
                    found[child] = commandLine;
                    queue.Enqueue(child);
                }
            }
        }

        return found;
    }

    // A process's command line, or null once it has exited (a reused pid shows another command line).
    private static string? CommandLineOf(int pid)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid}/cmdline").Replace('\0', ' ');
        }
        catch (IOException)
        {
            return null;
        }
    }

    // Linux: bit 1 of the SigIgn mask in /proc/PID/status is SIGINT (signal 2).
    private static bool IgnoresSigint(int pid) =>
        OperatingSystem.IsLinux()
        && File.ReadLines($"/proc/{pid}/status").FirstOrDefault(l => l.StartsWith("SigIgn:", StringComparison.Ordinal)) is { } line
        && (Convert.ToUInt64(line["SigIgn:".Length..].Trim(), 16) & 0b10) != 0;
}
