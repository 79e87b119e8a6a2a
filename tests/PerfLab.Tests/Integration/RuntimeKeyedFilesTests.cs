using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using System.Xml.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using PerfLab.Benchmarks;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>
/// RuntimeCatalog is the one place a runtime is added: everything keyed by runtime is listed here from the
/// catalog and checked, so a runtime added to the catalog alone names each file still to change. What the
/// engines derive (host folders, regex generators, symbols) is checked in the build output; files that
/// must keep a literal list (project files, the host bundle's check) are checked against the catalog.
/// </summary>
public class RuntimeKeyedFilesTests
{
    private const string Catalog = "helpers/PerfLab/Runtimes/RuntimeCatalog.cs";
    private const string HostProject = "helpers/PerfLab.Host/PerfLab.Host.csproj";
    private const string InputsProject = "helpers/PerfLab.Inputs/PerfLab.Inputs.csproj";
    private const string HostBundle = "helpers/PerfLab.Host/build/PerfLab.Host.Bundle.targets";
    private const string LibraryProject = "helpers/PerfLab/PerfLab.csproj";
    private const string PackageVersions = "Directory.Packages.props";

    [Fact]
    public void Everything_keyed_by_runtime_agrees_with_the_catalog()
    {
        var problems = Problems(RuntimeCatalog.All);

        Assert.True(problems.Count == 0, $"Keyed by runtime and not in line with {Catalog}:\n" + string.Join("\n", problems));
    }

    [Fact]
    public void A_runtime_added_to_the_catalog_alone_names_each_file_still_to_change()
    {
        // .NET 11 in the catalog only, with .NET 10's reference assemblies (no package for it yet).
        var net11 = new PinnedRuntime("net11.0", "11.0.0") { ReferenceAssemblies = RuntimeCatalog.Find("net10.0").ReferenceAssemblies };

        var problems = Problems([.. RuntimeCatalog.All, net11]);

        string[] toChange = [Catalog, HostProject, InputsProject, HostBundle, LibraryProject, PackageVersions, "global.json", "host/net11.0/PerfLab.Host.dll", "host/net11.0/generators/"];
        var unnamed = toChange.Where(file => !problems.Exists(p => p.Contains(file, StringComparison.Ordinal) && p.Contains("net11.0", StringComparison.Ordinal))).ToArray();
        Assert.True(unnamed.Length == 0, $"not named: {string.Join(", ", unnamed)}\n" + string.Join("\n", problems));
    }

    // Every file and build output keyed by runtime, checked for each of `runtimes`: one line per thing to change.
    private static List<string> Problems(IReadOnlyList<PinnedRuntime> runtimes)
    {
        var problems = new List<string>();
        var monikers = runtimes.Select(r => r.Moniker).ToArray();
        var hosts = new HostLayout();
        var libraryProject = File.ReadAllText(RepoFiles.Path(LibraryProject));
        var packageVersions = File.ReadAllText(RepoFiles.Path(PackageVersions));
        var bundle = File.ReadAllText(RepoFiles.Path(HostBundle));
        var bundleChecks = Regex.Matches(bundle, @"\$\(PerfLabHostBin\)(net[0-9.]+)/PerfLab\.Host\.dll").Select(m => m.Groups[1].Value).ToArray();
        var sdk = (string?)JsonNode.Parse(File.ReadAllText(RepoFiles.Path("global.json")))?["sdk"]?["version"] ?? "0";
        var sdkMajor = int.Parse(sdk[..sdk.IndexOf('.', StringComparison.Ordinal)], System.Globalization.CultureInfo.InvariantCulture);

        // Project files that must list the target frameworks themselves: the same monikers, in order.
        foreach (var project in new[] { HostProject, InputsProject })
        {
            var listed = XDocument.Load(RepoFiles.Path(project)).Descendants("TargetFrameworks").Single().Value;
            if (listed != string.Join(";", monikers))
            {
                problems.Add($"{project}: TargetFrameworks is {listed}, the catalog's {string.Join(";", monikers)}");
            }
        }

        foreach (var extra in bundleChecks.Except(monikers))
        {
            problems.Add($"{HostBundle}: checks a host for {extra}, which the catalog does not pin");
        }

        foreach (var runtime in runtimes)
        {
            var moniker = runtime.Moniker;
            if (moniker != $"net{runtime.Major}.0")
            {
                problems.Add($"{Catalog}: {moniker} is pinned to {runtime.Version}, another major version");
            }

            var package = $"Basic.Reference.Assemblies.Net{runtime.Major}0";
            var corlib = CSharpCompilation.Create("probe", references: runtime.ReferenceAssemblies()).GetSpecialType(SpecialType.System_Object).ContainingAssembly.Identity.Version.Major;
            if (corlib != runtime.Major)
            {
                problems.Add($"{Catalog}: the reference assemblies of {moniker} are .NET {corlib}'s, not {package}'s");
            }

            if (!libraryProject.Contains($"<PackageReference Include=\"{package}\" />", StringComparison.Ordinal))
            {
                problems.Add($"{LibraryProject}: no PackageReference to {package} (the reference assemblies of {moniker})");
            }

            if (!packageVersions.Contains($"<PackageVersion Include=\"{package}\"", StringComparison.Ordinal))
            {
                problems.Add($"{PackageVersions}: no PackageVersion of {package} (the reference assemblies of {moniker})");
            }

            if (!bundleChecks.Contains(moniker) || !Regex.IsMatch(bundle, $@"Text=""[^""]*\b{Regex.Escape(moniker)}\b"))
            {
                problems.Add($"{HostBundle}: the check that the host was built does not name {moniker}");
            }

            if (runtime.Major > sdkMajor)
            {
                problems.Add($"global.json: SDK {sdk} has no targeting pack for {moniker}");
            }

            var symbols = BenchmarkCompiler.PreprocessorSymbols(runtime);
            if (!symbols.Contains($"NET{runtime.Major}_0") || !symbols.Contains($"NET{runtime.Major}_0_OR_GREATER"))
            {
                problems.Add($"helpers/PerfLab/Benchmarks/BenchmarkCompiler.cs: no NET{runtime.Major}_0 symbols for {moniker}");
            }

            // The build output: the host and its inputs, and the regex generator the host build copies.
            var folder = Path.Combine(hosts.BaseDirectory, moniker);
            foreach (var file in new[] { "PerfLab.Host.dll", HostLayout.InputsAssembly, "generators/System.Text.RegularExpressions.Generator.dll" })
            {
                if (!File.Exists(Path.Combine(folder, file)))
                {
                    problems.Add($"host/{moniker}/{file} is not in the build output ({HostProject} builds it for each of its TargetFrameworks)");
                }
            }
        }

        return problems;
    }
}
