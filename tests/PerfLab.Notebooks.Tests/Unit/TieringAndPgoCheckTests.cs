using PerfLab.Contract;
using PerfLab.Notebooks.Exercises;
using PerfLab.Results;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>The jit/01 exercise's check on runs built by hand: what it accepts in each mode.</summary>
public class TieringAndPgoCheckTests
{
    private static BenchmarkRun Run(BenchmarkMode mode, long allocated, string runtime = "net10.0", params string[] env) =>
        Fake.Run(mode, Fake.Outcome(runtime, "10.0.12", Fake.Case("Total", 500, allocated))) with
        {
            Environment = env.ToDictionary(e => e[..e.IndexOf('=')], e => e[(e.IndexOf('=') + 1)..]),
        };

    [Theory]
    [InlineData("DOTNET_TieredPGO=0")]
    [InlineData("DOTNET_TieredCompilation=0")]
    [InlineData("COMPlus_TieredPGO=0")]
    public void In_quick_mode_bytes_allocated_again_pass(string setting)
    {
        var result = TieringAndPgo.CheckProfileOff(Run(BenchmarkMode.Quick, 32, env: setting));
        Assert.True(result.Solved, result.ToString());
        Assert.Contains("allocated 32 B", result.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("DOTNET_TieredPGO=0")]
    [InlineData("DOTNET_ReadyToRun=0")]
    public void In_quick_mode_no_allocation_fails_whatever_the_setting_says(string setting)
    {
        var result = TieringAndPgo.CheckProfileOff(Run(BenchmarkMode.Quick, 0, env: setting));
        Assert.False(result.Solved);
        Assert.Contains("still allocated 0 B", result.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_byte_or_two_per_call_is_measurement_noise_not_an_allocated_enumerator()
    {
        // A background tier-1 compile landing during the measurement adds a byte or two on a busy machine.
        var result = TieringAndPgo.CheckProfileOff(Run(BenchmarkMode.Quick, 2, env: "DOTNET_TieredPGO=0"));
        Assert.False(result.Solved);
        Assert.Contains("still allocated 2 B", result.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("DOTNET_TieredPGO=0", true)]
    [InlineData("DOTNET_TC_QuickJit=0", true)]
    [InlineData("DOTNET_TieredPGO=1", false)]
    [InlineData("DOTNET_ReadyToRun=0", false)]
    public void In_smoke_mode_the_setting_decides(string setting, bool solved)
    {
        // A cold call allocates either way: smoke numbers cannot tell.
        var result = TieringAndPgo.CheckProfileOff(Run(BenchmarkMode.Smoke, 32, env: setting));
        Assert.Equal(solved, result.Solved);
    }

    [Fact]
    public void No_setting_no_net10_row_or_no_run_say_what_to_do()
    {
        Assert.Contains("no environment setting", TieringAndPgo.CheckProfileOff(Run(BenchmarkMode.Quick, 32)).Message, StringComparison.Ordinal);
        Assert.Contains("no .NET 10 row", TieringAndPgo.CheckProfileOff(Run(BenchmarkMode.Quick, 32, "net8.0", "DOTNET_TieredPGO=0")).Message, StringComparison.Ordinal);
        Assert.False(TieringAndPgo.CheckProfileOff(null).Solved);
    }
}
