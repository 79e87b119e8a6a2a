using PerfLab.Benchmarks;
using PerfLab.Runtimes;

namespace PerfLab.Tests.Unit;

public class CompilerSymbolsTests
{
    [Fact]
    public void Net9_defines_the_or_greater_symbols_up_to_9_and_not_10()
    {
        var symbols = BenchmarkCompiler.PreprocessorSymbols(RuntimeCatalog.Find("net9.0"));
        Assert.Contains("NET9_0", symbols);
        Assert.Contains("NET8_0_OR_GREATER", symbols);
        Assert.Contains("NET9_0_OR_GREATER", symbols);
        Assert.Contains("NETCOREAPP3_1_OR_GREATER", symbols);
        Assert.Contains("RELEASE", symbols);
        Assert.DoesNotContain("NET10_0_OR_GREATER", symbols);
        Assert.DoesNotContain("NET8_0", symbols);
    }

    [Fact]
    public void A_benchmark_sees_every_namespace_a_cell_sees_then_a_console_projects_then_benchmark_attributes()
    {
        Assert.Equal(
            ["System", "System.Collections", "System.Collections.Generic", "System.Linq", "System.Text", "System.Threading.Tasks", "System.IO", "System.Net.Http", "System.Threading", "BenchmarkDotNet.Attributes"],
            DefaultUsings.Benchmark);
    }
}
