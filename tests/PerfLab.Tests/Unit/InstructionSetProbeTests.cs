using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using PerfLab.Disassembly;

namespace PerfLab.Tests.Unit;

/// <summary>The instruction sets this process's runtime uses, read in process: the probe's features, one column, the runtime's own answers.</summary>
public class InstructionSetProbeTests
{
    [Fact]
    public void This_process_answers_every_feature_of_its_architecture_as_the_runtime_does()
    {
        var sets = InstructionSetProbe.OfThisProcess();
        var runtime = $"net{Environment.Version.Major}.{Environment.Version.Minor}";

        Assert.Equal([$"{runtime} {Environment.Version}"], sets.Runtimes);
        Assert.Equal(InstructionSetProbe.Features.Where(f => f.Architecture is null || f.Architecture == RuntimeInformation.ProcessArchitecture).Select(f => f.Label), sets.Rows.Select(r => r.Feature));
        Assert.Equal(Vector256.IsHardwareAccelerated, sets.Uses("Vector256", runtime));
        Assert.Equal(System.Numerics.Vector<byte>.Count * 8, sets.Value("Vector<T>", runtime));
        if (RuntimeInformation.ProcessArchitecture == Architecture.X64)
        {
            Assert.Equal(System.Runtime.Intrinsics.X86.Avx2.IsSupported, sets.Uses("AVX2", runtime));
            Assert.Equal(System.Runtime.Intrinsics.X86.Avx512F.IsSupported, sets.Uses("AVX-512F", runtime));
        }
    }
}
