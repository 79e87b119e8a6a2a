using PerfLab.Benchmarks;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>`perflab runtimes`, as a process: what is missing, and provisioning it.</summary>
[Collection(BusyCliRuns.Name)]
public class RuntimesCommandTests
{
    [Fact]
    public async Task Provisioning_from_runtime_packs_fills_an_empty_home()
    {
        using var home = new TempFolder();
        var env = new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path };

        var before = await CliProcess.RunAsync(["runtimes"], env);
        var locator = new RuntimeLocator(new PerfLabHome(home.Path));
        var installed = RuntimeCatalog.All.Where(r => locator.Locate(r).Source != RuntimeSource.Missing).ToArray();
        var provision = await CliProcess.RunAsync(["runtimes", "--provision"], env);

        Assert.Matches(@"net8\.0\s+8\.0\.31\s+missing", before.Output);
        Assert.True(provision.ExitCode == 0, provision.ToString());
        Assert.Matches(@"net8\.0\s+8\.0\.31\s+provisioned\s+" + System.Text.RegularExpressions.Regex.Escape(home.Path), provision.Output);
        Assert.Matches(@"net9\.0\s+9\.0\.20\s+provisioned", provision.Output);
        Assert.True(File.Exists(Path.Combine(home.Path, "dotnet", "shared", "Microsoft.NETCore.App", "8.0.31", "System.Private.CoreLib.dll")));

        // The runtimes are prepared side by side: downloads in turn (none waits for "another process"), each host as soon
        // as its runtime is there. One after another, the last download would end before an installed runtime's host
        // began compiling.
        Assert.DoesNotContain("another PerfLab process", provision.Error, StringComparison.Ordinal);
        if (!ReadyToRunHosts.Enabled)
        {
            return;
        }

        var lines = provision.Error.Split('\n').ToList();
        foreach (var runtime in RuntimeCatalog.All)
        {
            Assert.Contains(lines, l => l.StartsWith($"precompiled the host for .NET {runtime.Version} into", StringComparison.Ordinal));
        }

        if (installed.Length > 0 && installed.Length < RuntimeCatalog.All.Count)
        {
            var compiling = lines.FindIndex(l => l.StartsWith($"precompiling the host for .NET {installed[0].Version}", StringComparison.Ordinal));
            var lastDownload = lines.FindLastIndex(l => l.StartsWith("provisioned .NET", StringComparison.Ordinal));
            Assert.True(compiling >= 0 && compiling < lastDownload, $"the host of an installed runtime waited for the downloads:\n{provision.Error}");
        }
    }
}
