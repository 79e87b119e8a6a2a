using System.Text.Json;

namespace PerfLab.Results;

/// <summary>Reads back a <see cref="BenchmarkRun"/> written as JSON by Views/Json's ResultJson (layout: docs/results-schema.md).</summary>
public static class ResultJsonReader
{
    /// <summary>A run read back from JSON; results written before ratio intervals existed get them (<see cref="ResultBuilder.WithMissingIntervals"/>).</summary>
    /// <param name="json">The text.</param>
    /// <exception cref="PerfLabException">The text is not a run of a schema version this library reads.</exception>
    public static BenchmarkRun Read(string json)
    {
        try
        {
            var run = JsonSerializer.Deserialize<BenchmarkRun>(json, JsonFormats.Results) ?? throw new JsonException("empty document");
            if (run.SchemaVersion != BenchmarkRun.CurrentSchemaVersion)
            {
                throw new PerfLabException($"Results use schema version {run.SchemaVersion}; this PerfLab reads version {BenchmarkRun.CurrentSchemaVersion}.", "Re-run the benchmark to produce current results.");
            }

            return ResultBuilder.WithMissingIntervals(run);
        }
        catch (JsonException ex)
        {
            throw new PerfLabException($"Not a PerfLab results file: {ex.Message}", "Pass a file written by `perflab bench --json`.", inner: ex);
        }
    }
}
