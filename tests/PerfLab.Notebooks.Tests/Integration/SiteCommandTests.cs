namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>`perflab site` refuses bad input with one clear message, before it runs any notebook or writes any page.</summary>
public class SiteCommandTests
{
    [Theory]
    [InlineData("--repository", "not a repository", "is not a GitHub owner/name", "OWNER/NAME")]
    [InlineData("--machine", "no/such/machine.json", "Reference file not found: ", "--machine")]
    public async Task Bad_input_is_one_message_and_no_page(string option, string value, string message, string fix)
    {
        using var folder = new TempFolder();
        var site = Path.Combine(folder.Path, "site");

        var result = await CliProcess.RunAsync(["site", "--out", site, option, value], TestHome.Environment);

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains(message, result.Error, StringComparison.Ordinal);
        Assert.Contains(fix, result.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(site), "a site folder was written for bad input");
    }

    [Fact]
    public async Task A_reference_file_that_is_not_one_is_named_with_how_to_restore_it()
    {
        using var folder = new TempFolder();
        var broken = folder.Write("broken.json", "{ \"schema\": \"perflab-reference/1\", \"runs\": [ { \"run\": ");
        var site = Path.Combine(folder.Path, "site");

        var result = await CliProcess.RunAsync(["site", "--out", site, "--machine", broken], TestHome.Environment);

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains($"Cannot read {broken}", result.Error, StringComparison.Ordinal);
        Assert.Contains("Restore it from git", result.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(site), "a site folder was written for a broken reference file");
    }
}
