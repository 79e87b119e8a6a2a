using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using PerfLab.Benchmarks;
using PerfLab.Processes;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>
/// helpers/PerfLab/Runtimes/Runtimes.props is the one place a runtime is added: everything keyed by runtime
/// is listed here from a runtime list and checked, the project files by evaluating them with real MSBuild.
/// Evaluated with a runtime added to that list alone, the check shows that every project follows and names
/// only what cannot: the SDK, the reference-assembly package and the build output.
/// </summary>
public class RuntimeKeyedFilesTests
{
    private const string RuntimesProps = "helpers/PerfLab/Runtimes/Runtimes.props";
    private const string HostProject = "helpers/PerfLab.Host/PerfLab.Host.csproj";
    private const string InputsProject = "helpers/PerfLab.Inputs/PerfLab.Inputs.csproj";
    private const string HostBundle = "helpers/PerfLab.Host/build/PerfLab.Host.Bundle.targets";
    private const string CliProject = "helpers/PerfLab.Cli/PerfLab.Cli.csproj";
    private const string LibraryProject = "helpers/PerfLab/PerfLab.csproj";

    [Fact]
    public async Task Everything_keyed_by_runtime_agrees_with_the_catalog()
    {
        var problems = await Problems(RuntimeCatalog.All, overrideList: false);

        Assert.True(problems.Count == 0, $"Keyed by runtime and not in line with {RuntimesProps}:\n" + string.Join("\n", problems));
    }

    [Fact]
    public void The_catalog_is_the_list_in_Runtimes_props()
    {
        var written = Regex.Match(File.ReadAllText(RepoFiles.Path(RuntimesProps)), "<PerfLabRuntimes>([^<]*)</PerfLabRuntimes>").Groups[1].Value;

        Assert.Equal(RuntimeCatalog.Parse(written), RuntimeCatalog.All);
    }

    [Fact]
    public async Task A_runtime_added_to_Runtimes_props_reaches_every_project_and_names_only_what_cannot_follow()
    {
        var net11 = new PinnedRuntime("net11.0", "11.0.0");

        var problems = await Problems([.. RuntimeCatalog.All, net11], overrideList: true);

        // Left to do by hand: an SDK that targets it, its reference-assembly package, and the build that follows.
        string[] left = ["global.json", "Basic.Reference.Assemblies.Net110", "host/net11.0/PerfLab.Host.dll", "host/net11.0/generators/"];
        var unnamed = left.Where(thing => !problems.Exists(p => p.Contains(thing, StringComparison.Ordinal))).ToArray();
        Assert.True(unnamed.Length == 0, $"not named: {string.Join(", ", unnamed)}\n" + string.Join("\n", problems));

        // Everything else follows the list: no project file, package list or check is named.
        string[] following = [HostProject, InputsProject, LibraryProject, HostBundle, "Directory.Packages.props", "BenchmarkCompiler"];
        var named = following.Where(file => problems.Exists(p => p.StartsWith(file, StringComparison.Ordinal))).ToArray();
        Assert.True(named.Length == 0, $"should follow {RuntimesProps} but do not: {string.Join(", ", named)}\n" + string.Join("\n", problems));
    }

    [Theory]
    [InlineData("net8.0")]
    [InlineData("net8.0=eight")]
    [InlineData("net8.0=8.0.31=x")]
    [InlineData("=8.0.31")]
    public void A_malformed_runtime_list_says_which_entry_and_where_the_list_lives(string list)
    {
        var error = Assert.Throws<FormatException>(() => RuntimeCatalog.Parse(list));

        Assert.Contains($"'{list}'", error.Message, StringComparison.Ordinal);
        Assert.Contains(RuntimesProps, error.Message, StringComparison.Ordinal);
    }

    // Every file and build output keyed by runtime, checked for each of `runtimes`: one line per thing to change.
    // With overrideList, MSBuild evaluates the projects with `runtimes` in place of Runtimes.props' list.
    private static async Task<List<string>> Problems(IReadOnlyList<PinnedRuntime> runtimes, bool overrideList)
    {
        var problems = new List<string>();
        string[] list = overrideList ? [$"-p:PerfLabRuntimes={string.Join("%3B", runtimes.Select(r => $"{r.Moniker}={r.Version}"))}"] : [];
        var monikers = runtimes.Select(r => r.Moniker).ToArray();
        var hosts = new HostLayout();
        var sdk = (string?)JsonNode.Parse(File.ReadAllText(RepoFiles.Path("global.json")))?["sdk"]?["version"] ?? "0";
        var sdkMajor = int.Parse(sdk[..sdk.IndexOf('.', StringComparison.Ordinal)], System.Globalization.CultureInfo.InvariantCulture);

        // The projects built for every runtime: the same monikers, in order.
        foreach (var project in new[] { HostProject, InputsProject })
        {
            var targets = (string?)(await Evaluate(project, ["-getProperty:TargetFrameworks", "-getProperty:PerfLabRuntimes", .. list]))["Properties"]?["TargetFrameworks"];
            if (targets != string.Join(";", monikers))
            {
                problems.Add($"{project}: TargetFrameworks evaluates to {targets}, not {string.Join(";", monikers)}");
            }
        }

        // The library: one reference-assembly package per runtime, each versioned, and the list it reads back.
        var library = await Evaluate(LibraryProject, ["-getItem:PackageReference", "-getItem:PackageVersion", "-getItem:AssemblyMetadata", .. list]);
        var built = library["Items"]?["AssemblyMetadata"]?.AsArray().SingleOrDefault(m => (string?)m?["Identity"] == "PerfLabRuntimes");
        if (built is null || !RuntimeCatalog.Parse((string?)built["Value"] ?? "").SequenceEqual(runtimes))
        {
            problems.Add($"{LibraryProject}: its PerfLabRuntimes metadata ({built?["Value"]}) is not the list {string.Join(";", monikers)}");
        }

        // The bundle's check, run against this build's hosts: it must fail exactly for the runtimes with no host.
        var missingHosts = monikers.Where(m => !File.Exists(Path.Combine(hosts.BaseDirectory, m, "PerfLab.Host.dll"))).ToArray();
        using (var output = new TempFolder())
        {
            var check = await MSBuild([CliProject, "-t:CopyPerfLabHost", $"-p:PerfLabHostBin={hosts.BaseDirectory}/", $"-p:OutDir={output.Path}/", .. list]);
            var named = Regex.Match(check.StandardOutput, @"PerfLab\.Host was not built for ([^ ]+(?:, [^ ]+)*) under").Groups[1].Value.Split(", ", StringSplitOptions.RemoveEmptyEntries);
            if ((check.ExitCode == 0) != (missingHosts.Length == 0) || !named.SequenceEqual(missingHosts))
            {
                problems.Add($"{HostBundle}: its check names [{string.Join(", ", named)}] where hosts are missing for [{string.Join(", ", missingHosts)}] (exit {check.ExitCode})");
            }
        }

        foreach (var runtime in runtimes)
        {
            var moniker = runtime.Moniker;
            if (moniker != $"net{runtime.Major}.0")
            {
                problems.Add($"{RuntimesProps}: {moniker} is pinned to {runtime.Version}, another major version");
            }

            var package = runtime.ReferenceAssembliesPackage;
            if (!Listed(library, "PackageReference", package))
            {
                problems.Add($"{LibraryProject}: no PackageReference to {package} (the reference assemblies of {moniker})");
            }

            if (!Listed(library, "PackageVersion", package))
            {
                problems.Add($"Directory.Packages.props: no PackageVersion of {package} (the reference assemblies of {moniker})");
            }

            try
            {
                var corlib = CSharpCompilation.Create("probe", references: runtime.ReferenceAssemblies()).GetSpecialType(SpecialType.System_Object).ContainingAssembly.Identity.Version.Major;
                if (corlib != runtime.Major)
                {
                    problems.Add($"{package}: its reference assemblies are .NET {corlib}'s, not {moniker}'s");
                }
            }
            catch (InvalidOperationException)
            {
                problems.Add($"{package}: not built into PerfLab (the registry must hold it at Directory.Packages.props' version)");
            }

            if (runtime.Major > sdkMajor)
            {
                problems.Add($"global.json: SDK {sdk} has no targeting pack for {moniker}");
            }

            var symbols = BenchmarkCompiler.PreprocessorSymbols(runtime);
            if (!symbols.Contains($"NET{runtime.Major}_0") || !symbols.Contains($"NET{runtime.Major}_0_OR_GREATER"))
            {
                problems.Add($"BenchmarkCompiler (helpers/PerfLab/Benchmarks/): no NET{runtime.Major}_0 symbols for {moniker}");
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

    private static bool Listed(JsonNode evaluation, string itemType, string identity) =>
        evaluation["Items"]?[itemType]?.AsArray().Any(i => string.Equals((string?)i?["Identity"], identity, StringComparison.OrdinalIgnoreCase)) == true;

    // A project as MSBuild evaluates it (-getProperty/-getItem answer in JSON when asked for two or more).
    private static async Task<JsonNode> Evaluate(string project, string[] arguments)
    {
        var result = await MSBuild([project, .. arguments]);
        Assert.True(result.ExitCode == 0, $"dotnet msbuild {project} failed:\n{result.StandardOutput}\n{result.StandardError}");
        return JsonNode.Parse(result.StandardOutput) ?? throw new InvalidOperationException($"dotnet msbuild {project} printed nothing");
    }

    private static Task<ChildProcessResult> MSBuild(string[] arguments) =>
        ChildProcess.RunAsync(
            "dotnet",
            ["msbuild", .. arguments.Take(1).Select(p => RepoFiles.Path(p)), "-nologo", "-nodeReuse:false", "-v:q", .. arguments.Skip(1)],
            null,
            RepoFiles.Path(),
            TimeSpan.FromMinutes(2),
            null,
            CancellationToken.None);
}
