using PerfLab.Benchmarks;

namespace PerfLab.Tests.Unit;

public class RequestTests
{
    [Fact]
    public void Environment_pairs_split_at_the_first_equals_sign()
    {
        var env = BenchmarkRequest.ParseEnvironment(["DOTNET_TieredPGO=0", "X=a=b", "EMPTY="]);
        Assert.Equal("0", env["DOTNET_TieredPGO"]);
        Assert.Equal("a=b", env["X"]);
        Assert.Equal("", env["EMPTY"]);
    }

    [Theory]
    [InlineData("NOEQUALS")]
    [InlineData("=value")]
    public void Environment_pair_without_a_name_is_rejected_with_an_example(string pair)
    {
        var ex = Assert.Throws<PerfLabException>(() => BenchmarkRequest.ParseEnvironment([pair]));
        Assert.Equal($"'{pair}' is not NAME=VALUE.", ex.Message);
        Assert.Contains("--env NAME=VALUE", ex.Fix, StringComparison.Ordinal);
    }

    [Fact]
    public void Missing_file_is_reported_with_the_current_folder()
    {
        var ex = Assert.Throws<PerfLabException>(() => BenchmarkRequest.FromFile("no/such/file.cs"));
        Assert.Equal("File not found: no/such/file.cs.", ex.Message);
        Assert.Contains(Environment.CurrentDirectory, ex.Fix, StringComparison.Ordinal);
    }

    [Fact]
    public void A_folder_is_not_a_source_file()
    {
        var ex = Assert.Throws<PerfLabException>(() => BenchmarkRequest.FromFile(Path.GetTempPath()));
        Assert.Contains("is a folder", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Timeouts_default_by_mode()
    {
        var request = new BenchmarkRequest { Source = "", SourcePath = "x.cs", Mode = Contract.BenchmarkMode.Smoke };
        Assert.Equal(TimeSpan.FromMinutes(2), request.EffectiveCaseTimeout);
        Assert.Equal(TimeSpan.FromSeconds(5), (request with { CaseTimeout = TimeSpan.FromSeconds(5) }).EffectiveCaseTimeout);
    }
}
