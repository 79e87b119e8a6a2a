using System.Text.Json;
using System.Text.Json.Serialization;

namespace PerfLab.Results;

/// <summary>A published measurement on one runtime.</summary>
/// <param name="MeanNs">Mean time per operation, ns.</param>
/// <param name="AllocatedBytes">Bytes allocated per operation.</param>
public sealed record PublishedMeasurement(double MeanNs, long AllocatedBytes);

/// <summary>A figure from a "Performance Improvements in .NET" post (data/published).</summary>
/// <param name="Id">Course id, e.g. N10-J01.</param>
/// <param name="Post">The post's title.</param>
/// <param name="Title">What the figure shows.</param>
/// <param name="Pr">The runtime pull requests behind it.</param>
/// <param name="Machine">The post's machine and runtimes.</param>
/// <param name="Runtimes">Per runtime moniker, the published numbers.</param>
public sealed record PublishedFigure(string Id, string Post, string Title, string Pr, string Machine, IReadOnlyDictionary<string, PublishedMeasurement> Runtimes);

/// <summary>The published figures shipped in data/published (copied next to the library at build time).</summary>
public static class PublishedFigures
{
    private static readonly Lazy<IReadOnlyDictionary<string, PublishedFigure>> All = new(Load);

    /// <summary>The first figure named by one of <paramref name="categories"/>, or null.</summary>
    /// <param name="categories">A case's [BenchmarkCategory] names.</param>
    public static PublishedFigure? Find(IEnumerable<string>? categories) =>
        categories?.Select(c => All.Value.GetValueOrDefault(c.Trim().ToUpperInvariant())).FirstOrDefault(f => f is not null);

    private sealed record FileShape(string Post, string Machine, IReadOnlyList<FigureShape> Figures);

    private sealed record FigureShape(string Id, string Title, string Pr, IReadOnlyDictionary<string, PublishedMeasurement> Runtimes);

    private static IReadOnlyDictionary<string, PublishedFigure> Load()
    {
        var folder = Path.Combine(AppContext.BaseDirectory, "data", "published");
        var figures = new Dictionary<string, PublishedFigure>(StringComparer.Ordinal);
        if (!Directory.Exists(folder))
        {
            return figures;
        }

        var options = new JsonSerializerOptions { PropertyNamingPolicy = JsonNamingPolicy.CamelCase, ReadCommentHandling = JsonCommentHandling.Skip, NumberHandling = JsonNumberHandling.AllowReadingFromString };
        foreach (var file in Directory.EnumerateFiles(folder, "*.json").Order(StringComparer.Ordinal))
        {
            FileShape? shape;
            try
            {
                shape = JsonSerializer.Deserialize<FileShape>(File.ReadAllText(file), options);
            }
            catch (JsonException ex)
            {
                throw new PerfLabException($"{file} is not valid published-figure JSON: {ex.Message}", "Fix the file (layout: data/README.md).", inner: ex);
            }

            foreach (var figure in shape?.Figures ?? [])
            {
                figures[figure.Id.ToUpperInvariant()] = new PublishedFigure(figure.Id, shape!.Post, figure.Title, figure.Pr, shape.Machine, figure.Runtimes);
            }
        }

        return figures;
    }
}
