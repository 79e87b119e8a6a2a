using System.CommandLine;
using System.Globalization;
using System.Security.Cryptography;
using PerfLab.Inputs;

namespace PerfLab.Cli;

/// <summary>`perflab corpus`: writes the generated text benchmarks use (PerfLab.Inputs' Corpus.Prose) to a file, to look at.</summary>
internal static class CorpusCommand
{
    /// <summary>The longest text the command writes: 100 MB, six times the posts' largest input.</summary>
    public const int MaxLength = 100_000_000;

    public static Command Create(TextWriter output, TextWriter error)
    {
        var length = new Option<int>("--length", "-n")
        {
            Description = $"How many chars (= bytes: the text is ASCII), from 0 to {MaxLength.ToString("N0", CultureInfo.InvariantCulture)}; the course's benchmarks use 1000000.",
            HelpName = "N",
            Required = true,
            CustomParser = result => Whole(result, "--length", 0, MaxLength, $"a number of chars from 0 to {MaxLength.ToString(CultureInfo.InvariantCulture)}"),
        };
        var seed = new Option<int>("--seed", "-s")
        {
            Description = "Which text (any whole number); the same seed always gives the same text. Default: 1, the course's.",
            HelpName = "S",
            DefaultValueFactory = _ => 1,
            CustomParser = result => Whole(result, "--seed", int.MinValue, int.MaxValue, "a whole number"),
        };
        var outFile = new Option<string>("--out", "-o")
        {
            Description = "The file to write (parent folders created; an existing file is replaced).",
            HelpName = "FILE",
            Required = true,
        };
        var command = new Command("corpus", "Write the generated English-like text the regex and search benchmarks run on (CRLF lines, ASCII), to look at: data/corpora/README.md.")
        {
            length, seed, outFile,
        };
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var path = Path.GetFullPath(parse.GetValue(outFile)!);
            if (Directory.Exists(path))
            {
                throw new PerfLabException($"{parse.GetValue(outFile)} is a folder.", "Give --out a file name, e.g. --out corpus.txt.");
            }

            var chars = parse.GetValue(length);
            var chosen = parse.GetValue(seed);
            var bytes = Corpus.ProseUtf8(chars, chosen);
            await OutputFiles.WriteAsync(path, bytes, cancellationToken).ConfigureAwait(false);
            var lines = bytes.Count(b => b == (byte)'\n') + (bytes.Length > 0 && bytes[^1] != (byte)'\n' ? 1 : 0);
            output.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"Written: {path} ({chars:N0} chars, {lines:N0} lines, seed {chosen}, SHA-256 {Convert.ToHexStringLower(SHA256.HashData(bytes))})"));
            return 0;
        }).ConfigureAwait(false));
        return command;
    }

    // A whole number in [min, max], or one error naming the option and what it takes.
    private static int Whole(System.CommandLine.Parsing.ArgumentResult result, string name, int min, int max, string expected)
    {
        var text = result.Tokens.Single().Value;
        if (long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value) && value >= min && value <= max)
        {
            return (int)value;
        }

        result.AddError($"{name} '{text}' is not {expected}.");
        return 0;
    }
}
