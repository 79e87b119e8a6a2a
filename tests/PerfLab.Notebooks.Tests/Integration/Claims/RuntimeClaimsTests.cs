using PerfLab.Notebooks.Tests.Support;
using static PerfLab.Notebooks.Tests.Support.NotebookClaims;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// What the runtime track says each listing holds, checked on the listings the notebook routes captured in this test
/// run (the collection's fixture ran them; the claims only read the cache).
/// </summary>
[Collection(BothRoutes.Name)]
public class RuntimeClaimsTests
{
    internal const string Exceptions = "runtime/01-exceptions.ipynb";

    /// <summary>
    /// runtime/01's try/finally listing: the decrement runs inline on the normal path (no call) and again in the funclet
    /// after the method's ret; `this` is kept in the frame for the funclet; .NET 8 and 9 save the stack pointer for
    /// the funclet, which rebuilds its frame pointer from its argument, and .NET 10 does neither (dotnet/runtime#115284).
    /// </summary>
    [X64Fact("the notebook reads x64 registers, frame slots and the funclet's entry")]
    public async Task Exceptions_try_finally_copies_the_finally_onto_the_normal_path_and_net10_enters_its_funclet_with_the_frame_pointer_set()
    {
        var report = await RouteListingsAsync(Exceptions, "class OpenCounter", AsmVariant.SteadyState, null, "SumInTryFinally");

        foreach (var runtime in AllRuntimes)
        {
            var listing = Only(report, runtime);
            var instructions = listing.Instructions.Select(Spaced).ToList();
            var firstReturn = instructions.IndexOf("ret");
            Assert.True(firstReturn > 0, $"{runtime}: no ret in SumInTryFinally:\n{string.Join("\n", instructions)}");
            var normalPath = instructions[..firstReturn];
            var funclet = instructions[(firstReturn + 1)..];
            Assert.True(
                normalPath.Count(i => i == "dec eax") == 1 && funclet.Count(i => i == "dec eax") == 1,
                $"{runtime}: the notebook says the decrement appears once before the method's ret and once in the funclet after it:\n{string.Join("\n", instructions)}");
            Assert.Equal(0, listing.Calls);
            Assert.Contains("mov gword ptr [rbp-0x08], rdi", normalPath);

            var savesStackPointer = normalPath.Contains("mov qword ptr [rbp-0x10], rsp");
            var rebuildsFramePointer = funclet.Contains("mov rbp, qword ptr [rdi]") && funclet.Contains("lea rbp, [rbp+0x10]");
            if (runtime == "net10.0")
            {
                Assert.False(savesStackPointer || rebuildsFramePointer, $"{runtime}: the notebook says the stack pointer save and the funclet's frame rebuild are gone:\n{string.Join("\n", instructions)}");
                Assert.Equal("push rax", funclet[0]);
            }
            else
            {
                Assert.True(savesStackPointer && rebuildsFramePointer, $"{runtime}: the notebook says the body saves rsp at [rbp-0x10] and the funclet rebuilds rbp from [rdi]:\n{string.Join("\n", instructions)}");
            }
        }
    }
}
