using System.CommandLine;
using System.Diagnostics;
using System.Text.Json;
using PerfLab.Course;
using PerfLab.Course.Kit;
using PerfLab.Course.Setup;
using PerfLab.Kernel;
using PerfLab.Notebooks.Documents;
using PerfLab.Processes;
using PerfLab.Runtimes;

namespace PerfLab.Cli;

/// <summary>`perflab setup`, `perflab prefetch` and `perflab doctor`: getting a machine ready for the course and checking it.</summary>
internal static class SetupCommands
{
    public static Command Setup(TextWriter output, TextWriter error)
    {
        var from = new Option<string?>("--from") { Description = "Install from an offline kit made by `perflab prefetch` (no network needed).", HelpName = "KIT" };
        var noKernel = new Option<bool>("--no-kernel") { Description = "Do not install the course's Jupyter kernel." };
        var command = new Command("setup", "Get this machine ready: provision the pinned runtimes, install the Jupyter kernel when Jupyter is here, then run the doctor. Safe to run again. (./setup.sh builds the helpers first and calls this.)")
        {
            from, noKernel,
        };
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var watch = Stopwatch.StartNew();
            var home = PerfLabHome.Default();
            string? packageSource = null;
            if (parse.GetValue(from) is { } kitFolder)
            {
                var kit = OfflineKit.Open(kitFolder);
                packageSource = kit.PackagesFolder;
                output.WriteLine($"Offline kit: {kit.Root} ({kit.Manifest.PackageCount} packages for {string.Join(", ", kit.Manifest.Platforms)}, made {kit.Manifest.Created:yyyy-MM-dd} with SDK {kit.Manifest.SdkVersion})");
                var sdkVersion = await DotnetInstallation.Current().SdkVersionAsync(CourseRepository.Root(), cancellationToken).ConfigureAwait(false);
                if (!string.Equals(sdkVersion, kit.Manifest.SdkVersion, StringComparison.Ordinal))
                {
                    output.WriteLine($"note: this machine's SDK is {sdkVersion}; the kit was made with {kit.Manifest.SdkVersion}. If the build asks for a package the kit lacks, install SDK {kit.Manifest.SdkVersion} (docs/workshop.md).");
                }
            }

            output.WriteLine($"Runtimes (PERFLAB_HOME: {home.Root}):");
            var locator = new RuntimeLocator(home, packageSource: packageSource);
            foreach (var runtime in RuntimeCatalog.All)
            {
                var located = await locator.EnsureAsync(runtime, m => output.WriteLine("  " + m), cancellationToken).ConfigureAwait(false);
                output.WriteLine($"  {runtime.Moniker} {runtime.Version}: {located.Source.Name()} at {located.Path}");
            }

            output.WriteLine("Jupyter kernel:");
            if (parse.GetValue(noKernel))
            {
                output.WriteLine("  skipped (--no-kernel)");
            }
            else if (ExecutableSearch.Find("jupyter") is { } jupyter)
            {
                var file = KernelSpec.Install(KernelSpec.UserDataDirectory(), KernelCommands.SelfCommand());
                output.WriteLine($"  '{KernelSpec.Name}' ({KernelSpec.DisplayName}) installed for {jupyter}: {file}");
            }
            else
            {
                output.WriteLine("  Jupyter is not on PATH: skipped. The notebooks still run headless (`perflab run`); after installing Jupyter, run `perflab kernel install`.");
            }

            output.WriteLine("Doctor:");
            var failed = await RunChecksAsync(output, cancellationToken).ConfigureAwait(false);
            output.WriteLine(failed == 0
                ? $"Set up in {watch.Elapsed.TotalSeconds:0} s. Open notebooks/00-start-here.ipynb, or run it headless: dotnet run --project helpers/PerfLab.Cli -- run notebooks/00-start-here.ipynb"
                : "Setup is not complete: fix what the doctor marks FAIL, then run setup again.");
            return failed == 0 ? 0 : PerfLabCommand.Failure;
        }).ConfigureAwait(false));
        return command;
    }

    public static Command Prefetch(TextWriter output, TextWriter error)
    {
        var outFolder = new Option<string>("--out", "-o") { Description = "The kit's folder (created; re-running adds only what is missing).", HelpName = "KIT", Required = true };
        var platforms = new Option<string[]>("--platform", "-p")
        {
            Description = $"Platforms the room's laptops run: {string.Join(", ", OfflineKit.KnownPlatforms)}, or all. Default: this machine's ({OfflineKit.CurrentPlatform}).",
            AllowMultipleArgumentsPerToken = true,
            HelpName = "RID",
        };
        var command = new Command("prefetch", "Fill a folder with everything the course needs (packages, runtime packs, a git bundle of the course) so `./setup.sh --from KIT` works with no network.")
        {
            outFolder, platforms,
        };
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var chosen = (parse.GetValue(platforms) ?? []).SelectMany(p => p.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)).ToList();
            IReadOnlyList<string> rids = chosen.Count == 0 ? [OfflineKit.CurrentPlatform]
                : chosen.Contains("all", StringComparer.OrdinalIgnoreCase) ? OfflineKit.KnownPlatforms
                : chosen.Select(p => p.ToLowerInvariant()).Distinct().ToArray();
            var watch = Stopwatch.StartNew();
            var kit = parse.GetValue(outFolder)!;
            var manifest = await KitPrefetch.RunAsync(kit, rids, PerfLabHome.Default(), m => error.WriteLine(m), cancellationToken).ConfigureAwait(false);
            output.WriteLine($"Kit ready in {watch.Elapsed.TotalSeconds:0} s: {Path.GetFullPath(kit)}");
            output.WriteLine($"  {manifest.PackageCount} packages, {manifest.PackageBytes / (1024.0 * 1024):0} MB, for {string.Join(", ", manifest.Platforms)}; SDK {manifest.SdkVersion}");
            output.WriteLine("On each laptop (docs/workshop.md): git clone KIT/course.bundle perflab && cd perflab && ./setup.sh --from KIT   (Windows: .\\setup.ps1 -From KIT)");
            return 0;
        }).ConfigureAwait(false));
        return command;
    }

    public static Command Doctor(TextWriter output, TextWriter error)
    {
        var command = new Command("doctor", "Check the SDK, the benchmark host, the notebook helpers, runtimes, the Jupyter kernel, disk, write access and package sources, with a fix for each problem; and say whether the optional .NET Interactive tool is restored.");
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
            await RunChecksAsync(output, cancellationToken).ConfigureAwait(false) == 0 ? 0 : PerfLabCommand.Failure).ConfigureAwait(false));
        return command;
    }

    // The library's checks plus the two only the CLI can make (it sits above the notebooks and the kernel).
    private static async Task<int> RunChecksAsync(TextWriter output, CancellationToken cancellationToken)
    {
        var checks = (await new Doctor().RunAsync(cancellationToken).ConfigureAwait(false)).ToList();
        checks.Insert(Math.Min(2, checks.Count), CheckNotebookHelpers());
        checks.Add(CheckKernel());
        var width = checks.Max(c => c.Name.Length);
        foreach (var check in checks)
        {
            var mark = check.Status switch { CheckStatus.Ok => "ok  ", CheckStatus.Warning => "warn", CheckStatus.Info => "info", _ => "FAIL" };
            output.WriteLine($"[{mark}] {check.Name.PadRight(width)}  {check.Detail}");
            if (check.Fix is not null)
            {
                output.WriteLine($"       {new string(' ', width)}  fix: {check.Fix}");
            }
        }

        var failed = checks.Count(c => c.Status == CheckStatus.Failed);
        var warned = checks.Count(c => c.Status == CheckStatus.Warning);
        output.WriteLine(failed > 0 ? $"{failed} check(s) failed." : warned > 0 ? $"No failures; {warned} warning(s)." : "All checks passed.");
        return failed;
    }

    private static DoctorCheck CheckNotebookHelpers()
    {
        const string name = "notebook helpers";
        try
        {
            var dll = Path.Combine(CourseRepository.Root(), SetupCell.HelpersFolder, "PerfLab.Notebooks.dll");
            return File.Exists(dll)
                ? new DoctorCheck(name, CheckStatus.Ok, $"built: {dll}")
                : new DoctorCheck(name, CheckStatus.Failed, $"not built: {dll} is missing, so every notebook's setup cell fails", $"Run `{SetupCell.BuildCommand}` (./setup.sh does it).");
        }
        catch (PerfLabException ex)
        {
            return new DoctorCheck(name, CheckStatus.Warning, ex.Message, ex.Fix);
        }
    }

    private static DoctorCheck CheckKernel()
    {
        const string name = "Jupyter kernel";
        var spec = Path.Combine(KernelSpec.Folder(KernelSpec.UserDataDirectory()), "kernel.json");
        var jupyter = ExecutableSearch.Find("jupyter");
        if (!File.Exists(spec))
        {
            return jupyter is null
                ? new DoctorCheck(name, CheckStatus.Ok, "Jupyter is not on PATH; the notebooks run headless with `perflab run` (install Jupyter, then `perflab kernel install`, to read them live)")
                : new DoctorCheck(name, CheckStatus.Warning, $"'{KernelSpec.Name}' is not installed for {jupyter}", "Run `perflab kernel install` (./setup.sh does it).");
        }

        try
        {
            using var document = JsonDocument.Parse(File.ReadAllText(spec));
            var argv = document.RootElement.GetProperty("argv").EnumerateArray().Select(a => a.GetString() ?? "").ToArray();
            var missing = argv.Take(2).Where(a => Path.IsPathRooted(a) && !File.Exists(a)).ToArray();
            return missing.Length == 0
                ? new DoctorCheck(name, CheckStatus.Ok, $"'{KernelSpec.Name}' installed: {spec}")
                : new DoctorCheck(name, CheckStatus.Failed, $"{spec} starts {missing[0]}, which no longer exists", "Run `perflab kernel install` again from this clone.");
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException or IOException)
        {
            return new DoctorCheck(name, CheckStatus.Failed, $"{spec} is damaged: {ex.Message}", "Run `perflab kernel install` again.");
        }
    }
}
