using System.Text.Json.Nodes;
using PerfLab.Files;

namespace PerfLab.Kernel;

/// <summary>
/// The course kernel's Jupyter kernelspec (kernels/perflab-csharp/kernel.json): written for the current
/// user (or under a prefix), so JupyterLab, Notebook, VS Code's Jupyter extension and nbclient find it
/// by the name every course notebook's metadata carries.
/// </summary>
public static class KernelSpec
{
    /// <summary>The kernelspec name in every course notebook's metadata.</summary>
    public const string Name = "perflab-csharp";

    /// <summary>What frontends show.</summary>
    public const string DisplayName = "C# (PerfLab)";

    /// <summary>Jupyter's per-user data folder: JUPYTER_DATA_DIR, else the platform's default.</summary>
    public static string UserDataDirectory()
    {
        var configured = Environment.GetEnvironmentVariable("JUPYTER_DATA_DIR");
        if (!string.IsNullOrWhiteSpace(configured))
        {
            return configured;
        }

        var home = Environment.GetFolderPath(Environment.SpecialFolder.UserProfile);
        if (OperatingSystem.IsWindows())
        {
            return Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.ApplicationData), "jupyter");
        }

        if (OperatingSystem.IsMacOS())
        {
            return Path.Combine(home, "Library", "Jupyter");
        }

        var xdg = Environment.GetEnvironmentVariable("XDG_DATA_HOME");
        return Path.Combine(string.IsNullOrWhiteSpace(xdg) ? Path.Combine(home, ".local", "share") : xdg, "jupyter");
    }

    /// <summary>The kernelspec folder under a Jupyter data folder.</summary>
    /// <param name="dataDirectory">A Jupyter data folder (a prefix's is PREFIX/share/jupyter).</param>
    public static string Folder(string dataDirectory) => Path.Combine(dataDirectory, "kernels", Name);

    /// <summary>Writes kernel.json so Jupyter starts <c>perflab kernel serve {connection_file}</c> with this very build.</summary>
    /// <param name="dataDirectory">The Jupyter data folder to install into.</param>
    /// <param name="command">The command that starts perflab: [dotnet, PerfLab.Cli.dll] or [perflab executable].</param>
    /// <returns>The kernel.json written.</returns>
    /// <exception cref="PerfLabException">The folder cannot be written.</exception>
    public static string Install(string dataDirectory, IReadOnlyList<string> command)
    {
        ArgumentNullException.ThrowIfNull(command);
        var folder = Folder(dataDirectory);
        var spec = new JsonObject
        {
            ["argv"] = new JsonArray(command.Concat(["kernel", "serve", "{connection_file}"]).Select(a => (JsonNode)a).ToArray()),
            ["display_name"] = DisplayName,
            ["language"] = "C#",
            // Interrupts arrive as control messages: works on every OS, and the kernel stops the cell, not itself.
            ["interrupt_mode"] = "message",
            ["metadata"] = new JsonObject { ["debugger"] = false },
        };
        var file = Path.Combine(folder, "kernel.json");
        try
        {
            Directory.CreateDirectory(folder);
            AtomicFile.WriteAllText(file, spec.ToJsonString(JsonFormats.Indented) + "\n");
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new PerfLabException($"Cannot write the kernelspec to {folder}: {ex.Message}", "Check that folder's permissions, or install elsewhere with --prefix DIR.", inner: ex);
        }

        return file;
    }

    /// <summary>Removes the kernelspec; false when it was not installed there.</summary>
    /// <param name="dataDirectory">The Jupyter data folder it was installed into.</param>
    public static bool Uninstall(string dataDirectory)
    {
        var folder = Folder(dataDirectory);
        if (!Directory.Exists(folder))
        {
            return false;
        }

        Directory.Delete(folder, recursive: true);
        return true;
    }
}
