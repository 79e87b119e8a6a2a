using System.Diagnostics;
using System.Reflection;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Running;
using PerfLab.Contract;

namespace PerfLab.Host;

/// <summary>
/// Asm without measuring: calls every benchmark case in rounds, with pauses that let tiered compilation
/// promote hot methods, until the JIT's listing file holds optimized code (Tier1, OSR or FullOpts) for
/// every method asked for (Tier1 or FullOpts), or the time is up.
/// </summary>
internal static class AsmDriver
{
    private const int CallsPerRound = 200;
    private static readonly TimeSpan Pause = TimeSpan.FromMilliseconds(200);

    public static string? Drive(IReadOnlyList<BenchmarkRunInfo> runInfos, DisasmRequest request)
    {
        var targets = runInfos
            .SelectMany(r => r.BenchmarksCases)
            .GroupBy(c => c.Descriptor.WorkloadMethod)
            .Select(g => g.First())
            .Select(Prepare)
            .ToArray();
        var clock = Stopwatch.StartNew();
        var deadline = TimeSpan.FromSeconds(request.TimeoutSeconds);
        var compiled = -1L;
        var quietRounds = 0;
        try
        {
            for (var round = 1; clock.Elapsed < deadline; round++)
            {
                foreach (var target in targets)
                {
                    for (var i = 0; i < CallsPerRound; i++)
                    {
                        target.Invoke();
                    }
                }

                if (AllOptimized(request))
                {
                    return null;
                }

                Thread.Sleep(Pause);

                // The JIT buffers its output, so the listing may not show yet. Tiering has settled when three
                // rounds with their pauses compiled nothing new (call counting, instrumented tier and Tier1 done).
                var now = System.Runtime.JitInfo.GetCompiledMethodCount(currentThread: false);
                quietRounds = now == compiled ? quietRounds + 1 : 0;
                compiled = now;
                if (round >= 5 && quietRounds >= 3)
                {
                    return null;
                }
            }
        }
        catch (TargetInvocationException ex) when (ex.InnerException is not null)
        {
            return $"{ex.InnerException.GetType().FullName}: {ex.InnerException.Message}";
        }
        finally
        {
            foreach (var target in targets)
            {
                target.Cleanup();
            }
        }

        return null;
    }

    private sealed record Target(Action Invoke, Action Cleanup);

    // An instance with [Params] set and [GlobalSetup] run, and the case's [Arguments].
    private static Target Prepare(BenchmarkCase benchmarkCase)
    {
        var type = benchmarkCase.Descriptor.Type;
        var instance = Activator.CreateInstance(type)!;
        foreach (var parameter in benchmarkCase.Parameters.Items.Where(p => !p.IsArgument))
        {
            const BindingFlags flags = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static;
            if (type.GetProperty(parameter.Name, flags) is { } property)
            {
                property.SetValue(property.GetMethod!.IsStatic ? null : instance, parameter.Value);
            }
            else if (type.GetField(parameter.Name, flags) is { } field)
            {
                field.SetValue(field.IsStatic ? null : instance, parameter.Value);
            }
        }

        var arguments = benchmarkCase.Parameters.Items.Where(p => p.IsArgument).Select(p => p.Value).ToArray();
        Call<GlobalSetupAttribute>(type, instance);
        Call<IterationSetupAttribute>(type, instance);
        var method = benchmarkCase.Descriptor.WorkloadMethod;
        return new Target(
            () => method.Invoke(instance, arguments),
            () =>
            {
                Call<IterationCleanupAttribute>(type, instance);
                Call<GlobalCleanupAttribute>(type, instance);
            });
    }

    private static void Call<TAttribute>(Type type, object instance)
        where TAttribute : Attribute
    {
        foreach (var method in type.GetMethods().Where(m => m.IsDefined(typeof(TAttribute), inherit: true) && m.GetParameters().Length == 0))
        {
            method.Invoke(instance, null);
        }
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
