using System.Text.Json;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>`perflab prefetch`, as a process: an unknown platform, and a kit for two platforms made twice.</summary>
[Collection(BusyCliRuns.Name)]
public class PrefetchCommandTests
{
    [Fact]
    public async Task Prefetch_refuses_an_unknown_platform_before_writing_anything()
    {
        using var home = new TempFolder();
        var kit = Path.Combine(home.Path, "kit");

        var result = await CliProcess.RunAsync(["prefetch", "--out", kit, "--platform", "linux-x64", "amiga-68k"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path });

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains("error: Unknown platform 'amiga-68k'.", result.Error, StringComparison.Ordinal);
        Assert.Contains("linux-x64, linux-arm64, osx-x64, osx-arm64, win-x64, win-arm64, or all", result.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(kit), "No kit folder should be made for a bad platform.");
    }

    [Fact]
    // linux-x64 and win-x64: the only platforms whose .NET 8 and 9 packs this machine's registry holds.
    public async Task Prefetch_for_another_platform_adds_its_runtime_and_apphost_packs_and_a_course_bundle()
    {
        using var home = new TempFolder();
        var kit = Path.Combine(home.Path, "kit");

        var result = await CliProcess.RunAsync(["prefetch", "--out", kit, "--platform", "linux-x64,win-x64"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path }, TimeSpan.FromMinutes(10));

        Assert.True(result.ExitCode == 0, result.ToString());
        var packages = Directory.GetFiles(Path.Combine(kit, "packages"), "*.nupkg").Select(Path.GetFileName).ToHashSet();
        foreach (var platform in new[] { "linux-x64", "win-x64" })
        {
            foreach (var version in RuntimeCatalog.All.Select(r => r.Version))
            {
                Assert.True(packages.Contains($"microsoft.netcore.app.runtime.{platform}.{version}.nupkg"), $"No {platform} runtime pack {version} in the kit:\n{string.Join("\n", packages.Order())}");
            }
        }

        Assert.Contains("benchmarkdotnet.0.15.8.nupkg", packages);
        // The apphost pack the .NET 8 host build uses, for Windows too (only linux-x64's is in the restore here).
        Assert.Contains(packages, p => p!.StartsWith("microsoft.netcore.app.host.win-x64.8.0.", StringComparison.Ordinal));
        using var manifest = JsonDocument.Parse(File.ReadAllText(Path.Combine(kit, "perflab-kit.json")));
        Assert.Equal(packages.Count, manifest.RootElement.GetProperty("packageCount").GetInt32());
        Assert.Equal(["linux-x64", "win-x64"], manifest.RootElement.GetProperty("platforms").EnumerateArray().Select(p => p.GetString()));
        Assert.True(File.Exists(Path.Combine(kit, "course.bundle")), result.ToString());

        // Again: nothing is copied or downloaded twice.
        var again = await CliProcess.RunAsync(["prefetch", "--out", kit, "--platform", "linux-x64,win-x64"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path }, TimeSpan.FromMinutes(10));
        Assert.True(again.ExitCode == 0, again.ToString());
        Assert.Contains("copied 0 from the NuGet cache; 0 to download", again.Error, StringComparison.Ordinal);
    }
}
