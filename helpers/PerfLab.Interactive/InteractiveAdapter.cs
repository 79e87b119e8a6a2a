using System.Reflection;
using System.Runtime.Loader;
using Microsoft.DotNet.Interactive;
using Microsoft.DotNet.Interactive.Commands;
using Microsoft.DotNet.Interactive.CSharp;
using Microsoft.DotNet.Interactive.Formatting;
using PerfLab.Notebooks;
using PerfLab.Notebooks.Execution;
using PerfLab.Room;
using PerfLab.Views.Html;

namespace PerfLab.Interactive;

/// <summary>
/// What .NET Interactive needs to run the course's cells as the course kernel runs them. Lab.Setup() attaches it
/// when the setup cell runs there:
/// <list type="bullet">
/// <item>[GeneratedRegex] cells: its scripting runs no source generators either, so a middleware on its C# kernel
/// splits such a cell as the course kernel does (<see cref="CellLibraryFiles"/>): the usings and types become a
/// library built with the regex generator, which the kernel then references, and the statements run as the cell.</item>
/// <item>FSharp.Core: the tool runs on its own FSharp.Core; Plotly.NET asks for a newer one, and two copies make
/// Plotly.NET and Giraffe.ViewEngine (which binds to the tool's) disagree on F# types. Plotly.NET is given the
/// tool's.</item>
/// <item>Display: a setup cell's summary and a reader's Plotly.NET chart display as in the course kernel
/// (<see cref="ValueDisplay"/>: the chart drawn with the course's plotly.js, offline). The result types need
/// nothing here: .NET Interactive finds their formatters by convention.</item>
/// <item>Live results: a benchmark's table so far and its progress line are displayed and updated in place
/// (<see cref="DisplayedValue.Update"/>), as the course kernel does with Jupyter's display_id.</item>
/// <item>Interrupt: as a Jupyter kernel, SIGINT cancels the running cell and the kernel goes on (<see cref="JupyterInterrupt"/>).</item>
/// </list>
/// </summary>
public sealed class InteractiveAdapter : IKernelAdapter
{
    private static readonly object Gate = new();
    private static string? _attached;
    private static JupyterInterrupt? _interrupt;

    /// <inheritdoc />
    CancellationToken? IKernelAdapter.RunningCell => _interrupt?.Cell;

    /// <inheritdoc />
    Action<LiveView?> IKernelAdapter.Show(LiveView view)
    {
        // Called from the benchmark's progress, on the cell's async flow: the cell's invocation context is current.
        if (KernelInvocationContext.Current is not { } context)
        {
            return _ => { };
        }

        var shown = context.Display(view.Html.ToHtmlContent(), HtmlFormatter.MimeType);
        return next => shown.Update((next?.Html ?? "").ToHtmlContent());
    }

    /// <inheritdoc />
    public string Attach()
    {
        lock (Gate)
        {
            return _attached ??= AttachOnce();
        }
    }

    private static string AttachOnce()
    {
        AppDomain.CurrentDomain.AssemblyResolve += OneFSharpCore;
        foreach (var type in new[] { typeof(LabInfo), typeof(Plotly.NET.GenericChart) })
        {
            Formatter.Register(type, (value, writer) => writer.Write(ValueDisplay.Format(value, NotebookFormatterSource.InteractivePage)["text/html"]), HtmlFormatter.MimeType);
        }

        var csharp = KernelInvocationContext.Current?.HandlingKernel?.RootKernel is CompositeKernel root
            ? root.ChildKernels.OfType<CSharpKernel>().FirstOrDefault()
            : KernelInvocationContext.Current?.HandlingKernel as CSharpKernel;
        if (csharp is null)
        {
            throw new PerfLabException(
                "The setup cell runs in .NET Interactive, but not in its C# kernel.",
                fix: "Run the notebook with C# as its kernel (the notebook's metadata names csharp).");
        }

        // Its libraries see .NET Interactive's default imports, which are DefaultUsings.Cell, as the course kernel's do.
        var cells = new CellLibraryFiles(Path.Combine(PerfLabHome.Default().Work, "interactive-cells-" + Environment.ProcessId));
        _interrupt = JupyterInterrupt.AttachIfJupyter();
        csharp.AddMiddleware((command, context, next) => RunAsync(csharp, cells, command, context, next));
        if (KernelInvocationContext.Current?.Command is SubmitCode setup)
        {
            cells.Ran(setup.Code); // the setup cell's usings (BenchmarkDotNet.Attributes, PerfLab.Notebooks) are in scope from here on
        }

        // The tool's version (1.0.712001), which readers see in VS Code; its libraries carry a beta version of their own.
        var tool = Assembly.GetEntryAssembly() ?? typeof(Kernel).Assembly;
        var version = tool.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion.Split('+')[0] ?? "?";
        return $".NET Interactive {version} C# kernel (Polyglot Notebooks), with the course's adapter";
    }

    private static async Task RunAsync(CSharpKernel csharp, CellLibraryFiles cells, KernelCommand command, KernelInvocationContext context, KernelPipelineContinuation next)
    {
        if (command is not SubmitCode submit)
        {
            await next(command, context).ConfigureAwait(false);
            return;
        }

        using var running = _interrupt?.Running(context.CancellationToken);
        // The cell's runs name its notebook to a workshop room when Jupyter Server started this tool as a kernel: it sets
        // JPY_SESSION_NAME to the notebook's path (as for the course kernel, PerfLab.Kernel's KernelNotebook). Polyglot
        // Notebooks tells the tool no notebook (a SubmitCode carries code and a kernel name), nor do nbclient and
        // jupyter_client: no notebook then, never a guess.
        RoomLaptop.Notebook = Environment.GetEnvironmentVariable("JPY_SESSION_NAME") is { } session && session.EndsWith(".ipynb", StringComparison.OrdinalIgnoreCase) ? session : null;
        var split = await Task.Run(() => cells.Split(submit.Code, context.CancellationToken), context.CancellationToken).ConfigureAwait(false);
        if (split is null)
        {
            await next(command, context).ConfigureAwait(false);
            cells.Ran(submit.Code);
            return;
        }

        if (split.Errors is { } errors)
        {
            context.Fail(command, message: string.Join('\n', errors.Traceback));
            return;
        }

        csharp.AddAssemblyReferences([split.LibraryPath!]);
        var statements = new SubmitCode(split.Statements, csharp.Name);
        statements.SetParent(command, bubbleEvents: true);
        await next(statements, context).ConfigureAwait(false);
        cells.Ran(submit.Code);
    }

    // Any FSharp.Core that cannot be found (Plotly.NET's newer one: the helpers' folder carries none) is the
    // one the tool runs on.
    private static Assembly? OneFSharpCore(object? sender, ResolveEventArgs args) =>
        new AssemblyName(args.Name).Name == "FSharp.Core"
            ? AssemblyLoadContext.Default.Assemblies.FirstOrDefault(a => a.GetName().Name == "FSharp.Core")
            : null;
}
