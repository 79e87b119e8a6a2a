using PerfLab.Benchmarks;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>The host folder's part in compiling and caching: what cells compile against, and the build hash.</summary>
public class HostLayoutTests
{
    private static readonly PinnedRuntime Net10 = RuntimeCatalog.Find("net10.0");

    private static TempFolder FakeHost(string inputs = "inputs v1")
    {
        var folder = new TempFolder();
        foreach (var name in new[] { "PerfLab.Host.dll", "BenchmarkDotNet.dll", "BenchmarkDotNet.Annotations.dll", "Perfolizer.dll", "Pragmastat.dll", "Other.dll" })
        {
            folder.Write(Path.Combine("net10.0", name), name);
        }

        folder.Write(Path.Combine("net10.0", "PerfLab.Inputs.dll"), inputs);
        return folder;
    }

    [Fact]
    public void Cells_compile_against_benchmarkdotnet_and_perflab_inputs_from_the_host_folder()
    {
        using var host = FakeHost();

        var references = new HostLayout(host.Path).CellReferences(Net10).Select(Path.GetFileName);

        Assert.Equal(["BenchmarkDotNet.Annotations.dll", "BenchmarkDotNet.dll", "PerfLab.Inputs.dll", "Perfolizer.dll", "Pragmastat.dll"], references);
    }

    [Fact]
    public void Another_build_of_perflab_inputs_is_another_host_version()
    {
        using var first = FakeHost("inputs v1");
        using var same = FakeHost("inputs v1");
        using var other = FakeHost("inputs v2");

        var version = new HostLayout(first.Path).VersionOf(Net10);

        Assert.Matches("^[0-9a-f]{16}$", version);
        Assert.Equal(version, new HostLayout(same.Path).VersionOf(Net10));
        Assert.NotEqual(version, new HostLayout(other.Path).VersionOf(Net10));
    }

    [Fact]
    public void A_host_folder_without_perflab_inputs_says_so()
    {
        using var host = FakeHost();
        File.Delete(Path.Combine(host.Path, "net10.0", "PerfLab.Inputs.dll"));

        var ex = Assert.Throws<PerfLabException>(() => new HostLayout(host.Path).VersionOf(Net10));

        Assert.StartsWith("The PerfLab host for net10.0 is incomplete (no ", ex.Message, StringComparison.Ordinal);
        Assert.Equal("Build the helpers from the repository root: `dotnet build`.", ex.Fix);
    }
}
