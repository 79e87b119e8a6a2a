using BenchmarkDotNet.Running;
using PerfLab.Contract;

namespace PerfLab.Host;

/// <summary>
/// Asm without measuring: drives every benchmark case until the JIT's listing file holds optimized code
/// (Tier1, OSR or FullOpts) for every method asked for (Tier1 or FullOpts), or tiering has settled, or
/// the time is up.
/// </summary>
internal static class AsmDriver
{
    public static string? Drive(IReadOnlyList<BenchmarkRunInfo> runInfos, DisasmRequest request)
    {
        var cases = runInfos
            .SelectMany(r => r.BenchmarksCases)
            .GroupBy(c => c.Descriptor.WorkloadMethod)
            .Select(g => g.First())
            .ToArray();
        return TieringDriver.Drive(cases, TimeSpan.FromSeconds(request.TimeoutSeconds), () => AllOptimized(request));
    }

    // The JIT may buffer its output; a listing not visible yet just means another round.
    private static bool AllOptimized(DisasmRequest request)
    {
        try
        {
            using var stream = new FileStream(request.ListingPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            using var reader = new StreamReader(stream);
            var text = reader.ReadToEnd();
            return request.Methods.All(m => Optimized(text, m));
        }
        catch (IOException)
        {
            return false;
        }
    }

    private static bool Optimized(string text, string method)
    {
        var header = "; Assembly listing for method " + method;
        for (var at = text.IndexOf(header, StringComparison.Ordinal); at >= 0; at = text.IndexOf(header, at + 1, StringComparison.Ordinal))
        {
            // "Type:Method(" or, for a generic method, "Type:Method[int](".
            if (at + header.Length >= text.Length || text[at + header.Length] is not ('(' or '['))
            {
                continue;
            }

            var end = text.IndexOf('\n', at);
            var line = end < 0 ? text[at..] : text[at..end];
            // The steady state: Tier1 proper (OSR code is what a single long call runs) or FullOpts.
            if (line.Contains("(Tier1)", StringComparison.Ordinal) || line.Contains("(FullOpts)", StringComparison.Ordinal))
            {
                return true;
            }
        }

        return false;
    }
}
