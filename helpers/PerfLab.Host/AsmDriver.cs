using BenchmarkDotNet.Running;
using PerfLab.Contract;

namespace PerfLab.Host;

/// <summary>
/// Asm without measuring: drives every benchmark case until the JIT's listing file holds optimized code
/// (Tier1 or FullOpts) for every method asked for, or tiering has settled with every benchmark method at its final
/// tier by the JIT's own events, or the time is up. Without the events, a loaded machine let the rounds look quiet
/// while a method's promotion had not started, and the capture was refused as Tier0 code (docs/asm.md).
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
        using var jit = new JitEvents();
        return TieringDriver.Drive(cases, TimeSpan.FromSeconds(request.TimeoutSeconds), () => AllOptimized(request), jit: jit);
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
