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
}
