using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using PerfLab.Views.Terminal;

namespace PerfLab.Disassembly;

/// <summary>
/// Which vector widths and instruction sets each runtime's JIT uses on this machine. Read from the JIT's
/// own code: <c>Avx2.IsSupported</c>, <c>Vector512.IsHardwareAccelerated</c> and <c>Vector&lt;byte&gt;.Count</c>
/// are constants to the JIT, so a method returning one compiles to <c>mov eax, 1</c> or <c>xor eax, eax</c>
/// (or the count): the answer of the runtime that will run the reader's code, configuration switches
/// such as DOTNET_EnableAVX512F included, and not only what the CPU offers.
/// </summary>
public static class InstructionSetProbe
{
    /// <summary>The probe class's name.</summary>
    public const string ClassName = "InstructionSetProbe";

    /// <summary>What is asked, in display order: the method, the row's label, the architecture it belongs to (null: any), and whether it is a count.</summary>
    public static IReadOnlyList<ProbedFeature> Features { get; } =
    [
        new("Vector128", "Vector128.IsHardwareAccelerated", null),
        new("Vector256", "Vector256.IsHardwareAccelerated", null),
        new("Vector512", "Vector512.IsHardwareAccelerated", null),
        new("VectorTBits", "Vector<T> width in bits", null, IsCount: true),
        new("Sse42", "SSE4.2", Architecture.X64),
        new("Avx", "AVX", Architecture.X64),
        new("Avx2", "AVX2", Architecture.X64),
        new("Fma", "FMA", Architecture.X64),
        new("Bmi2", "BMI2 (mulx, shlx, pdep)", Architecture.X64),
        new("Lzcnt", "LZCNT", Architecture.X64),
        new("Popcnt", "POPCNT", Architecture.X64),
        new("Avx512F", "AVX-512F", Architecture.X64),
        new("Avx512BW", "AVX-512BW (byte and word lanes)", Architecture.X64),
        new("Avx512DQ", "AVX-512DQ (vpmullq)", Architecture.X64),
        new("Avx512Vbmi", "AVX-512VBMI", Architecture.X64),
        new("AdvSimd", "AdvSimd (Neon)", Architecture.Arm64),
        new("Dp", "Dp (dot product)", Architecture.Arm64),
    ];

    /// <summary>
    /// The probe's C#: one [Benchmark] method per feature, each returning the JIT-time constant. Compiles on
    /// .NET 8, 9 and 10 (only APIs all three have).
    /// </summary>
    public static string Source { get; } = BuildSource();

    private static string BuildSource()
    {
        var source = new StringBuilder("""
            using BenchmarkDotNet.Attributes;

            // Each method returns a constant the JIT knows when it compiles: its listing is the answer.
            public class InstructionSetProbe
            {

            """);
        foreach (var feature in Features)
        {
            // Fully qualified: the methods are named after the classes they ask.
            var expression = (feature.Method, feature.Architecture) switch
            {
                ("VectorTBits", _) => "global::System.Numerics.Vector<byte>.Count * 8",
                (_, null) => $"global::System.Runtime.Intrinsics.{feature.Method}.IsHardwareAccelerated",
                (_, Architecture.Arm64) => $"global::System.Runtime.Intrinsics.Arm.{feature.Method}.IsSupported",
                _ => $"global::System.Runtime.Intrinsics.X86.{feature.Method}.IsSupported",
            };
            source.Append(CultureInfo.InvariantCulture, $"    [Benchmark] public {(feature.IsCount ? "int" : "bool")} {feature.Method}() => {expression};\n");
        }

        return source.Append("}\n").ToString();
    }

    /// <summary>
    /// The same features as this process's own runtime answers them (IsSupported, IsHardwareAccelerated, Vector&lt;byte&gt;.Count),
    /// as one column: what a machine offers, without capturing listings (a room groups laptops by it). The probe's listings
    /// remain the answer of each measured runtime, with its settings.
    /// </summary>
    public static InstructionSets OfThisProcess()
    {
        var architecture = RuntimeInformation.ProcessArchitecture;
        var rows = new List<InstructionSetRow>();
        foreach (var feature in Features.Where(f => f.Architecture is null || f.Architecture == architecture))
        {
            var value = feature.Method == "VectorTBits"
                ? System.Numerics.Vector<byte>.Count * 8
                : IsOn(feature) ? 1 : 0;
            rows.Add(new InstructionSetRow(feature.Label, feature.IsCount, [value]));
        }

        return new InstructionSets([$"net{Environment.Version.Major}.{Environment.Version.Minor} {Environment.Version}"], [], rows);
    }

    // The API the probe's method asks, read in this process: X86.Avx2.IsSupported, Vector128.IsHardwareAccelerated...
    private static bool IsOn(ProbedFeature feature)
    {
        var (ns, property) = feature.Architecture switch
        {
            null => ("System.Runtime.Intrinsics", "IsHardwareAccelerated"),
            Architecture.Arm64 => ("System.Runtime.Intrinsics.Arm", "IsSupported"),
            _ => ("System.Runtime.Intrinsics.X86", "IsSupported"),
        };
        var type = typeof(System.Runtime.Intrinsics.Vector128).Assembly.GetType($"{ns}.{feature.Method}");
        return type?.GetProperty(property, System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Static)?.GetValue(null) is true;
    }

    /// <summary>Reads each runtime's answers from the probe's listings.</summary>
    /// <param name="report">The probe's steady-state listings.</param>
    /// <param name="environment">The NAME=VALUE settings the probe ran with, shown with the table.</param>
    /// <param name="architecture">Which architecture's rows to keep (the machine's).</param>
    /// <exception cref="PerfLabException">A listing is missing or is not a constant (the JIT changed its code shape).</exception>
    public static InstructionSets Read(AsmReport report, IReadOnlyList<string> environment, Architecture architecture)
    {
        ArgumentNullException.ThrowIfNull(report);
        var rows = new List<InstructionSetRow>();
        foreach (var feature in Features.Where(f => f.Architecture is null || f.Architecture == architecture))
        {
            var values = new List<int>();
            foreach (var runtime in report.Runtimes)
            {
                var listing = runtime.Listings.FirstOrDefault(l => l.Method.StartsWith($"{ClassName}:{feature.Method}()", StringComparison.Ordinal))
                    ?? throw new PerfLabException($"The instruction-set probe got no code for {feature.Method} on {runtime.Runtime}.", "Run it again; if it persists, report it with the output of `perflab doctor`.");
                values.Add(ConstantOf(listing) ?? throw new PerfLabException(
                    $"The instruction-set probe's {feature.Method} on {runtime.Runtime} is not a constant:\n{listing}",
                    "Report it: the probe expects the JIT to fold IsSupported to 0 or 1."));
            }

            rows.Add(new InstructionSetRow(feature.Label, feature.IsCount, values));
        }

        return new InstructionSets(report.Runtimes.Select(r => $"{r.Runtime} {r.Version}").ToArray(), environment, rows);
    }

    // "xor eax, eax" is 0, "mov eax, N" is N; anything else is not a folded constant.
    private static int? ConstantOf(AsmListing listing)
    {
        foreach (var line in listing.Instructions)
        {
            var parts = line.Split([' ', ','], StringSplitOptions.RemoveEmptyEntries);
            if (parts is ["xor", "eax", "eax"] or ["eor", "w0", "w0", "w0"])
            {
                return 0;
            }

            if (parts is ["mov", "eax" or "w0", var value])
            {
                return value.StartsWith("0x", StringComparison.Ordinal)
                    ? int.Parse(value[2..], NumberStyles.HexNumber, CultureInfo.InvariantCulture)
                    : int.TryParse(value.TrimStart('#'), CultureInfo.InvariantCulture, out var number) ? number : null;
            }
        }

        return null;
    }
}

/// <summary>One thing the probe asks.</summary>
/// <param name="Method">The probe's method (and the API's class name, for IsSupported rows).</param>
/// <param name="Label">What the reader sees.</param>
/// <param name="Architecture">The only architecture it exists on; null for the cross-platform vector APIs.</param>
/// <param name="IsCount">A number rather than yes/no.</param>
public sealed record ProbedFeature(string Method, string Label, Architecture? Architecture, bool IsCount = false);

/// <summary>One feature's answer on each runtime.</summary>
/// <param name="Feature">The label.</param>
/// <param name="IsCount">A number rather than yes/no.</param>
/// <param name="Values">Per runtime, in the table's order: 0 or 1 for yes/no, else the number.</param>
public sealed record InstructionSetRow(string Feature, bool IsCount, IReadOnlyList<int> Values)
{
    /// <summary>"yes", "no" or the number, per runtime.</summary>
    public IEnumerable<string> Cells => Values.Select(v => IsCount ? v.ToString(CultureInfo.InvariantCulture) : v != 0 ? "yes" : "no");
}

/// <summary>What each runtime's JIT uses on this machine; displays as a table (text and HTML).</summary>
/// <param name="Runtimes">"net8.0 8.0.31", ..., the columns.</param>
/// <param name="Environment">NAME=VALUE settings the runtimes ran with (e.g. DOTNET_EnableAVX512F=0).</param>
/// <param name="Rows">One per feature.</param>
[PerfLab.Views.Html.TypeFormatterSource(typeof(PerfLab.Views.Html.NotebookFormatterSource))]
public sealed record InstructionSets(IReadOnlyList<string> Runtimes, IReadOnlyList<string> Environment, IReadOnlyList<InstructionSetRow> Rows)
{
    /// <summary>Whether <paramref name="feature"/> (a label's start, e.g. "AVX-512F") is used by <paramref name="runtime"/> (a moniker).</summary>
    /// <param name="feature">Start of the row's label.</param>
    /// <param name="runtime">Moniker, e.g. net9.0.</param>
    /// <exception cref="ArgumentException">No such row or runtime.</exception>
    public bool Uses(string feature, string runtime) => Value(feature, runtime) != 0;

    /// <summary>The row's value on <paramref name="runtime"/>: 0 or 1, or the count.</summary>
    /// <param name="feature">Start of the row's label.</param>
    /// <param name="runtime">Moniker.</param>
    /// <exception cref="ArgumentException">No such row or runtime.</exception>
    public int Value(string feature, string runtime)
    {
        var row = Rows.FirstOrDefault(r => r.Feature.StartsWith(feature, StringComparison.Ordinal))
            ?? throw new ArgumentException($"No row '{feature}'; rows: {string.Join(", ", Rows.Select(r => r.Feature))}.", nameof(feature));
        var column = Runtimes.ToList().FindIndex(r => r.Split(' ')[0] == runtime);
        return column < 0 ? throw new ArgumentException($"No runtime '{runtime}'.", nameof(runtime)) : row.Values[column];
    }

    /// <summary>The terminal view: see <see cref="InstructionSetsTerminalView"/>.</summary>
    public override string ToString() => InstructionSetsTerminalView.Render(this);
}
