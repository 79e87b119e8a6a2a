using PerfLab.Contract;
using PerfLab.Notebooks.Execution;

namespace PerfLab.Notebooks;

/// <summary>
/// The one place the benchmark mode of a notebook run is decided: the runner's --mode (through the
/// running cell) first, then the PERFLAB_MODE environment variable (how CI and Jupyter clients pick
/// smoke mode without editing a notebook), else quick.
/// </summary>
public static class LabMode
{
    /// <summary>The environment variable that sets the mode for kernels.</summary>
    public const string Variable = "PERFLAB_MODE";

    /// <summary>The mode in effect, and where it came from.</summary>
    /// <exception cref="PerfLabException">PERFLAB_MODE holds something other than smoke, quick or full.</exception>
    public static (BenchmarkMode Mode, string Source) Resolve()
    {
        if (CellContext.Current?.Mode is { } chosen)
        {
            return (chosen, "--mode");
        }

        var text = Environment.GetEnvironmentVariable(Variable);
        if (string.IsNullOrWhiteSpace(text))
        {
            return (BenchmarkMode.Quick, "default");
        }

        return (Parse(text, Variable), Variable);
    }

    /// <summary>Parses smoke, quick or full (any case).</summary>
    /// <param name="text">The text.</param>
    /// <param name="where">Where the text came from, for the message.</param>
    /// <exception cref="PerfLabException">Not one of the three.</exception>
    public static BenchmarkMode Parse(string text, string where)
    {
        ArgumentNullException.ThrowIfNull(text);
        return text.Trim().ToLowerInvariant() switch
        {
            "smoke" => BenchmarkMode.Smoke,
            "quick" => BenchmarkMode.Quick,
            "full" => BenchmarkMode.Full,
            _ => throw new PerfLabException(
                $"{where} is '{text}', which is not a benchmark mode.",
                $"Use smoke (proves it runs), quick (a short job) or full (BenchmarkDotNet's default job), e.g. {Variable}=quick."),
        };
    }

    /// <summary>What a mode means for the numbers it produces (setup cell, reports).</summary>
    /// <param name="mode">The mode.</param>
    public static string Meaning(BenchmarkMode mode) => mode switch
    {
        BenchmarkMode.Smoke => "numbers are meaningless: this run only proves the cells work",
        BenchmarkMode.Quick => "a short job (each case measured once tiering has settled, 7 iterations of 50 ms): good for trends, not for publishing",
        _ => "BenchmarkDotNet's default job: numbers you can publish",
    };

    /// <summary>The lowercase name of a mode, as readers type it.</summary>
    /// <param name="mode">The mode.</param>
    public static string Name(BenchmarkMode mode) => mode.ToString().ToLowerInvariant();
}
