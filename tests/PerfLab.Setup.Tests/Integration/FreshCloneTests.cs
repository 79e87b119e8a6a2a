using System.Diagnostics;
using PerfLab.Course;
using PerfLab.Setup.Tests.Support;

namespace PerfLab.Setup.Tests.Integration;

/// <summary>
/// The set-up paths as a reader meets them, on a fresh clone of this repository's HEAD (commit before running
/// this locally: uncommitted changes are not in the clone). One test, so the fresh build is paid once: the
/// offline kit as the only package source inside a network namespace with no network at all, README command (1)
/// still offline, then ./setup.sh online on the same clone, as a reader runs it again once connected: fast, and
/// the doctor all green. (Provisioning from NuGet online is RuntimesCommandTests'; until 2026-11-29 this was two
/// tests, each building a fresh clone, and the second build cost CI about four minutes of its two cores.)
/// </summary>
public sealed class FreshCloneTests
{
    // A guard against a hang, not a budget: beside the other two test projects on two cores the fresh clone's build
    // alone took 7.4 min on an AMD EPYC (2026-11-29; about 1.5 min on a quiet machine), and ./setup.sh --from KIT
    // passed 10 min with provisioning and the hosts still to come.
    private static readonly TimeSpan SetupTimeout = TimeSpan.FromMinutes(25);

    [LinuxFact("network namespaces are Linux's; this is the proof, made on the course's CI machine")]
    public async Task Offline_kit_alone_sets_up_a_fresh_clone_and_runs_the_first_notebook_with_no_network_then_setup_online_is_fast_and_doctor_all_green()
    {
        var isolate = await NoNetworkCommandAsync();
        using var temp = new TempFolder("fresh-clone-" + Guid.NewGuid().ToString("N")[..6]);
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

        var offline = await TimedAsync(() => RunAsync(isolate[0], [.. isolate.Skip(1), Path.Combine(clone, "setup.sh"), "--from", kit, "--no-kernel"], environment, clone));
        var setup = offline.Result;
        Assert.True(setup.ExitCode == 0, $"./setup.sh --from KIT failed with no network:\n{setup}");
        Assert.Contains($"provisioned .NET {PerfLab.Runtimes.RuntimeCatalog.All[0].Version}", setup.Output, StringComparison.Ordinal);
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

        // Back online, the plain ./setup.sh (README's): nothing left to restore or provision, so well under half
        // the first run; it installs the kernel the offline run skipped, and the doctor reaches NuGet now.
        var online = await TimedAsync(() => RunAsync(Path.Combine(clone, "setup.sh"), [], environment, clone));
        Assert.True(online.Result.ExitCode == 0, $"./setup.sh online after the offline set-up failed:\n{online.Result}");
        Assert.DoesNotContain("provisioning", online.Result.Output, StringComparison.Ordinal);
        Assert.True(
            online.Elapsed < offline.Elapsed / 2,
            $"./setup.sh online took {online.Elapsed.TotalSeconds:0.0} s after {offline.Elapsed.TotalSeconds:0.0} s offline: re-running should skip what is done.\n{online.Result}");

        var doctor = await RunAsync("dotnet", [CourseRepository.PathOf(CourseRepository.CliAssembly(), clone), "doctor"], environment, clone);
        Assert.True(doctor.ExitCode == 0 && doctor.Output.Contains("All checks passed.", StringComparison.Ordinal), $"perflab doctor after setup is not all green:\n{doctor}");
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
