using PerfLab.Processes;

namespace PerfLab.Runtimes;

/// <summary>A dotnet root: the <c>dotnet</c> muxer plus shared frameworks under shared/Microsoft.NETCore.App.</summary>
/// <param name="Root">The folder holding the muxer.</param>
public sealed record DotnetInstallation(string Root)
{
    /// <summary>File name of the muxer on this OS.</summary>
    public static string MuxerFileName => OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet";

    /// <summary>Full path of the muxer.</summary>
    public string Muxer => Path.Combine(Root, MuxerFileName);

    /// <summary>The folder holding one subfolder per Microsoft.NETCore.App version.</summary>
    public string FrameworksFolder => Path.Combine(Root, "shared", "Microsoft.NETCore.App");

    /// <summary>Microsoft.NETCore.App versions present in this root.</summary>
    public IReadOnlyList<string> FrameworkVersions()
    {
        if (!Directory.Exists(FrameworksFolder))
        {
            return [];
        }

        return Directory.EnumerateDirectories(FrameworksFolder)
            .Where(d => File.Exists(Path.Combine(d, "System.Private.CoreLib.dll")))
            .Select(Path.GetFileName)
            .OfType<string>()
            .Where(v => !v.StartsWith('.'))
            .Order(StringComparer.Ordinal)
            .ToArray();
    }

    /// <summary>Whether the exact framework version is present.</summary>
    /// <param name="version">e.g. 8.0.31.</param>
    public bool HasFramework(string version) => FrameworkVersions().Contains(version);

    /// <summary>
    /// The installation the current process runs on: <c>DOTNET_ROOT</c>, the folder of the running
    /// muxer, or <c>dotnet</c> on PATH (links followed).
    /// </summary>
    /// <exception cref="PerfLabException">No dotnet root could be found.</exception>
    public static DotnetInstallation Current()
    {
        foreach (var candidate in Candidates())
        {
            if (candidate is not null && File.Exists(Path.Combine(candidate, MuxerFileName)) && Directory.Exists(Path.Combine(candidate, "host", "fxr")))
            {
                return new DotnetInstallation(Path.GetFullPath(candidate));
            }
        }

        throw new PerfLabException(
            "Could not find the .NET installation (no dotnet root with host/fxr).",
            "Install the .NET 10 SDK and make sure `dotnet` is on PATH, or set DOTNET_ROOT to its folder.");
    }

    private static IEnumerable<string?> Candidates()
    {
        yield return Environment.GetEnvironmentVariable("DOTNET_ROOT");
        var processPath = Environment.ProcessPath;
        if (processPath is not null && Path.GetFileNameWithoutExtension(processPath).Equals("dotnet", StringComparison.OrdinalIgnoreCase))
        {
            yield return Path.GetDirectoryName(ResolveLinks(processPath));
        }

        // The runtime we run on lives in <root>/shared/Microsoft.NETCore.App/<version>/.
        var runtimeDir = System.Runtime.InteropServices.RuntimeEnvironment.GetRuntimeDirectory();
        yield return Path.GetFullPath(Path.Combine(runtimeDir, "..", "..", ".."));

        foreach (var muxer in ExecutableSearch.All("dotnet"))
        {
            yield return Path.GetDirectoryName(ResolveLinks(muxer));
        }
    }

    /// <summary>The SDK version this muxer picks in <paramref name="workingDirectory"/> (global.json applies), or "unknown".</summary>
    /// <param name="workingDirectory">Where to ask, e.g. the repository root.</param>
    /// <param name="cancellationToken">Stops the process.</param>
    public async Task<string> SdkVersionAsync(string workingDirectory, CancellationToken cancellationToken)
    {
        var result = await ChildProcess.RunAsync(Muxer, ["--version"], null, workingDirectory, TimeSpan.FromMinutes(1), null, cancellationToken).ConfigureAwait(false);
        return result.ExitCode == 0 && !string.IsNullOrWhiteSpace(result.StandardOutput) ? result.StandardOutput.Trim() : "unknown";
    }

    private static string ResolveLinks(string path)
    {
        var target = new FileInfo(path).ResolveLinkTarget(returnFinalTarget: true);
        return target?.FullName ?? path;
    }
}
