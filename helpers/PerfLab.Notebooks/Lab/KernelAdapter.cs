using System.Runtime.Loader;
using PerfLab.Notebooks.Execution;

namespace PerfLab.Notebooks;

/// <summary>
/// What a kernel other than the course's own needs from the helpers to run every cell as the course kernel
/// does: implemented by PerfLab.Interactive for .NET Interactive (Polyglot Notebooks' engine), which holds
/// that kernel's API, so the helpers themselves reference none of it.
/// </summary>
internal interface IKernelAdapter
{
    /// <summary>Registers the adapter with the running kernel (once per process; later calls do nothing) and names the kernel.</summary>
    string Attach();

    /// <summary>The running cell's token when the adapter keeps one (the kernel's own, and cancelled by an interrupt the adapter takes); else null.</summary>
    CancellationToken? RunningCell { get; }

    /// <summary>Shows <paramref name="view"/> in the running cell; returns what replaces it in place, null emptying it.</summary>
    Action<LiveView?> Show(LiveView view);
}

/// <summary>Finds which kernel runs the notebook and, for .NET Interactive, loads and attaches its adapter.</summary>
internal static class KernelAdapter
{
    private const string InteractiveAssembly = "Microsoft.DotNet.Interactive";
    private const string AdapterFile = "PerfLab.Interactive.dll";
    private static readonly Lazy<IKernelAdapter> Interactive = new(LoadInteractive);

    /// <summary>The kernel running the cell, described for the setup cell; attaches the adapter where one is needed.</summary>
    /// <exception cref="PerfLabException">.NET Interactive runs the notebook, and the adapter is not built next to the helpers.</exception>
    public static string AttachToCurrent()
    {
        if (CellContext.Current is not null)
        {
            return "PerfLab C# kernel";
        }

        return AppDomain.CurrentDomain.GetAssemblies().Any(a => a.GetName().Name == InteractiveAssembly)
            ? Interactive.Value.Attach()
            : "a C# host the course does not know (the course kernel and .NET Interactive are the ones it runs in)";
    }

    /// <summary>The running cell's token as .NET Interactive's adapter keeps it, once the setup cell has attached it; else null.</summary>
    public static CancellationToken? InteractiveCell => Interactive.IsValueCreated ? Interactive.Value.RunningCell : null;

    /// <summary>How .NET Interactive's adapter shows a view it can replace in place, once the setup cell has attached it; else null.</summary>
    public static Func<LiveView, Action<LiveView?>>? InteractiveShow => Interactive.IsValueCreated ? Interactive.Value.Show : null;

    // Loaded beside the helpers, in the load context .NET Interactive gave them, so the adapter and the
    // notebook's cells share one copy of every helper type; .NET Interactive's own assemblies come from its
    // default context.
    private static IKernelAdapter LoadInteractive()
    {
        var path = Path.Combine(Path.GetDirectoryName(typeof(KernelAdapter).Assembly.Location)!, AdapterFile);
        if (!File.Exists(path))
        {
            throw new PerfLabException(
                $".NET Interactive runs this notebook, and its adapter ({AdapterFile}) is not next to the helpers.",
                fix: "Build the helpers from the repository root (`dotnet build helpers/PerfLab.Cli`, which README command 1 does), then restart the kernel.");
        }

        var context = AssemblyLoadContext.GetLoadContext(typeof(KernelAdapter).Assembly) ?? AssemblyLoadContext.Default;
        var assembly = context.LoadFromAssemblyPath(path);
        var type = assembly.GetTypes().Single(t => typeof(IKernelAdapter).IsAssignableFrom(t) && !t.IsAbstract);
        return (IKernelAdapter)Activator.CreateInstance(type)!;
    }
}
