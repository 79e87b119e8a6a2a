using PerfLab.Contract;

namespace PerfLab.Tests.Unit;

// The runtime reads DOTNET_TC_CallCountingDelayMs as hexadecimal: "100" there is 256 ms, not 100.
public class CallCountingDelayTests
{
    [Theory]
    [InlineData(30, "1E")]
    [InlineData(100, "64")]
    [InlineData(256, "100")]
    [InlineData(0, "0")]
    public void A_delay_is_written_in_hexadecimal(int milliseconds, string setting) =>
        Assert.Equal(setting, QuickJob.CallCountingDelaySetting(milliseconds));

    [Theory]
    [InlineData("1E", 30)]
    [InlineData("1e", 30)]
    [InlineData("0x1E", 30)]
    [InlineData(" 64 ", 100)]
    [InlineData("100", 256)]
    [InlineData("0", 0)]
    public void A_setting_is_read_as_the_runtime_reads_it(string setting, int milliseconds) =>
        Assert.Equal(milliseconds, QuickJob.CallCountingDelayOf(setting));

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("thirty")]
    [InlineData("-5")]
    [InlineData("0x")]
    public void A_setting_that_is_no_such_number_reads_as_none(string? setting) =>
        Assert.Null(QuickJob.CallCountingDelayOf(setting));
}
