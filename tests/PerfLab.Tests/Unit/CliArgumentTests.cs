using System.CommandLine;
using PerfLab.Cli;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>The command line, parsed in-process: bad arguments stop before anything runs.</summary>
public class CliArgumentTests
{
    private static Task<(int ExitCode, string Output, string Error)> InvokeAsync(params string[] args) => InProcessCli.InvokeAsync(args);

    [Fact]
    public async Task An_unknown_mode_lists_the_three_modes()
    {
        var (exitCode, _, error) = await InvokeAsync("bench", "x.cs", "--mode", "fast");
        Assert.Equal(1, exitCode);
        Assert.Contains("Argument 'fast' not recognized. Must be one of:", error, StringComparison.Ordinal);
        Assert.Contains("'smoke'", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_env_value_without_equals_sign_is_refused_before_any_run()
    {
        using var folder = new TempFolder();
        var file = folder.Write("Tiny.cs", Sources.Tiny());

        var (exitCode, output, error) = await InvokeAsync("bench", file, "--env", "NOEQUALS");

        Assert.Equal(1, exitCode);
        Assert.Equal("error: 'NOEQUALS' is not NAME=VALUE.\nfix: Write it as --env NAME=VALUE, e.g. --env DOTNET_gcServer=1.\n", error.ReplaceLineEndings("\n"));
        Assert.Equal("", output);
    }

    [Theory]
    [InlineData("--case-timeout", "-3")]
    [InlineData("--timeout", "soon")]
    public async Task A_timeout_must_be_a_positive_number_of_seconds(string option, string value)
    {
        var (exitCode, _, error) = await InvokeAsync("bench", "x.cs", option, value);
        Assert.Equal(1, exitCode);
        Assert.Contains($"{option} '{value}' is not a positive number of seconds.", error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("bench", "0")]
    [InlineData("bench", "two")]
    [InlineData("reference", "-1")]
    [InlineData("reference", "1.5")]
    public async Task Launches_must_be_a_whole_number_of_at_least_one(string command, string value)
    {
        string[] args = command == "bench" ? ["bench", "x.cs", "--launches", value] : ["reference", "--out", "unused", "--launches", value];
        var (exitCode, _, error) = await InvokeAsync(args);
        Assert.Equal(1, exitCode);
        Assert.Contains($"--launches '{value}' is not a whole number of processes of at least 1.", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Bench_without_a_file_says_the_file_is_required()
    {
        var (exitCode, _, error) = await InvokeAsync("bench");
        Assert.Equal(1, exitCode);
        Assert.Contains("Required argument 'FILE' missing for command: 'bench'.", error, StringComparison.Ordinal);
    }

    [Fact]
    public void Options_parse_into_their_values()
    {
        var parse = PerfLabCommand.Create(TextWriter.Null, TextWriter.Null)
            .Parse(["bench", "f.cs", "--runtimes", "net10.0", "net8.0", "--mode", "full", "--env", "A=1", "--env", "B=2", "--filter", "*Sum*", "--force", "--case-timeout", "7.5", "--launches", "3"]);

        Assert.Empty(parse.Errors);
        Assert.Equal(["net10.0", "net8.0"], parse.GetValue<string[]>("--runtimes")!);
        Assert.Equal("full", parse.GetValue<string>("--mode"));
        Assert.Equal(["A=1", "B=2"], parse.GetValue<string[]>("--env")!);
        Assert.Equal(["*Sum*"], parse.GetValue<string[]>("--filter")!);
        Assert.True(parse.GetValue<bool>("--force"));
        Assert.Equal(TimeSpan.FromSeconds(7.5), parse.GetValue<TimeSpan?>("--case-timeout"));
        Assert.Equal(3, parse.GetValue<int?>("--launches"));
    }

    [Fact]
    public void Runtimes_default_to_all_three_in_order()
    {
        var parse = PerfLabCommand.Create(TextWriter.Null, TextWriter.Null).Parse(["bench", "f.cs"]);
        Assert.Equal(["net8.0", "net9.0", "net10.0"], parse.GetValue<string[]>("--runtimes")!);
        Assert.Null(parse.GetValue<string?>("--mode")); // no default here: ModeChoice.Resolve goes on to PERFLAB_MODE, then quick
    }

    [Fact]
    public void Regex_takes_the_pattern_options_and_runtimes()
    {
        var parse = PerfLabCommand.Create(TextWriter.Null, TextWriter.Null).Parse(["regex", @"\w*\p{Sm}", "--options", "IgnoreCase,Compiled", "-r", "net9.0", "-r", "net10.0", "--full"]);

        Assert.Empty(parse.Errors);
        Assert.Equal(@"\w*\p{Sm}", parse.GetValue<string>("PATTERN"));
        Assert.Equal(["IgnoreCase,Compiled"], parse.GetValue<string[]>("--options")!);
        Assert.Equal(["net9.0", "net10.0"], parse.GetValue<string[]>("--runtimes")!);
        Assert.True(parse.GetValue<bool>("--full"));
    }

    [Theory]
    [InlineData("--options", "IgnoreCase,Fast", "error: Unknown regex option 'Fast'.\nfix: Use RegexOptions names, separated by commas: None, IgnoreCase, Multiline, ExplicitCapture, Compiled, Singleline, IgnorePatternWhitespace, RightToLeft, ECMAScript, CultureInvariant, NonBacktracking.\n")]
    [InlineData("-r", "net7.0", "error: Unknown runtime 'net7.0'.\nfix: Use one of: net8.0, net9.0, net10.0.\n")]
    public async Task Regex_refuses_an_unknown_option_name_or_runtime_in_one_message(string option, string value, string expected)
    {
        var (exitCode, output, error) = await InvokeAsync("regex", "a+", option, value);

        Assert.Equal(1, exitCode);
        Assert.Equal(expected, error.ReplaceLineEndings("\n"));
        Assert.Equal("", output);
    }
}
