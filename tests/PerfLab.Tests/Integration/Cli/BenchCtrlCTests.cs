using System.Diagnostics;
using System.Text;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>Ctrl+C on a running `perflab bench`: it exits 130, and only once every benchmark process it started is gone (Linux: signals and /proc).</summary>
[Collection(BusyCliRuns.Name)]
public class BenchCtrlCTests
{
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
        using var process = WatchedCli.Start(["bench", file, "--mode", "smoke", "--runtimes", "net10.0"], home.Path, errors, "net10.0 case 1/", measuring, sigintAtDefault: true);
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
        using var process = WatchedCli.Start(["bench", file, "--mode", "smoke", "--runtimes", "net10.0"], home.Path, errors, "net10.0 case 1/", measuring, sigintAtDefault: true, cpu: cpu);
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
