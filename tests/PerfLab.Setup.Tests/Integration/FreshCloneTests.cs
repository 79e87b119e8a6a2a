using System.Diagnostics;
using PerfLab.Course;
using PerfLab.Setup.Tests.Support;

namespace PerfLab.Setup.Tests.Integration;

/// <summary>
/// The set-up paths as a reader meets them, on a fresh `git clone` of this repository's HEAD (commit
/// before running these locally: uncommitted changes are not in the clone): ./setup.sh online, twice;
/// and the offline kit as the only package source inside a network namespace with no network at all.
/// One class, so the two heavy builds never run at the same time.
/// </summary>
public sealed class FreshCloneTests
{
    private static readonly TimeSpan SetupTimeout = TimeSpan.FromMinutes(10);

    [UnixFact("setup.sh is the Linux and macOS script; the Windows twin runs in the reference workflow")]
    public async Task Setup_script_runs_green_twice_on_a_fresh_clone_the_second_time_fast_and_leaves_doctor_all_green()
    {
        using var temp = new TempFolder("fresh-clone-online-" + Guid.NewGuid().ToString("N")[..6]);
        var clone = await CloneAsync(temp.Path);
        var environment = Isolated(temp.Path);

        var first = await TimedAsync(() => RunAsync(Path.Combine(clone, "setup.sh"), [], environment, clone));
        Assert.True(first.Result.ExitCode == 0, $"The first ./setup.sh on a fresh clone failed:\n{first.Result}");
        Assert.Contains($"provisioned .NET {PerfLab.Runtimes.RuntimeCatalog.All[0].Version}", first.Result.Output, StringComparison.Ordinal);

        var second = await TimedAsync(() => RunAsync(Path.Combine(clone, "setup.sh"), [], environment, clone));
        Assert.True(second.Result.ExitCode == 0, $"The second ./setup.sh failed:\n{second.Result}");
        Assert.DoesNotContain("provisioning", second.Result.Output, StringComparison.Ordinal);
        // Nothing left to do but an up-to-date build and the checks: well under half the first run.
        Assert.True(
            second.Elapsed < first.Elapsed / 2,
            $"The second ./setup.sh took {second.Elapsed.TotalSeconds:0.0} s, the first {first.Elapsed.TotalSeconds:0.0} s: re-running should skip what is done.\n{second.Result}");

        var doctor = await RunAsync("dotnet", [CourseRepository.PathOf(CourseRepository.CliAssembly(), clone), "doctor"], environment, clone);
        Assert.True(doctor.ExitCode == 0 && doctor.Output.Contains("All checks passed.", StringComparison.Ordinal), $"perflab doctor after setup is not all green:\n{doctor}");
    }

    [LinuxFact("network namespaces are Linux's; this is the proof, made on the course's CI machine")]
    public async Task Offline_kit_alone_restores_builds_provisions_and_runs_the_first_notebook_on_a_fresh_clone_with_no_network()
    {
        var isolate = await NoNetworkCommandAsync();
        using var temp = new TempFolder("fresh-clone-offline-" + Guid.NewGuid().ToString("N")[..6]);
        var kit = Path.Combine(temp.Path, "kit");
        var environment = Isolated(temp.Path);

        // The kit is made here, online, by the tests' own build of perflab.
        var prefetch = await CliProcess.RunAsync(["prefetch", "--out", kit], environment, SetupTimeout);
        Assert.True(prefetch.ExitCode == 0, $"perflab prefetch failed:\n{prefetch}");
        Assert.True(File.Exists(Path.Combine(kit, "course.bundle")), $"The kit has no course.bundle:\n{prefetch}");

        // The laptop: a clone of the kit's bundle, an empty NuGet cache, a new home (so NuGet's own
        // configuration names only nuget.org), and no network.
        var clone = Path.Combine(temp.Path, "clone");
        var cloned = await RunAsync("git", ["clone", "--quiet", Path.Combine(kit, "course.bundle"), clone], null, temp.Path);
        Assert.True(cloned.ExitCode == 0, $"git clone of the kit's course.bundle failed:\n{cloned}");
        environment["NUGET_PACKAGES"] = Path.Combine(temp.Path, "nuget-packages");
        environment["HOME"] = Path.Combine(temp.Path, "home");
        Directory.CreateDirectory(environment["HOME"]);

        var setup = await RunAsync(isolate[0], [.. isolate.Skip(1), Path.Combine(clone, "setup.sh"), "--from", kit, "--no-kernel"], environment, clone);
        Assert.True(setup.ExitCode == 0, $"./setup.sh --from KIT failed with no network:\n{setup}");
        Assert.Contains($"from the runtime pack on {Path.Combine(kit, "packages")}", setup.Output, StringComparison.Ordinal);
        // Proof the network really was absent: the doctor could not reach NuGet's own source.
        Assert.Contains("is unreachable", setup.Output, StringComparison.Ordinal);
        // The kit carries the pinned .NET Interactive tool too, for Polyglot Notebooks.
        Assert.Contains($"dotnet-interactive {PerfLab.Course.Setup.InteractiveTool.PinnedVersion(Repo.Root)} restored", setup.Output, StringComparison.Ordinal);

        // README command (1), still with no network, in smoke mode: what needs the network (restore, build,
        // provisioning, the kernel's packages) is the same in every mode, and quick mode's 2 minutes of measuring
        // would only crowd CI's two cores (quick mode is tested by EngineTests and the notebook tests' quick runs).
        var run = await RunAsync(
            isolate[0],
            [.. isolate.Skip(1), "dotnet", "run", "--project", "helpers/PerfLab.Cli", "--", "run", "notebooks/00-start-here.ipynb", "--mode", "smoke"],
            environment,
            clone);
        Assert.True(run.ExitCode == 0, $"README command (1) (in smoke mode) failed offline after setup from the kit:\n{run}");
        var report = Path.Combine(clone, "reports", "00-start-here.html");
        Assert.True(File.Exists(report), $"No report at {report}:\n{run}");
        Assert.Contains("perflab-results", File.ReadAllText(report), StringComparison.Ordinal);
    }

    // A clone of what is committed: the reader's starting point.
    private static async Task<string> CloneAsync(string parent)
    {
        var clone = Path.Combine(parent, "clone");
        var result = await RunAsync("git", ["clone", "--quiet", Repo.Root, clone], null, parent);
        Assert.True(result.ExitCode == 0, $"git clone {Repo.Root} failed (the tests need a git checkout):\n{result}");
        return clone;
    }

    // Its own PerfLab home and Jupyter folder, so nothing of the reader's or the other tests' is used or
    // touched; no lingering MSBuild or compiler servers, which would outlive the test.
    private static Dictionary<string, string> Isolated(string root) => new()
    {
        ["PERFLAB_HOME"] = Path.Combine(root, "perflab-home"),
        ["JUPYTER_DATA_DIR"] = Path.Combine(root, "jupyter"),
        ["MSBUILDDISABLENODEREUSE"] = "1",
        ["DOTNET_CLI_USE_MSBUILD_SERVER"] = "0",
        ["UseSharedCompilation"] = "false",
        ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
        ["DOTNET_NOLOGO"] = "1",
    };

    // `unshare -n` (root) or `unshare -rn` (a user namespace): a process with only a loopback that is down.
    private static async Task<string[]> NoNetworkCommandAsync()
    {
        foreach (var candidate in new[] { new[] { "unshare", "-n" }, ["unshare", "-rn"] })
        {
            try
            {
                var probe = await RunAsync(candidate[0], [.. candidate.Skip(1), "true"], null, Path.GetTempPath());
                if (probe.ExitCode == 0)
                {
                    return candidate;
                }
            }
            catch (System.ComponentModel.Win32Exception)
            {
                break;
            }
        }

        Assert.Fail("This test needs a network namespace to prove the offline path: `unshare -n` (as root) or `unshare -rn` (user namespaces) from util-linux. Neither worked here.");
        return [];
    }

    private static async Task<CliResult> RunAsync(string program, IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment, string workingDirectory)
    {
        using var process = CliProcess.StartProgram(program, args, environment, workingDirectory);
        return await CliProcess.CompleteAsync(process, SetupTimeout);
    }

    private static async Task<(CliResult Result, TimeSpan Elapsed)> TimedAsync(Func<Task<CliResult>> action)
    {
        var watch = Stopwatch.StartNew();
        var result = await action();
        return (result, watch.Elapsed);
    }
}
