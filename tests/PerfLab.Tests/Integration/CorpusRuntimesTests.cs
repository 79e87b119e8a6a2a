using System.Text;
using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>
/// The corpus is the same on .NET 8, 9 and 10, proven where benchmarks run: a benchmark class compiled
/// and run by the real engine (smoke mode) computes, in its [GlobalSetup] on each runtime, the pinned
/// text's SHA-256 and the counts of <see cref="CorpusFacts"/>, and the made-up words' SHA-256, and writes them to a file.
/// </summary>
public class CorpusRuntimesTests
{
    private const string OutVariable = "PERFLAB_CORPUS_FACTS_OUT";

    [Fact]
    public async Task Every_runtime_generates_the_pinned_text_and_counts_the_same()
    {
        using var folder = new TempFolder();
        var request = new BenchmarkRequest
        {
            Source = Source(),
            SourcePath = Path.Combine(folder.Path, "CorpusFacts.cs"),
            Mode = BenchmarkMode.Smoke,
            Runtimes = RuntimeCatalog.FindAll(["net8.0", "net9.0", "net10.0"]),
            Environment = new Dictionary<string, string> { [OutVariable] = folder.Path },
            CaseTimeout = TimeSpan.FromMinutes(5),
            Force = true,
        };

        var run = await new BenchmarkEngine(TestHome.Shared).RunAsync(request);

        Assert.False(run.HasErrors, run.ToString());
        Assert.Equal(RuntimeCatalog.All.Select(r => r.Version), run.Results.Select(r => r.RuntimeVersion));
        foreach (var runtime in request.Runtimes)
        {
            var file = Path.Combine(folder.Path, runtime.Moniker + ".txt");
            Assert.True(File.Exists(file), $"{runtime.Moniker} wrote no {file}:\n{run}");
            Assert.Equal($"runtime {runtime.Version}\n" + Expected(), File.ReadAllText(file));
        }
    }

    // What each runtime must write: the hash, then one line per pattern and per char of the shared table.
    private static string Expected()
    {
        var lines = new StringBuilder();
        lines.Append("sha256 ").Append(CorpusFacts.Sha256).Append('\n');
        lines.Append("utf8 ").Append(CorpusFacts.Sha256).Append('\n');
        lines.Append("made-up ").Append(CorpusFacts.MadeUpSha256).Append('\n');
        for (var i = 0; i < CorpusFacts.Patterns.Count; i++)
        {
            var (pattern, options, count) = CorpusFacts.Patterns[i];
            lines.Append($"regex {i} {pattern} {(int)options}: {count}\n");
        }

        foreach (var (c, count) in CorpusFacts.Chars)
        {
            lines.Append($"char {(int)c}: {count}\n");
        }

        return lines.ToString();
    }

    // The benchmark: the table's patterns and chars written into it as literals.
    private static string Source()
    {
        var patterns = string.Join(",\n            ", CorpusFacts.Patterns.Select(p => $"(@\"{p.Pattern.Replace("\"", "\"\"", StringComparison.Ordinal)}\", (RegexOptions){(int)p.Options})"));
        var chars = string.Join(", ", CorpusFacts.Chars.Select(c => (int)c.Char));
        return $$"""
            using System.Security.Cryptography;
            using System.Text;
            using System.Text.RegularExpressions;
            using PerfLab.Inputs;

            public class CorpusFactsCheck
            {
                private static readonly (string Pattern, RegexOptions Options)[] Patterns =
                [
                    {{patterns}}
                ];

                private static readonly int[] Chars = [{{chars}}];

                [GlobalSetup]
                public void Write()
                {
                    var text = Corpus.Prose({{CorpusFacts.Length}}, {{CorpusFacts.Seed}});
                    var lines = new StringBuilder();
                    lines.Append("runtime ").Append(Environment.Version).Append('\n');
                    lines.Append("sha256 ").Append(Convert.ToHexString(SHA256.HashData(Encoding.ASCII.GetBytes(text))).ToLowerInvariant()).Append('\n');
                    lines.Append("utf8 ").Append(Convert.ToHexString(SHA256.HashData(Corpus.ProseUtf8({{CorpusFacts.Length}}, {{CorpusFacts.Seed}}))).ToLowerInvariant()).Append('\n');
                    var madeUp = Corpus.MadeUpWords({{CorpusFacts.MadeUpWords}}, {{CorpusFacts.MadeUpVocabulary}}, {{CorpusFacts.MadeUpSeed}});
                    lines.Append("made-up ").Append(Convert.ToHexString(SHA256.HashData(Encoding.ASCII.GetBytes(madeUp))).ToLowerInvariant()).Append('\n');
                    for (var i = 0; i < Patterns.Length; i++)
                    {
                        var (pattern, options) = Patterns[i];
                        lines.Append("regex ").Append(i).Append(' ').Append(pattern).Append(' ').Append((int)options).Append(": ").Append(Regex.Count(text, pattern, options)).Append('\n');
                    }

                    foreach (var c in Chars)
                    {
                        lines.Append("char ").Append(c).Append(": ").Append(text.Count(x => x == c)).Append('\n');
                    }

                    var folder = Environment.GetEnvironmentVariable("{{OutVariable}}") ?? throw new InvalidOperationException("{{OutVariable}} is not set");
                    File.WriteAllText(Path.Combine(folder, "net" + Environment.Version.Major + ".0.txt"), lines.ToString());
                }

                [Benchmark]
                public int Length() => PostInputs.LongWord.Length;
            }
            """;
    }
}
