using PerfLab.Benchmarks;
using PerfLab.Disassembly;
using PerfLab.Notebooks.Tests.Support;
using static PerfLab.Notebooks.Tests.Support.NotebookClaims;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// What jit/07 (vectorization) says of the instruction sets and the listings, checked on what the notebook
/// routes captured in this test run; CPU-dependent facts are asserted only where this CPU has the feature.
/// </summary>
[Collection(BothRoutes.Name)]
public class JitVectorizationClaimsTests
{
    private const string Vectorization = "jit/07-vectorization.ipynb";

    private static readonly AsmEngine Asm = new();

    [Fact]
    public async Task Vectorization_the_probe_agrees_with_this_process_and_the_notebooks_settings_turn_avx512_off_everywhere()
    {
        // Lab.InstructionSetsAsync(env)'s capture, which the notebook cells made with and without AVX-512 switched off.
        static async Task<InstructionSets> Probe(string[] env)
        {
            var lines = new List<string>();
            var report = await Asm.CaptureAsync(new AsmRequest { Source = InstructionSetProbe.Source, SourcePath = "instruction-set-probe.cs", Environment = BenchmarkRequest.ParseEnvironment(env) }, lines.Add);
            Assert.True(lines.Count(l => l.Contains("cached listing", StringComparison.Ordinal)) == report.Runtimes.Count,
                $"no notebook route ran Lab.InstructionSetsAsync({(env.Length == 0 ? "" : "env: [AVX-512 off]")}) in this test run:\n{string.Join("\n", lines)}");
            return InstructionSetProbe.Read(report, env, System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture);
        }

        var plain = await Probe([]);
        var off = await Probe(NoAvx512);

        // This test runs on .NET 10, on the same CPU: its own answers are what the net10.0 column must say.
        Assert.Equal(System.Runtime.Intrinsics.Vector256.IsHardwareAccelerated, plain.Uses("Vector256", "net10.0"));
        Assert.Equal(System.Runtime.Intrinsics.Vector512.IsHardwareAccelerated, plain.Uses("Vector512", "net10.0"));
        Assert.Equal(System.Numerics.Vector<byte>.Count * 8, plain.Value("Vector<T>", "net10.0"));
        foreach (var runtime in AllRuntimes)
        {
            Assert.False(off.Uses("Vector512", runtime), $"Vector512 still accelerated on {runtime} with {string.Join(", ", NoAvx512)}");
            Assert.Equal(plain.Uses("Vector256", runtime), off.Uses("Vector256", runtime));
        }

        if (System.Runtime.Intrinsics.X86.X86Base.IsSupported)
        {
            Assert.Equal(System.Runtime.Intrinsics.X86.Avx2.IsSupported, plain.Uses("AVX2", "net10.0"));
            Assert.Equal(System.Runtime.Intrinsics.X86.Avx512F.IsSupported, plain.Uses("AVX-512F", "net10.0"));
            Assert.Equal(System.Runtime.Intrinsics.X86.Bmi2.IsSupported, plain.Uses("BMI2", "net10.0"));
            Assert.All(AllRuntimes, r => Assert.False(off.Uses("AVX-512F", r), $"AVX-512F still used on {r}"));
        }
    }

    [X64Fact("the notebook states the sizes of x64 listings")]
    public async Task Vectorization_listings_show_the_lane_math_conversion_and_fill_the_notebook_describes_N9_J14_J15_N10_J39_J40()
    {
        var lanes = await RouteListingsAsync(Vectorization, "class LaneMath");
        var multiplyOff = await RouteListingsAsync(Vectorization, "class LaneMath", AsmVariant.SteadyState, NoAvx512, "MultiplyLongs");
        var conversions = await RouteListingsAsync(Vectorization, "class SmallConversions");
        var toKilobytesOff = await RouteListingsAsync(Vectorization, "class SmallConversions", AsmVariant.SteadyState, NoAvx512, "ToKilobytes");
        AsmListing Scale(string runtime) => Method(lanes, runtime, "ScaleBytes");
        AsmListing Multiply(string runtime) => Method(lanes, runtime, "MultiplyLongs");
        AsmListing ToKilobytes(string runtime) => Method(conversions, runtime, "ToKilobytes");
        AsmListing Fill(string runtime) => Method(conversions, runtime, "DrawRule");
        static bool Has(AsmListing listing, string op) => listing.Instructions.Any(l => l.StartsWith(op + " ", StringComparison.Ordinal));
        bool avx512 = System.Runtime.Intrinsics.X86.Avx512BW.IsSupported && System.Runtime.Intrinsics.X86.Avx512DQ.IsSupported;

        // N9-J14: .NET 8's byte multiply is a loop over the lanes; .NET 9 and 10 have none.
        Assert.Equal(2, Scale("net8.0").Loops);
        SizeIs(185, Scale("net8.0"), "ScaleBytes on net8.0");
        Assert.All(new[] { "net9.0", "net10.0" }, r => Assert.Equal(0, Scale(r).Loops));
        if (avx512)
        {
            Assert.All(new[] { "net9.0", "net10.0" }, r => Assert.True(Has(Scale(r), "vpmullw") && Scale(r).CodeSize == 29, Scale(r).ToString()));
            Assert.All(AllRuntimes, r => Assert.True(Has(Multiply(r), "vpmullq"), Multiply(r).ToString()));
        }

        // The rest are the listings the notebook's text describes for an x64 CPU with AVX2 (VEX encodings and sizes).
        if (!System.Runtime.Intrinsics.X86.Avx2.IsSupported)
        {
            return;
        }

        // N9-J15 without AVX-512: .NET 8 multiplies lane by lane with imul, .NET 9 and 10 stay in vector registers.
        Assert.True(Has(Only(multiplyOff, "net8.0"), "imul"), Only(multiplyOff, "net8.0").ToString());
        SizeIs(293, Only(multiplyOff, "net8.0"), "MultiplyLongs without AVX-512 on net8.0");
        foreach (var (runtime, size) in new[] { ("net9.0", 53), ("net10.0", 56) })
        {
            Assert.True(Has(Only(multiplyOff, runtime), "vpmuludq") && !Has(Only(multiplyOff, runtime), "imul"), Only(multiplyOff, runtime).ToString());
            SizeIs(size, Only(multiplyOff, runtime), $"MultiplyLongs without AVX-512 on {runtime}");
        }

        // N10-J39: two conversions on .NET 9; one on .NET 10, unsigned with AVX-512, from the widened register without.
        Assert.True(Has(ToKilobytes("net9.0"), "vcvtsi2sd") && Has(ToKilobytes("net9.0"), "vcvtsd2ss"), ToKilobytes("net9.0").ToString());
        SizeIs(24, ToKilobytes("net9.0"), "ToKilobytes on net9.0");
        // The division by 1024 is a multiply by its exact reciprocal everywhere.
        Assert.All(AllRuntimes, r => Assert.True(Has(ToKilobytes(r), "vmulss") && !ToKilobytes(r).Instructions.Any(l => l.StartsWith("vdivss", StringComparison.Ordinal)), ToKilobytes(r).ToString()));
        if (avx512)
        {
            Assert.True(Has(ToKilobytes("net10.0"), "vcvtusi2ss"), ToKilobytes("net10.0").ToString());
            SizeIs(19, ToKilobytes("net10.0"), "ToKilobytes on net10.0");
        }

        Assert.True(Has(Only(toKilobytesOff, "net10.0"), "vcvtsi2ss") && !Has(Only(toKilobytesOff, "net10.0"), "vcvtsd2ss"), Only(toKilobytesOff, "net10.0").ToString());
        SizeIs(20, Only(toKilobytesOff, "net10.0"), "ToKilobytes without AVX-512 on net10.0");

        // N10-J40: .NET 9 calls SpanHelpers.Fill; .NET 10 broadcasts and stores once.
        Assert.Contains(Fill("net9.0").Instructions, l => l.StartsWith("call", StringComparison.Ordinal) && l.Contains("SpanHelpers:Fill", StringComparison.Ordinal));
        Assert.DoesNotContain(Fill("net10.0").Instructions, l => l.Contains("SpanHelpers:Fill", StringComparison.Ordinal));
        Assert.True(Has(Fill("net10.0"), "vbroadcastss"), Fill("net10.0").ToString());
        SizeIs(53, Fill("net9.0"), "DrawRule on net9.0");
        SizeIs(48, Fill("net10.0"), "DrawRule on net10.0");
    }

    [Fact]
    public async Task Vectorization_the_widest_vector_loop_is_the_only_one_left_in_the_listing()
    {
        var plain = await RouteListingsAsync(Vectorization, "class FirstNonZero", AsmVariant.SteadyState, null, "WidestVector");
        // The text promises "the width your CPU supports": the claim also looks at a CPU without AVX-512, which the notebook does not show.
        var off = await OwnListingsAsync(Vectorization, "class FirstNonZero", NoAvx512, "WidestVector");
        static bool Uses(AsmListing listing, string register) => listing.Lines.Any(l => l.Contains(register, StringComparison.Ordinal));

        foreach (var runtime in AllRuntimes)
        {
            if (System.Runtime.Intrinsics.Vector512.IsHardwareAccelerated)
            {
                Assert.True(Uses(Only(plain, runtime), "zmm") && !Uses(Only(plain, runtime), "ymm"), Only(plain, runtime).ToString());
                Assert.Contains(Only(plain, runtime).Instructions, l => l.StartsWith("vptestmb", StringComparison.Ordinal));
            }

            Assert.False(Uses(Only(off, runtime), "zmm"), Only(off, runtime).ToString());
            if (System.Runtime.Intrinsics.Vector256.IsHardwareAccelerated)
            {
                Assert.True(Uses(Only(off, runtime), "ymm"), Only(off, runtime).ToString());
            }
        }
    }
}
