using BenchmarkDotNet.Running;
using PerfLab.Contract;

namespace PerfLab.Host;

/// <summary>
/// Asm without measuring: drives every benchmark case until every method asked for has optimized code (Tier1 or
/// FullOpts), or tiering has settled with no such method still on its way there (compiled at Tier0 or OSR only: on a
/// loaded machine the quiet rounds once ended the drive before Tier1 landed, and the capture showed OSR code with the
/// bounds check Tier1 drops), or the time is up. Whether a method has that code is read in the runtime's JIT events,
/// else in the listing file: the JIT buffers that file, so its last listings show only once the process exits, and a
/// drive that waited for them there ran to its deadline every time (5 s a capture instead of about 1).
/// </summary>
internal static class AsmDriver
{
    /// <summary>Drives the cases; the exception a case threw (else null), and a warning when the time ran out first.</summary>
    public static (string? Failure, string? Warning) Drive(IReadOnlyList<BenchmarkRunInfo> runInfos, DisasmRequest request)
    {
        var cases = runInfos
            .SelectMany(r => r.BenchmarksCases)
            .GroupBy(c => c.Descriptor.WorkloadMethod)
            .Select(g => g.First())
            .ToArray();
        using var jit = new JitEvents();
        var deadline = TimeSpan.FromSeconds(request.TimeoutSeconds);
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var optimized = false;
        var failure = TieringDriver.Drive(
            cases,
            deadline,
            done: () => optimized = request.Methods.All(jit.HasFinalCode)
                || (Listing(request) is { } text && request.Methods.All(m => jit.HasFinalCode(m) || Headers(text, m).Any(Optimized))),
            unsettled: () => request.Methods.Any(jit.IsOnItsWay)
                || (Listing(request) is { } text && request.Methods.Any(m => !jit.HasFinalCode(m) && Headers(text, m) is { Count: > 0 } headers && !headers.Any(Final))));
        var waiting = request.Methods.Where(m => !jit.HasFinalCode(m)).ToArray();
        var warning = failure is null && !optimized && clock.Elapsed >= deadline && waiting.Length > 0
            ? $"the drive reached its {deadline.TotalSeconds:F0} s limit before the JIT's events showed optimized code for {string.Join(", ", waiting)}"
            : null;
        return (failure, warning);
    }

    // The JIT may buffer its output; a listing not visible yet just means another round.
    private static string? Listing(DisasmRequest request)
    {
        try
        {
            using var stream = new FileStream(request.ListingPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            using var reader = new StreamReader(stream);
            return reader.ReadToEnd();
        }
        catch (IOException)
        {
            return null;
        }
    }

    // The steady state: Tier1 proper (OSR code is what a single long call runs) or FullOpts.
    private static bool Optimized(string header) =>
        header.Contains("(Tier1)", StringComparison.Ordinal) || header.Contains("(FullOpts)", StringComparison.Ordinal);

    // Code no later tier replaces: the steady state, Tier0-FullOpts (a loop on-stack replacement cannot leave) or MinOpts.
    private static bool Final(string header) =>
        Optimized(header) || header.Contains("FullOpts)", StringComparison.Ordinal) || header.Contains("(MinOpts)", StringComparison.Ordinal);

    // Each listing header of the method (its first line), in the order the JIT wrote them.
    private static List<string> Headers(string text, string method)
    {
        var header = "; Assembly listing for method " + method;
        var lines = new List<string>();
        for (var at = text.IndexOf(header, StringComparison.Ordinal); at >= 0; at = text.IndexOf(header, at + 1, StringComparison.Ordinal))
        {
            // "Type:Method(" or, for a generic method, "Type:Method[int](".
            if (at + header.Length >= text.Length || text[at + header.Length] is not ('(' or '['))
            {
                continue;
            }

            var end = text.IndexOf('\n', at);
            lines.Add(end < 0 ? text[at..] : text[at..end]);
        }

        return lines;
    }
}
