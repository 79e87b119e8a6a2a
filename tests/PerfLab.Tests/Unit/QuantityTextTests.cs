using PerfLab.Results;

namespace PerfLab.Tests.Unit;

public class QuantityTextTests
{
    [Theory]
    [InlineData(0.0125, "0.0125 ns")]
    [InlineData(12.345, "12.35 ns")]
    [InlineData(999.4, "999.4 ns")]
    [InlineData(1234.6, "1.235 μs")]
    [InlineData(2_500_000, "2.500 ms")]
    [InlineData(3_000_000_000, "3.000 s")]
    public void Times_scale_their_unit(double ns, string expected) => Assert.Equal(expected, QuantityText.Time(ns));

    [Theory]
    [InlineData(0L, "-")]
    [InlineData(24L, "24 B")]
    [InlineData(2048L, "2.000 KB")]
    [InlineData(3L * 1024 * 1024, "3.000 MB")]
    public void Bytes_scale_their_unit(long bytes, string expected) => Assert.Equal(expected, QuantityText.Bytes(bytes));

    [Fact]
    public void Unknown_ratio_is_a_question_mark() => Assert.Equal("?", QuantityText.Ratio(null));
}
