using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using PerfLab.Runtimes;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>
/// In Polyglot Notebooks, Lab reads the running cell's text from .NET Interactive by reflection (no
/// reference to it exists). .NET Interactive is not in the registry, so the test compiles an assembly
/// with the same shape: KernelInvocationContext.Current.Command.Code and CancellationToken.
/// </summary>
public class InteractiveCellSourceTests
{
    private const string Shape = """
        namespace Microsoft.DotNet.Interactive
        {
            public sealed class KernelInvocationContext
            {
                public static KernelInvocationContext Current { get; set; }
                public object Command { get; set; }
                public System.Threading.CancellationToken CancellationToken { get; set; }
            }
        }
        namespace Microsoft.DotNet.Interactive.Commands
        {
            public sealed class SubmitCode { public string Code { get; set; } }
        }
        """;

    [Fact]
    public void Lab_reads_the_submission_from_dot_net_interactive_and_drops_its_magic_lines()
    {
        var assembly = CompileShape();
        var contextType = assembly.GetType("Microsoft.DotNet.Interactive.KernelInvocationContext")!;
        var command = Activator.CreateInstance(assembly.GetType("Microsoft.DotNet.Interactive.Commands.SubmitCode")!)!;
        command.GetType().GetProperty("Code")!.SetValue(command, "#!time\npublic class B { }\nawait Lab.RunAsync<B>()");
        using var interrupt = new CancellationTokenSource();
        var context = Activator.CreateInstance(contextType)!;
        contextType.GetProperty("Command")!.SetValue(context, command);
        contextType.GetProperty("CancellationToken")!.SetValue(context, interrupt.Token);
        var current = contextType.GetProperty("Current")!;
        current.SetValue(null, context);
        try
        {
            var cell = CellSource.Current();

            Assert.NotNull(cell);
            Assert.Equal("\npublic class B { }\nawait Lab.RunAsync<B>()", cell.Value.Source);
            Assert.Equal(interrupt.Token, cell.Value.Cancellation);
        }
        finally
        {
            current.SetValue(null, null);
        }
    }

    [Fact]
    public void Outside_any_kernel_there_is_no_cell()
    {
        Assert.Null(CellSource.Current());
    }

    private static Assembly CompileShape()
    {
        var compilation = CSharpCompilation.Create(
            "Microsoft.DotNet.Interactive.Shape" + Guid.NewGuid().ToString("N")[..6],
            [CSharpSyntaxTree.ParseText(Shape)],
            RuntimeCatalog.Find($"net{Environment.Version.Major}.0").ReferenceAssemblies(),
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Disable));
        using var stream = new MemoryStream();
        var emitted = compilation.Emit(stream);
        Assert.True(emitted.Success, string.Join("\n", emitted.Diagnostics));
        return Assembly.Load(stream.ToArray());
    }
}
