using PerfLab.Benchmarks;
using PerfLab.Course.Kit;
using PerfLab.Kernel;
using PerfLab.Processes;
using PerfLab.Runtimes;

namespace PerfLab.Course.Setup;

/// <summary>
/// `perflab setup` (what ./setup.sh runs after building): provision the pinned runtimes, from an offline kit when
/// given one; install the course's Jupyter kernel when Jupyter is here; then run the doctor. Safe to run again.
/// </summary>
public static class CourseSetup
{
    /// <summary>Sets this machine up, reporting each step.</summary>
    /// <param name="kitFolder">An offline kit made by `perflab prefetch`, the only package source then; null: the user's NuGet configuration.</param>
    /// <param name="kernelCommand">The command that starts perflab, for the kernelspec; null: the kernel is skipped (--no-kernel).</param>
    /// <param name="report">Receives the lines to show.</param>
    /// <param name="cancellationToken">Stops provisioning and the doctor's network checks.</param>
    /// <returns>Whether every check of the doctor passed.</returns>
    /// <exception cref="PerfLabException">The kit cannot be used, or a runtime cannot be provisioned.</exception>
    public static async Task<bool> RunAsync(string? kitFolder, IReadOnlyList<string>? kernelCommand, Action<string> report, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(report);
        var home = PerfLabHome.Default();
        string? packageSource = null;
        if (kitFolder is not null)
        {
            var kit = OfflineKit.Open(kitFolder);
            packageSource = kit.PackagesFolder;
            report($"Offline kit: {kit.Root} ({kit.Manifest.PackageCount} packages for {string.Join(", ", kit.Manifest.Platforms)}, made {kit.Manifest.Created:yyyy-MM-dd} with SDK {kit.Manifest.SdkVersion})");
            var sdkVersion = await DotnetInstallation.Current().SdkVersionAsync(CourseRepository.Root(), cancellationToken).ConfigureAwait(false);
            if (!string.Equals(sdkVersion, kit.Manifest.SdkVersion, StringComparison.Ordinal))
            {
                report($"note: this machine's SDK is {sdkVersion}; the kit was made with {kit.Manifest.SdkVersion}. If the build asks for a package the kit lacks, install SDK {kit.Manifest.SdkVersion} (docs/workshop.md).");
            }
        }

        report($"Runtimes (PERFLAB_HOME: {home.Root}):");
        var locator = new RuntimeLocator(home, packageSource: packageSource);
        var precompiled = new ReadyToRunHosts(home, new HostLayout(), locator.Sdk, packageSource);
        foreach (var runtime in RuntimeCatalog.All)
        {
            var located = await locator.EnsureAsync(runtime, m => report("  " + m), cancellationToken).ConfigureAwait(false);
            await precompiled.PrepareAsync(located, m => report("  " + m), ReadyToRunHosts.HostMaking.MakeAgain, cancellationToken).ConfigureAwait(false);
            report($"  {runtime.Moniker} {runtime.Version}: {located.Source.Name()} at {located.Path}");
        }

        report("Jupyter kernel:");
        if (kernelCommand is null)
        {
            report("  skipped (--no-kernel)");
        }
        else if (ExecutableSearch.Find("jupyter") is { } jupyter)
        {
            var file = KernelSpec.Install(KernelSpec.UserDataDirectory(), kernelCommand);
            report($"  '{KernelSpec.Name}' ({KernelSpec.DisplayName}) installed for {jupyter}: {file}");
        }
        else
        {
            report("  Jupyter is not on PATH: skipped. The notebooks still run headless (`perflab run`); after installing Jupyter, run `perflab kernel install`.");
        }

        report("Doctor:");
        return await new Doctor(home).ReportAsync(report, cancellationToken).ConfigureAwait(false) == 0;
    }
}
