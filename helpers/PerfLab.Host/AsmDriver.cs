using BenchmarkDotNet.Running;
using PerfLab.Contract;

namespace PerfLab.Host;

/// <summary>
/// Asm without measuring: drives every benchmark case until the JIT's listing file holds optimized code
/// (Tier1 or FullOpts) for every method asked for, or tiering has settled with no such method still on its way
/// there (a listing at Tier0 or OSR only: on a loaded machine the quiet rounds once ended the drive before Tier1
/// landed, and the capture showed OSR code with the bounds check Tier1 drops), or the time is up. The JIT writes its
/// listings through the C library's buffered streams, so before each look the driver flushes them (<see cref="FlushCStreams"/>):
/// unflushed, the Tier1 listing reached the file only at exit, and every capture drove to its time limit.
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
        return TieringDriver.Drive(
            cases,
            TimeSpan.FromSeconds(request.TimeoutSeconds),
            done: () => Listing(request) is { } text && request.Methods.All(m => Headers(text, m).Any(Optimized)),
            unsettled: () => Listing(request) is { } text && request.Methods.Any(m => Headers(text, m) is { Count: > 0 } headers && !headers.Any(Final)));
    }

    // A listing not visible yet (a stream this process cannot flush) just means another round.
    private static string? Listing(DisasmRequest request)
    {
        FlushCStreams();
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

    // fflush(NULL): every output stream of the C library, the JIT's listing file among them (the JIT keeps it open,
    // buffered 4 KB, until exit). Where the library is not found (Windows), the listing shows at exit as before.
    private static readonly FlushAll? Flush = LoadFlush();

    private delegate int FlushAll(IntPtr stream);

    private static void FlushCStreams() => Flush?.Invoke(IntPtr.Zero);

    private static FlushAll? LoadFlush()
    {
        var library = OperatingSystem.IsLinux() ? "libc.so.6" : OperatingSystem.IsMacOS() ? "/usr/lib/libSystem.B.dylib" : null;
        return library is not null
            && System.Runtime.InteropServices.NativeLibrary.TryLoad(library, out var handle)
            && System.Runtime.InteropServices.NativeLibrary.TryGetExport(handle, "fflush", out var address)
            ? System.Runtime.InteropServices.Marshal.GetDelegateForFunctionPointer<FlushAll>(address)
            : null;
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
