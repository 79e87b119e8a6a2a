using System.Reflection.PortableExecutable;
using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>
/// Launches start a host whose library code is precompiled (ReadyToRun) for the exact runtime, with the runtime's own
/// crossgen2 from NuGet; where that package cannot be had, they start the host as built and say so once.
/// </summary>
public class ReadyToRunHostsTests
{
    // Off linux-x64, or with PERFLAB_HOST_READYTORUN=0, no host is precompiled: each test then checks that instead.
    private static bool Supported => ReadyToRunHosts.Enabled;

    [Fact]
    public async Task A_launch_runs_the_precompiled_library_code_instead_of_compiling_it_at_tier0()
    {
        var traces = Directory.CreateTempSubdirectory("perflab-r2r-trace-").FullName;
        var request = new BenchmarkRequest
        {
            Source = Sources.Tiny(),
            SourcePath = Path.Combine(Path.GetTempPath(), "Precompiled.cs"),
            // A run that measures makes the precompiled host when it is missing (a smoke run would only use one made).
            Mode = BenchmarkMode.Quick,
            Launches = 1,
            Runtimes = RuntimeCatalog.FindAll(["net8.0", "net10.0"]),
            Force = true,
            Environment = new Dictionary<string, string> { ["PERFLAB_JIT_TRACE"] = traces },
        };

        var run = await new BenchmarkEngine(TestHome.Shared).RunAsync(request);

        Assert.False(run.HasErrors, run.ToString());
        var files = Directory.GetFiles(traces);
        Assert.Equal(2, files.Length);
        foreach (var file in files)
        {
            // The host as built compiles about 1,900 BenchmarkDotNet methods at Tier0 per launch; precompiled, under 100
            // (generic code over the framework's types, which crossgen2 cannot compile outside the framework).
            var tier0 = File.ReadLines(file).Count(l => l.Contains(" JIT Tier0 BenchmarkDotNet.", StringComparison.Ordinal));
            Assert.True(Supported == tier0 < 300, $"{Path.GetFileName(file)}: {tier0} BenchmarkDotNet methods compiled at Tier0; a precompiled host compiles under 100, the host as built about 1,900 (precompiled here: {Supported})");
        }

        Directory.Delete(traces, recursive: true);
    }

    [Fact]
    public async Task The_host_is_precompiled_once_per_build_and_runtime_with_every_file_of_the_host_beside_it()
    {
        using var folder = new TempFolder();
        var home = new PerfLabHome(folder.Path);
        var hosts = new HostLayout();
        var locator = new RuntimeLocator(home);
        var runtime = RuntimeCatalog.All.First(r => locator.Locate(r).Source == RuntimeSource.Installed);
        var located = locator.Locate(runtime);
        var precompiled = new ReadyToRunHosts(home, hosts, locator.Sdk);
        var lines = new List<string>();

        // What a smoke run or an asm capture asks: a host already made, or the host as built; nothing is compiled.
        await precompiled.PrepareAsync(located, lines.Add, ReadyToRunHosts.HostMaking.UseIfMade, CancellationToken.None);
        Assert.Equal(hosts.HostAssembly(runtime), precompiled.HostAssembly(runtime));
        Assert.Empty(lines);
        Assert.False(Directory.Exists(home.ReadyToRunHosts), "a run that measures nothing made a precompiled host");

        await precompiled.PrepareAsync(located, lines.Add, ReadyToRunHosts.HostMaking.Make, CancellationToken.None);

        if (!Supported)
        {
            Assert.Equal(hosts.HostAssembly(runtime), precompiled.HostAssembly(runtime));
            Assert.Empty(lines);
            return;
        }

        var made = Path.GetDirectoryName(precompiled.HostAssembly(runtime))!;
        Assert.StartsWith(home.ReadyToRunHosts, made, StringComparison.Ordinal);
        Assert.Contains(lines, l => l.StartsWith($"precompiled the host for .NET {runtime.Version}", StringComparison.Ordinal));
        var built = hosts.FolderFor(runtime);
        foreach (var name in new[] { "BenchmarkDotNet.dll", "Perfolizer.dll", "PerfLab.Host.dll" })
        {
            Assert.True(IsReadyToRun(Path.Combine(made, name)), $"{name} in {made} has no ReadyToRun code");
            Assert.False(IsReadyToRun(Path.Combine(built, name)), $"{name} as built already had ReadyToRun code: the test proves nothing");
        }

        Assert.Equal(
            Directory.EnumerateFileSystemEntries(built, "*", SearchOption.AllDirectories).Select(e => Path.GetRelativePath(built, e)).Order(StringComparer.Ordinal),
            Directory.EnumerateFileSystemEntries(made, "*", SearchOption.AllDirectories).Select(e => Path.GetRelativePath(made, e)).Order(StringComparer.Ordinal));

        // Another process (a new instance) finds it made: no second compile.
        lines.Clear();
        var again = new ReadyToRunHosts(home, hosts, locator.Sdk);
        await again.PrepareAsync(located, lines.Add, ReadyToRunHosts.HostMaking.Make, CancellationToken.None);
        Assert.Equal(precompiled.HostAssembly(runtime), again.HostAssembly(runtime));
        Assert.Empty(lines);
    }

    [Fact]
    public async Task Without_the_crossgen2_package_launches_use_the_host_as_built_said_once_and_not_retried_until_asked()
    {
        using var folder = new TempFolder();
        var home = new PerfLabHome(Path.Combine(folder.Path, "home"));
        var emptySource = Directory.CreateDirectory(Path.Combine(folder.Path, "empty-source")).FullName;
        var hosts = new HostLayout();
        var locator = new RuntimeLocator(home);
        var runtime = RuntimeCatalog.All.First(r => locator.Locate(r).Source == RuntimeSource.Installed);
        var located = locator.Locate(runtime);
        var lines = new List<string>();

        // A package source of its own, holding nothing, stands for an offline kit made before crossgen2 was in it. The
        // restore goes to a packages folder of its own too: the user's NuGet cache may already hold the package.
        var precompiled = new ReadyToRunHosts(home, hosts, locator.Sdk, emptySource, packagesFolder: Path.Combine(folder.Path, "packages"));
        await precompiled.PrepareAsync(located, lines.Add, ReadyToRunHosts.HostMaking.Make, CancellationToken.None);

        Assert.Equal(hosts.HostAssembly(runtime), precompiled.HostAssembly(runtime));
        if (!Supported)
        {
            Assert.Empty(lines);
            return;
        }

        var said = Assert.Single(lines, l => l.StartsWith("launches on", StringComparison.Ordinal));
        Assert.Contains($"the package source has no Microsoft.NETCore.App.Crossgen2.linux-x64 {runtime.Version}", said, StringComparison.Ordinal);

        lines.Clear();
        await precompiled.PrepareAsync(located, lines.Add, ReadyToRunHosts.HostMaking.Make, CancellationToken.None);
        Assert.Empty(lines);

        // The doctor names the remembered reason and the command that tries again.
        var check = Assert.Single(await new PerfLab.Course.Setup.Doctor(home).RunAsync(), c => c.Name == "precompiled host");
        Assert.Equal(PerfLab.Course.Setup.CheckStatus.Warning, check.Status);
        Assert.Contains($"not made for .NET {runtime.Version}", check.Detail, StringComparison.Ordinal);
        Assert.Contains("the package source has no Microsoft.NETCore.App.Crossgen2.linux-x64", check.Detail, StringComparison.Ordinal);
        Assert.Equal("Run `perflab runtimes --provision` while you are online.", check.Fix);

        await precompiled.PrepareAsync(located, lines.Add, ReadyToRunHosts.HostMaking.MakeAgain, CancellationToken.None);
        Assert.Contains(lines, l => l.StartsWith("precompiling the host", StringComparison.Ordinal));
    }

    private static bool IsReadyToRun(string assembly)
    {
        using var reader = new PEReader(File.OpenRead(assembly));
        return reader.PEHeaders.CorHeader is { ManagedNativeHeaderDirectory.Size: > 0 };
    }
}
