using System.CommandLine;
using PerfLab.Kernel;

namespace PerfLab.Cli;

/// <summary>`perflab kernel`: install, remove and serve the course's C# Jupyter kernel.</summary>
internal static class KernelCommand
{
    public static Command Create(TextWriter output, TextWriter error)
    {
        var prefix = new Option<string?>("--prefix") { Description = "Install under PREFIX/share/jupyter instead of the user's Jupyter folder (e.g. a virtual environment's prefix).", HelpName = "PREFIX" };
        var install = new Command("install", $"Install the \"{KernelSpec.DisplayName}\" kernel for the current user, so Jupyter, VS Code and nbclient can run the course's notebooks.") { prefix };
        install.SetAction((parse, _) => PerfLabCommand.Guard(error, () =>
        {
            var file = KernelSpec.Install(DataDirectory(parse.GetValue(prefix)), SelfCommand());
            output.WriteLine($"Installed kernel '{KernelSpec.Name}' ({KernelSpec.DisplayName}): {file}");
            output.WriteLine("Open a notebook under notebooks/ in Jupyter or VS Code; it picks this kernel by name. Rebuilt helpers take effect at the next kernel restart.");
            return Task.FromResult(0);
        }));

        var uninstallPrefix = new Option<string?>("--prefix") { Description = "Remove it from PREFIX/share/jupyter.", HelpName = "PREFIX" };
        var uninstall = new Command("uninstall", "Remove the kernel installed by `perflab kernel install`.") { uninstallPrefix };
        uninstall.SetAction((parse, _) => PerfLabCommand.Guard(error, () =>
        {
            var folder = DataDirectory(parse.GetValue(uninstallPrefix));
            output.WriteLine(KernelSpec.Uninstall(folder)
                ? $"Removed kernel '{KernelSpec.Name}' from {KernelSpec.Folder(folder)}."
                : $"Kernel '{KernelSpec.Name}' is not installed in {KernelSpec.Folder(folder)}; nothing to remove.");
            return Task.FromResult(0);
        }));

        var connection = new Argument<string>("CONNECTION_FILE") { Description = "The connection file Jupyter writes." };
        var serve = new Command("serve", "Run the kernel (Jupyter starts this; you do not need to).") { connection };
        serve.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            // Cells cannot read the console: a ReadLine returns at once instead of hanging the kernel.
            Console.SetIn(TextReader.Null);
            using var server = new KernelServer(ConnectionInfo.Load(parse.GetValue(connection)!), Environment.CurrentDirectory);
            using var parentGone = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            _ = WatchParentAsync(parentGone);
            await server.RunAsync(parentGone.Token).ConfigureAwait(false);
            return 0;
        }).ConfigureAwait(false));

        return new Command("kernel", "The course's C# Jupyter kernel: install, uninstall, serve.") { install, uninstall, serve };
    }

    // Jupyter names its own process in JPY_PARENT_PID: when that process is gone (a crashed server or
    // client), nobody will ever send shutdown, so the kernel ends itself instead of lingering.
    private static async Task WatchParentAsync(CancellationTokenSource stop)
    {
        if (!int.TryParse(Environment.GetEnvironmentVariable("JPY_PARENT_PID"), out var parent) || parent <= 0)
        {
            return;
        }

        while (!stop.IsCancellationRequested)
        {
            try
            {
                using var process = System.Diagnostics.Process.GetProcessById(parent);
                if (process.HasExited)
                {
                    break;
                }
            }
            catch (ArgumentException)
            {
                break; // No such process.
            }

            await Task.Delay(TimeSpan.FromSeconds(1), CancellationToken.None).ConfigureAwait(false);
        }

        await stop.CancelAsync().ConfigureAwait(false);
    }

    private static string DataDirectory(string? prefix) =>
        prefix is null ? KernelSpec.UserDataDirectory() : Path.Combine(Path.GetFullPath(prefix), "share", "jupyter");

    // How to start this very build again: `dotnet PerfLab.Cli.dll` or the apphost.
    internal static string[] SelfCommand()
    {
        var process = Environment.ProcessPath ?? "dotnet";
        var assembly = typeof(KernelCommand).Assembly.Location;
        return Path.GetFileNameWithoutExtension(process).Equals("dotnet", StringComparison.OrdinalIgnoreCase) ? [process, assembly] : [process];
    }
}
