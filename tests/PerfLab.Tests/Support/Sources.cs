namespace PerfLab.Tests.Support;

/// <summary>Benchmark sources the tests compile and run. Each gets a unique marker so no cached result is reused by accident.</summary>
public static class Sources
{
    private static string Marker() => "// test " + Guid.NewGuid().ToString("N");

    public static string Tiny() => $$"""
        {{Marker()}}
        public class Tiny
        {
            private readonly int[] _data = Enumerable.Range(0, 16).ToArray();

            [Benchmark]
            public int Sum() => _data.Sum();
        }
        """;

    /// <summary>
    /// A call that builds and runs a new dynamic method each time, as a regex built with RegexOptions.Compiled does:
    /// the JIT compiles in every call, forever.
    /// </summary>
    public static string DynamicPerCall() => $$"""
        {{Marker()}}
        using System.Reflection.Emit;

        public class FreshCode
        {
            private int _seed = 7;

            [Benchmark]
            public int EmitAndCall()
            {
                var method = new DynamicMethod("AddOne", typeof(int), [typeof(int)]);
                var il = method.GetILGenerator();
                il.Emit(OpCodes.Ldarg_0);
                il.Emit(OpCodes.Ldc_I4_1);
                il.Emit(OpCodes.Add);
                il.Emit(OpCodes.Ret);
                return ((Func<int, int>)method.CreateDelegate(typeof(Func<int, int>)))(_seed);
            }
        }
        """;

    /// <summary>
    /// A call of about half a millisecond that notes when it ran: each process writes its calls' start and end
    /// (Stopwatch timestamps, one clock for every process on the machine) to a file of its own in the folder
    /// TURNS_RECORD names, at its global cleanup.
    /// </summary>
    public static string TurnRecorder() => $$"""
        {{Marker()}}
        using System.Diagnostics;

        // Each process writes a file of its own: "setup T", a line "START END" per call, "cleanup T" (Stopwatch timestamps).
        public class Recorded
        {
            private readonly List<(long Start, long End)> _calls = new();
            private long _setupAt;

            [GlobalSetup]
            public void Setup() => _setupAt = Stopwatch.GetTimestamp();

            [Benchmark]
            public int Spin()
            {
                var start = Stopwatch.GetTimestamp();
                var spins = 0;
                while (Stopwatch.GetElapsedTime(start).TotalMilliseconds < 0.5)
                {
                    spins++;
                }

                _calls.Add((start, Stopwatch.GetTimestamp()));
                return spins;
            }

            [GlobalCleanup]
            public void Write()
            {
                var folder = Environment.GetEnvironmentVariable("TURNS_RECORD")!;
                File.WriteAllLines(
                    Path.Combine(folder, Environment.ProcessId + ".txt"),
                    [$"setup {_setupAt}", .. _calls.Select(c => c.Start + " " + c.End), $"cleanup {Stopwatch.GetTimestamp()}"]);
            }
        }
        """;

    public static string NewerApiBehindIf() => $$"""
        {{Marker()}}
        public class Versioned
        {
            [Benchmark]
            public string Describe()
            {
        #if NET10_0_OR_GREATER
                // A .NET 10-only API: the 8.0 and 9.0 reference assemblies do not have it.
                return System.Security.Cryptography.MLKem.IsSupported ? "net10 mlkem" : "net10";
        #elif NET9_0_OR_GREATER
                return "net9";
        #else
                return "net8";
        #endif
            }
        }
        """;

    public static string Throws() => $$"""
        {{Marker()}}
        public class Faulty
        {
            [Benchmark]
            public int Explode() => throw new InvalidOperationException("the reader's benchmark failed on purpose");
        }
        """;

    public static string EndlessLoop() => $$"""
        {{Marker()}}
        public class Endless
        {
            public static volatile bool Stop;

            [Benchmark]
            public int Spin()
            {
                var n = 0;
                while (!Stop) { n++; }
                return n;
            }
        }
        """;

    /// <summary>EndlessLoop after a case that finishes: a run passes every step of a case once before the case that never ends.</summary>
    public static string FinishesThenLoops() => $$"""
        {{Marker()}}
        public class FinishesThenLoops
        {
            public static volatile bool Stop;

            [Benchmark]
            public int Finish() => 42;

            // Ends its process, so a smoke run, which runs a runtime's cases in one process, starts another for Spin.
            [Benchmark]
            public void EndProcess() => Environment.FailFast("FinishesThenLoops ends this process here");

            [Benchmark]
            public int Spin()
            {
                var n = 0;
                while (!Stop) { n++; }
                return n;
            }
        }
        """;

    public static string CompileError() => """
        public class Broken
        {
            [Benchmark]
            public int Sum()
            {
                return undefinedVariable + 1;
            }
        }
        """;

    public static string NoBenchmark() => """
        public class NotABenchmark
        {
            public int Sum() => 42;
        }
        """;

    /// <summary>Asm facts the asm view must report: bounds checks (N10-J16's behaviour, and simpler), allocations (N10-J01's).</summary>
    public static string AsmFacts() => $$"""
        {{Marker()}}
        using System.Runtime.CompilerServices;

        public class Lookups
        {
            private static readonly int[] Table = { 1, 2, 3, 4 };
            private int[] _data = new int[16];
            private int _index = 3;

            [Benchmark] public int ConstantIndex() => Table[2];
            [Benchmark] public int UnknownIndex() => _data[_index];
        }

        public class LengthSwitch
        {
            private int[] _version = [10, 0, 12];

            [Benchmark] public int PackVersion() => Pack(_version);

            // "major[.minor[.patch]]" packed into one number, 0 for anything else. Each arm knows how many
            // parts there are, so .NET 10 drops the range checks of the reads inside it.
            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int Pack(ReadOnlySpan<int> parts)
            {
                switch (parts.Length)
                {
                    case 1: return parts[0] << 16;
                    case 2: return parts[0] << 16 | parts[1] << 8;
                    case 3: return parts[0] << 16 | parts[1] << 8 | parts[2];
                    default: return 0;
                }
            }
        }

        public class Closures
        {
            [Benchmark]
            [Arguments(3)]
            public int Scaled(int factor)
            {
                Func<int, int> times = value => value * factor;
                return Spread(times, 10, 4);
            }

            // Inlined: the delegate never leaves Scaled, but the captured factor still needs its closure object.
            private static int Spread(Func<int, int> map, int high, int low) => map(high) - map(low);
        }
        """;

    /// <summary>
    /// A loop: on its way to Tier1 the JIT lists it at Tier0, instrumented and OSR, more than the 4 KB the JIT buffers
    /// its listing file by, so the early listings reach the file while the Tier1 one waits in the buffer.
    /// </summary>
    public static string AsmLoop() => $$"""
        {{Marker()}}
        public class Readings
        {
            private readonly int[] _samples = Enumerable.Range(0, 256).Select(i => i % 7).ToArray();

            [Benchmark]
            public long Weighted()
            {
                long total = 0;
                for (var i = 0; i < _samples.Length; i++)
                {
                    total += _samples[i] * (long)(i + 1);
                }

                return total;
            }
        }
        """;

    /// <summary>Every kind of method a reader may name.</summary>
    public static string AsmNames() => $$"""
        {{Marker()}}
        using System.Runtime.CompilerServices;

        public class Shapes
        {
            private readonly int[] _items = Enumerable.Range(0, 32).ToArray();

            public int Count => _items.Length;

            [Benchmark]
            public int Run()
            {
                var total = Largest(3, Count) + Helper(7) + Scale(2) + Scale(2.5);
                return total + Twice(total);

                static int Twice(int value) => value * 2;
            }

            [MethodImpl(MethodImplOptions.NoInlining)]
            public static T Largest<T>(T a, T b) where T : IComparable<T> => a.CompareTo(b) >= 0 ? a : b;

            [MethodImpl(MethodImplOptions.NoInlining)]
            public int Helper(int value) => _items[value] + 1;

            [MethodImpl(MethodImplOptions.NoInlining)]
            public int Scale(int value) => value * 3;

            [MethodImpl(MethodImplOptions.NoInlining)]
            public int Scale(double value) => (int)(value * 3);
        }
        """;
}
