namespace PerfLab.Runtimes;

/// <summary>A pinned runtime and where it is found.</summary>
/// <param name="Pinned">The runtime.</param>
/// <param name="Source">Installed, provisioned or missing.</param>
/// <param name="Installation">The dotnet root to start it from, when not missing.</param>
public sealed record LocatedRuntime(PinnedRuntime Pinned, RuntimeSource Source, DotnetInstallation? Installation)
{
    /// <summary>The framework folder, when not missing.</summary>
    public string? Path => Installation is null ? null : System.IO.Path.Combine(Installation.FrameworksFolder, Pinned.Version);
}

/// <summary>Finds pinned runtimes on the machine and provisions the missing ones.</summary>
public sealed class RuntimeLocator
{
    private readonly RuntimeProvisioner _provisioner;

    /// <summary>Creates a locator over the SDK's installation and the home's private root.</summary>
    /// <param name="home">Where provisioned runtimes live.</param>
    /// <param name="sdk">The installation PerfLab runs on; null finds it.</param>
    /// <param name="packageSource">Provision from this package source only (an offline kit's packages folder); null uses the user's NuGet configuration.</param>
    public RuntimeLocator(PerfLabHome home, DotnetInstallation? sdk = null, string? packageSource = null)
    {
        ArgumentNullException.ThrowIfNull(home);
        Sdk = sdk ?? DotnetInstallation.Current();
        _provisioner = new RuntimeProvisioner(home, Sdk, packageSource);
    }

    /// <summary>The installation PerfLab itself runs on.</summary>
    public DotnetInstallation Sdk { get; }

    /// <summary>Where provisioned runtimes go.</summary>
    public DotnetInstallation PrivateRoot => _provisioner.PrivateRoot;

    /// <summary>Reports where each pinned runtime is, without changing anything.</summary>
    public LocatedRuntime Locate(PinnedRuntime runtime)
    {
        ArgumentNullException.ThrowIfNull(runtime);
        if (Sdk.HasFramework(runtime.Version))
        {
            return new LocatedRuntime(runtime, RuntimeSource.Installed, Sdk);
        }

        return PrivateRoot.HasFramework(runtime.Version) && File.Exists(PrivateRoot.Muxer)
            ? new LocatedRuntime(runtime, RuntimeSource.Provisioned, PrivateRoot)
            : new LocatedRuntime(runtime, RuntimeSource.Missing, null);
    }

    /// <summary>Locates <paramref name="runtime"/>, provisioning it when it is missing.</summary>
    /// <param name="runtime">The runtime.</param>
    /// <param name="log">Receives one line per provisioning step.</param>
    /// <param name="cancellationToken">Stops the download.</param>
    public async Task<LocatedRuntime> EnsureAsync(PinnedRuntime runtime, Action<string> log, CancellationToken cancellationToken)
    {
        var located = Locate(runtime);
        if (located.Source != RuntimeSource.Missing)
        {
            return located;
        }

        var root = await _provisioner.ProvisionAsync(runtime, log, cancellationToken).ConfigureAwait(false);
        return new LocatedRuntime(runtime, RuntimeSource.Provisioned, root);
    }
}
