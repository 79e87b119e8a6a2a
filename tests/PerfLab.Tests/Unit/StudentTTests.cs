using PerfLab.Results;

namespace PerfLab.Tests.Unit;

public class StudentTTests
{
    [Theory]
    [InlineData(0.975, 1, 12.7062)] // tan(0.475 pi)
    [InlineData(0.975, 2, 4.3027)]
    [InlineData(0.975, 3, 3.1824)]
    [InlineData(0.975, 4, 2.7764)]
    [InlineData(0.975, 10, 2.2281)]
    [InlineData(0.975, 30, 2.0423)]
    [InlineData(0.975, 120, 1.9799)]
    [InlineData(0.975, 1e6, 1.9600)] // the normal distribution's
    [InlineData(0.9995, 12, 4.3178)] // BenchmarkDotNet's Error of 13 iterations: 99.9%, two-sided
    [InlineData(0.9995, 99, 3.3915)]
    public void Quantiles_match_the_tables(double p, double degreesOfFreedom, double expected) =>
        Assert.Equal(expected, StudentT.Quantile(p, degreesOfFreedom), 4);

    [Fact]
    public void The_closed_forms_of_one_and_two_degrees_of_freedom_hold_to_twelve_digits()
    {
        Assert.Equal(Math.Tan(Math.PI * 0.475), StudentT.Quantile(0.975, 1), 9);
        Assert.Equal(0.95 / Math.Sqrt(2 * 0.975 * 0.025), StudentT.Quantile(0.975, 2), 10);
    }

    [Fact]
    public void Fractional_degrees_of_freedom_fall_between_their_whole_neighbours_and_invert_the_distribution_function()
    {
        var quantile = StudentT.Quantile(0.975, 2.5);

        Assert.InRange(quantile, StudentT.Quantile(0.975, 3), StudentT.Quantile(0.975, 2));
        Assert.Equal(0.975, StudentT.Cdf(quantile, 2.5), 10);
    }

    [Fact]
    public void Lower_quantiles_mirror_upper_ones() =>
        Assert.Equal(-StudentT.Quantile(0.975, 7.3), StudentT.Quantile(0.025, 7.3), 10);
}
