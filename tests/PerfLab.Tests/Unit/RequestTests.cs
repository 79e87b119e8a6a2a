using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Runtimes;

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

    [Theory]
    [InlineData(BenchmarkMode.Smoke, false, false)]
    [InlineData(BenchmarkMode.Quick, false, true)]
    [InlineData(BenchmarkMode.Full, false, true)]
    [InlineData(BenchmarkMode.Quick, true, false)]
    [InlineData(BenchmarkMode.Full, true, false)]
    public void Only_a_run_that_reads_times_holds_the_measuring_lock_alone(BenchmarkMode mode, bool readsOnlyBytes, bool alone)
    {
        var request = new BenchmarkRequest { Source = "", SourcePath = "Bench.cs", Mode = mode, ReadsOnlyBytes = readsOnlyBytes };
        Assert.True(request.HoldsMeasuringLockAlone == alone, $"{mode} mode, ReadsOnlyBytes {readsOnlyBytes}: holds the lock alone {request.HoldsMeasuringLockAlone}, expected {alone}");
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

    [Fact]
    public void Launches_default_by_mode_and_a_request_asks_for_at_least_one()
    {
        var request = new BenchmarkRequest { Source = "", SourcePath = "x.cs", Mode = BenchmarkMode.Quick };
        Assert.Equal(QuickJob.Launches, request.EffectiveLaunches);
        Assert.Equal(1, (request with { Launches = 1 }).EffectiveLaunches);
        Assert.Equal(1, (request with { Mode = BenchmarkMode.Full }).EffectiveLaunches);

        var ex = Assert.Throws<PerfLabException>(() => (request with { Launches = 0 }).Validate());
        Assert.Contains("at least one", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void The_content_key_follows_what_is_measured_and_ignores_how_long_and_line_endings()
    {
        var request = new BenchmarkRequest
        {
            Source = "public class A\n{\n    [Benchmark] public int One() => 1;\n}\n",
            SourcePath = "cell 3",
            Filter = ["A.*"],
            Environment = BenchmarkRequest.ParseEnvironment(["DOTNET_TieredPGO=0"]),
        };
        var key = request.ContentKey();

        Assert.Matches("^[0-9a-f]{64}$", key);
        Assert.Equal(key, (request with { Mode = BenchmarkMode.Smoke, CaseTimeout = TimeSpan.FromSeconds(3), SourcePath = "cell 9", Force = true, Launches = 1 }).ContentKey());
        Assert.Equal(key, (request with { Source = request.Source.Replace("\n", "\r\n", StringComparison.Ordinal) }).ContentKey());
        Assert.NotEqual(key, (request with { Source = request.Source.Replace("=> 1", "=> 2", StringComparison.Ordinal) }).ContentKey());
        Assert.NotEqual(key, (request with { Filter = ["A.One"] }).ContentKey());
        Assert.NotEqual(key, (request with { Environment = BenchmarkRequest.ParseEnvironment(["DOTNET_TieredPGO=1"]) }).ContentKey());
        Assert.NotEqual(key, (request with { Runtimes = RuntimeCatalog.FindAll(["net8.0", "net10.0"]) }).ContentKey());
    }
}
