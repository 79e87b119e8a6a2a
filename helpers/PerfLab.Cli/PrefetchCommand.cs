using System.CommandLine;
using System.Diagnostics;
using PerfLab.Course.Kit;

namespace PerfLab.Cli;

/// <summary>`perflab prefetch`: an offline kit for a workshop room (KitPrefetch).</summary>
internal static class PrefetchCommand
{
    public static Command Create(TextWriter output, TextWriter error)
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
}
