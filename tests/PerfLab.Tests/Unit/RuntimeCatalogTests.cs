using PerfLab.Runtimes;

namespace PerfLab.Tests.Unit;

public class RuntimeCatalogTests
{
    [Theory]
    [InlineData("net8.0", "8.0.31")]
    [InlineData("net8", "8.0.31")]
    [InlineData("9.0", "9.0.20")]
    [InlineData(" NET10.0 ", "10.0.12")]
    public void Known_names_and_their_short_forms_resolve_to_the_pinned_version(string name, string version)
    {
        Assert.Equal(version, RuntimeCatalog.Find(name).Version);
    }

    [Fact]
    public void Unknown_runtime_names_the_known_ones()
    {
        var ex = Assert.Throws<PerfLabException>(() => RuntimeCatalog.Find("net7.0"));
        Assert.Equal("Unknown runtime 'net7.0'.", ex.Message);
        Assert.Equal("Use one of: net8.0, net9.0, net10.0.", ex.Fix);
    }

    [Fact]
    public void An_empty_list_means_every_runtime_and_order_is_kept_without_repeats()
    {
        Assert.Equal(RuntimeCatalog.All, RuntimeCatalog.FindAll([]));
        Assert.Equal(["net10.0", "net8.0"], RuntimeCatalog.FindAll(["net10.0", "net8.0", "net10"]).Select(r => r.Moniker));
    }

    [Fact]
    public void Patch_versions_are_pinned_exactly_once_per_major()
    {
        Assert.Equal([8, 9, 10], RuntimeCatalog.All.Select(r => r.Major));
        Assert.All(RuntimeCatalog.All, r => Assert.Matches(@"^\d+\.0\.\d+$", r.Version));
    }
}
