using System.CommandLine;
using PerfLab.Benchmarks;
using PerfLab.Runtimes;

namespace PerfLab.Cli;

/// <summary>`perflab runtimes`: the pinned runtimes, where each is, and provisioning the missing ones.</summary>
internal static class RuntimesCommand
{
    public static Command Create(TextWriter output, TextWriter error)
    {
        var provision = new Option<bool>("--provision") { Description = "Provision every missing runtime now (downloads runtime packs through NuGet), and precompile the host for each (crossgen2 through NuGet)." };
        var command = new Command("runtimes", "List the runtimes the course uses: version, installed or provisioned, path.") { provision };
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var home = PerfLabHome.Default();
            var locator = new RuntimeLocator(home);
            var precompiled = new ReadyToRunHosts(home, new HostLayout(), locator.Sdk);
            var rows = parse.GetValue(provision)
                ? await precompiled.PrepareAllAsync(locator, RuntimeCatalog.All, m => error.WriteLine(m), ReadyToRunHosts.HostMaking.MakeAgain, cancellationToken).ConfigureAwait(false)
                : RuntimeCatalog.All.Select(locator.Locate).ToArray();

            var width = rows.Max(r => r.Pinned.Moniker.Length);
            output.WriteLine($"{"Runtime".PadRight(width)}  {"Version",-8}  {"Source",-11}  Path");
            foreach (var row in rows)
            {
                var source = row.Source.Name();
                var path = row.Path ?? "(provisioned from NuGet on first use, or with --provision)";
                output.WriteLine($"{row.Pinned.Moniker.PadRight(width)}  {row.Pinned.Version,-8}  {source,-11}  {path}");
            }

            var others = locator.Sdk.FrameworkVersions().Where(v => RuntimeCatalog.All.All(r => r.Version != v)).ToArray();
            if (others.Length > 0)
            {
                output.WriteLine($"Also installed, not used (the course pins exact versions): {string.Join(", ", others)}");
            }

            return 0;
        }).ConfigureAwait(false));
        return command;
    }
}
