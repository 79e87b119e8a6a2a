using System.Text.Json;
using PerfLab.Results;

namespace PerfLab.Views.Json;

/// <summary>
/// A <see cref="BenchmarkRun"/> as JSON (layout: docs/results-schema.md): `perflab bench --json` and the runs of a
/// reference machine file. <see cref="ResultJsonReader"/> reads it back.
/// </summary>
public static class ResultJson
{
    /// <summary>The run as indented JSON.</summary>
    /// <param name="run">The run.</param>
    public static string Serialize(BenchmarkRun run) => JsonSerializer.Serialize(run, JsonFormats.Results);
}
