using System.Globalization;
using System.Text.RegularExpressions;

namespace PerfLab.Disassembly;

/// <summary>
/// One method's code as the JIT printed it (DOTNET_JitDisasm), with the counts that teach: bounds
/// checks, allocations, write barriers, calls and loops. Hex is normalized to 0x.. (.NET 8 prints 20H).
/// </summary>
/// <param name="Method">The JIT's name, e.g. "Ns.Type:Sum(int[]):int".</param>
/// <param name="Tier">As printed: Tier0, Instrumented Tier0, Tier1, Tier1-OSR, FullOpts...</param>
/// <param name="UsesPgo">Optimized using Dynamic PGO data.</param>
/// <param name="CodeSize">"Total bytes of code".</param>
/// <param name="Lines">Labels and instructions, comments removed, hex normalized.</param>
public sealed partial record AsmListing(string Method, string Tier, bool UsesPgo, int CodeSize, IReadOnlyList<string> Lines)
{
    /// <summary>Instructions only (no labels, no alignment padding).</summary>
    public IEnumerable<string> Instructions => Lines.Where(l => !l.EndsWith(':') && !l.StartsWith("align", StringComparison.Ordinal));

    /// <summary>Runtime helpers called, e.g. CORINFO_HELP_NEWSFAST, in order.</summary>
    public IReadOnlyList<string> Helpers => Instructions.Select(l => HelperName().Match(l)).Where(m => m.Success).Select(m => m.Value).ToArray();

    /// <summary>
    /// Bounds checks left in the code: the branches into a block that calls the range-check failure
    /// helper (the JIT shares one such block between many checks), or the call itself when none jumps to it.
    /// </summary>
    public int BoundsChecks
    {
        get
        {
            var checks = 0;
            string? label = null;
            foreach (var line in Lines)
            {
                if (line.EndsWith(':'))
                {
                    label = line[..^1];
                }
                else if (line.StartsWith("call", StringComparison.Ordinal) && line.Contains("CORINFO_HELP_RNGCHKFAIL", StringComparison.Ordinal))
                {
                    var jumps = label is null ? 0 : Lines.Count(l => l.StartsWith('j') && JumpTarget().Match(l) is { Success: true } m && m.Groups[1].Value == label);
                    checks += Math.Max(1, jumps);
                }
            }

            return checks;
        }
    }

    /// <summary>Calls to allocation helpers (objects, arrays, boxes).</summary>
    public int Allocations => Helpers.Count(h => h.StartsWith("CORINFO_HELP_NEW", StringComparison.Ordinal) || h.StartsWith("CORINFO_HELP_BOX", StringComparison.Ordinal));

    /// <summary>GC write barriers.</summary>
    public int WriteBarriers => Helpers.Count(h => h.Contains("ASSIGN_REF", StringComparison.Ordinal) || h.Contains("ASSIGN_BYREF", StringComparison.Ordinal) || h.Contains("BULK_WRITEBARRIER", StringComparison.Ordinal));

    /// <summary>Call instructions of any kind.</summary>
    public int Calls => Instructions.Count(l => l.StartsWith("call", StringComparison.Ordinal));

    /// <summary>
    /// Loops: back edges, i.e. jumps to an earlier label whose block does not return (a jump back to a
    /// shared epilog is not a loop).
    /// </summary>
    public int Loops
    {
        get
        {
            var blocks = new Dictionary<string, bool>(StringComparer.Ordinal);
            string? current = null;
            foreach (var line in Lines)
            {
                if (line.EndsWith(':'))
                {
                    current = line[..^1];
                    blocks[current] = false;
                }
                else if (current is not null && line.StartsWith("ret", StringComparison.Ordinal))
                {
                    blocks[current] = true;
                }
            }

            var seen = new HashSet<string>(StringComparer.Ordinal);
            var loops = 0;
            foreach (var line in Lines)
            {
                if (line.EndsWith(':'))
                {
                    seen.Add(line[..^1]);
                }
                else if (line.StartsWith('j') && JumpTarget().Match(line) is { Success: true } target
                    && seen.Contains(target.Groups[1].Value) && !blocks[target.Groups[1].Value])
                {
                    loops++;
                }
            }

            return loops;
        }
    }

    /// <summary>Optimized code: Tier1, OSR or FullOpts.</summary>
    public bool IsOptimized => Tier.StartsWith("Tier1", StringComparison.Ordinal) || Tier == "FullOpts";

    /// <summary>The whole listing as text.</summary>
    public override string ToString() => $"; {Method} ({Tier}{(UsesPgo ? ", PGO" : "")}), {CodeSize} bytes\n" + string.Join("\n", Lines.Select(l => l.EndsWith(':') ? l : "       " + l));

    /// <summary>Every listing in a JIT output file, in the order written.</summary>
    /// <param name="text">What DOTNET_JitStdOutFile received.</param>
    public static IReadOnlyList<AsmListing> ParseAll(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var listings = new List<AsmListing>();
        string? method = null, tier = null;
        var pgo = false;
        var lines = new List<string>();
        foreach (var raw in text.ReplaceLineEndings("\n").Split('\n'))
        {
            var line = raw.TrimEnd();
            var header = Header().Match(line);
            if (header.Success)
            {
                (method, tier, pgo) = (header.Groups["method"].Value, header.Groups["tier"].Value, false);
                lines = [];
                continue;
            }

            if (method is null)
            {
                continue;
            }

            var total = Total().Match(line);
            if (total.Success)
            {
                listings.Add(new AsmListing(method, tier!, pgo, int.Parse(total.Groups[1].Value, CultureInfo.InvariantCulture), lines));
                method = null;
                continue;
            }

            if (line.StartsWith(';'))
            {
                pgo |= line.Contains("Dynamic PGO", StringComparison.Ordinal);
                continue;
            }

            var code = StripComment(line).Trim();
            if (code.Length > 0)
            {
                lines.Add(NormalizeHex(Columns(code)));
            }
        }

        return listings;
    }

    /// <summary>"20H" and "0FFH" (.NET 8) become "0x20" and "0xFF" (.NET 9+).</summary>
    /// <param name="line">An instruction.</param>
    public static string NormalizeHex(string line) =>
        HexSuffix().Replace(line, m =>
        {
            var digits = m.Groups[1].Value.TrimStart('0').ToUpperInvariant();
            return "0x" + digits.PadLeft(Math.Max(2, digits.Length + (digits.Length % 2)), '0');
        });

    // "mov      rax, rcx" with the mnemonic padded as the JIT does, whatever spacing came in.
    private static string Columns(string code)
    {
        var parts = CollapseSpaces().Replace(code, " ").Split(' ', 2);
        return parts.Length == 1 || code.EndsWith(':') ? parts[0] + (parts.Length == 2 ? " " + parts[1] : "") : parts[0].PadRight(8) + " " + parts[1];
    }

    private static string StripComment(string line)
    {
        var at = line.IndexOf(";;", StringComparison.Ordinal);
        if (at < 0)
        {
            at = line.IndexOf(';', StringComparison.Ordinal);
        }

        return at < 0 ? line : line[..at];
    }

    [GeneratedRegex(@"^; Assembly listing for method (?<method>.+) \((?<tier>[^()]+)\)$")]
    private static partial Regex Header();

    [GeneratedRegex(@"^; Total bytes of code:? (\d+)")]
    private static partial Regex Total();

    [GeneratedRegex(@"CORINFO_HELP_\w+")]
    private static partial Regex HelperName();

    [GeneratedRegex(@"\b(?:SHORT |NEAR )?(G_M\d+_IG\d+)\s*$")]
    private static partial Regex JumpTarget();

    [GeneratedRegex(@"\b([0-9][0-9A-Fa-f]*)H\b")]
    private static partial Regex HexSuffix();

    [GeneratedRegex(@"\s+")]
    private static partial Regex CollapseSpaces();
}
