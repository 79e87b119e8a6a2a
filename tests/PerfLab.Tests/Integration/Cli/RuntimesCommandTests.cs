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
        var provision = await CliProcess.RunAsync(["runtimes", "--provision"], env);

        Assert.Matches(@"net8\.0\s+8\.0\.31\s+missing", before.Output);
        Assert.True(provision.ExitCode == 0, provision.ToString());
        Assert.Matches(@"net8\.0\s+8\.0\.31\s+provisioned\s+" + System.Text.RegularExpressions.Regex.Escape(home.Path), provision.Output);
        Assert.Matches(@"net9\.0\s+9\.0\.20\s+provisioned", provision.Output);
        Assert.True(File.Exists(Path.Combine(home.Path, "dotnet", "shared", "Microsoft.NETCore.App", "8.0.31", "System.Private.CoreLib.dll")));
    }
}
