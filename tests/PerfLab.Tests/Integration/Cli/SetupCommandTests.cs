using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>`perflab setup --from`, as a process: a folder that is not a kit, a kit for other platforms, a damaged manifest.</summary>
[Collection(BusyCliRuns.Name)]
public class SetupCommandTests
{
    [Fact]
    public async Task Setup_from_a_folder_that_is_not_a_kit_says_how_to_make_one_and_provisions_nothing()
    {
        using var home = new TempFolder();
        var notAKit = Directory.CreateDirectory(Path.Combine(home.Path, "usb-stick")).FullName;

        var result = await CliProcess.RunAsync(["setup", "--from", notAKit, "--no-kernel"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path });

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains($"error: {notAKit} is not an offline kit: it has no perflab-kit.json.", result.Error, StringComparison.Ordinal);
        Assert.Contains("prefetch --out KIT", result.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(home.Path, "dotnet")), "Nothing should be provisioned from a folder that is not a kit.");
    }

    [Fact]
    public async Task Setup_from_a_kit_made_for_other_platforms_names_both_and_the_prefetch_that_fits()
    {
        using var home = new TempFolder();
        var kit = Path.Combine(home.Path, "kit");
        Directory.CreateDirectory(Path.Combine(kit, "packages"));
        var otherPlatform = OperatingSystem.IsWindows() ? "linux-arm64" : "win-arm64";
        home.Write("kit/perflab-kit.json", $$"""
            { "format": 1, "created": "2026-11-23T00:00:00+00:00", "sdkVersion": "10.0.100", "platforms": ["{{otherPlatform}}"],
              "runtimes": [{{string.Join(", ", RuntimeCatalog.All.Select(r => $"\"{r.Version}\""))}}], "packageCount": 0, "packageBytes": 0, "courseCommit": null }
            """);

        var result = await CliProcess.RunAsync(["setup", "--from", kit, "--no-kernel"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path });

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains($"was made for {otherPlatform}; this machine is", result.Error, StringComparison.Ordinal);
        Assert.Contains("--platform all", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Setup_from_a_damaged_manifest_says_so()
    {
        using var home = new TempFolder();
        var manifest = home.Write("kit/perflab-kit.json", "{ \"format\": 1, \"platforms\": [");

        var result = await CliProcess.RunAsync(["setup", "--from", Path.GetDirectoryName(manifest)!, "--no-kernel"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path });

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains($"error: {manifest} is damaged", result.Error, StringComparison.Ordinal);
    }
}
