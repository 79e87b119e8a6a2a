using System.CommandLine;
using PerfLab.Inputs;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>`perflab corpus`, in-process: the file it writes and the values it refuses.</summary>
public class CorpusCommandTests
{
    private static Task<(int ExitCode, string Output, string Error)> InvokeAsync(params string[] args) => InProcessCli.InvokeAsync(args);

    [Fact]
    public async Task It_writes_the_corpus_bytes_and_says_where_and_what()
    {
        using var folder = new TempFolder();
        var file = Path.Combine(folder.Path, "deeper", "corpus.txt");

        var (exitCode, output, error) = await InvokeAsync("corpus", "--length", "5000", "--seed", "3", "--out", file);

        Assert.Equal(0, exitCode);
        Assert.Equal("", error);
        Assert.Equal(Corpus.ProseUtf8(5000, 3), File.ReadAllBytes(file));
        Assert.StartsWith($"Written: {file} (5,000 chars, ", output, StringComparison.Ordinal);
        Assert.Contains(", seed 3, SHA-256 ", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_seed_defaults_to_the_courses_and_an_existing_file_is_replaced()
    {
        using var folder = new TempFolder();
        var file = folder.Write("corpus.txt", new string('x', 10_000));

        var (exitCode, output, _) = await InvokeAsync("corpus", "-n", "100", "-o", file);

        Assert.Equal(0, exitCode);
        Assert.Equal(Corpus.ProseUtf8(100, 1), File.ReadAllBytes(file));
        Assert.Contains("seed 1,", output, StringComparison.Ordinal);
        Assert.Equal(["corpus.txt"], Directory.GetFiles(folder.Path).Select(Path.GetFileName));
    }

    [Theory]
    [InlineData("--length", "abc", "--length 'abc' is not a number of chars from 0 to 100000000.")]
    [InlineData("--length", "-5", "--length '-5' is not a number of chars from 0 to 100000000.")]
    [InlineData("--length", "100000001", "--length '100000001' is not a number of chars from 0 to 100000000.")]
    [InlineData("--seed", "1.5", "--seed '1.5' is not a whole number.")]
    [InlineData("--seed", "99999999999", "--seed '99999999999' is not a whole number.")]
    public async Task A_bad_number_is_refused_by_name_before_anything_is_written(string option, string value, string message)
    {
        using var folder = new TempFolder();
        var file = Path.Combine(folder.Path, "corpus.txt");
        string[] args = option == "--length" ? ["corpus", option, value, "--out", file] : ["corpus", "--length", "10", option, value, "--out", file];

        var (exitCode, _, error) = await InvokeAsync(args);

        Assert.Equal(1, exitCode);
        Assert.Contains(message, error, StringComparison.Ordinal);
        Assert.False(File.Exists(file));
    }

    [Fact]
    public async Task Length_and_out_are_required_and_out_must_not_be_a_folder()
    {
        using var folder = new TempFolder();

        Assert.Contains("Option '--length' is required.", (await InvokeAsync("corpus", "--out", Path.Combine(folder.Path, "x.txt"))).Error, StringComparison.Ordinal);
        Assert.Contains("Option '--out' is required.", (await InvokeAsync("corpus", "--length", "10")).Error, StringComparison.Ordinal);
        var (exitCode, _, error) = await InvokeAsync("corpus", "--length", "10", "--out", folder.Path);
        Assert.Equal(1, exitCode);
        Assert.Equal($"error: {folder.Path} is a folder.\nfix: Give --out a file name, e.g. --out corpus.txt.\n", error.ReplaceLineEndings("\n"));
    }
}
