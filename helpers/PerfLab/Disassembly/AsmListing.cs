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
    /// Loops: natural loops of the code's control-flow graph, counted by their headers (a block the
    /// back edge's source cannot be reached without). Jumping backwards in the layout is not enough:
    /// a cold block jumping back to rejoin the method is no loop, and a rotated loop's back edge can
    /// be a fall-through.
    /// </summary>
    public int Loops
    {
        get
        {
            var blocks = Blocks();
            var successors = blocks.Select((block, i) => Successors(blocks, i)).ToArray();
            var dominators = Dominators(blocks.Count, successors);
            var headers = new HashSet<int>();
            for (var from = 0; from < blocks.Count; from++)
            {
                if (dominators[from] is null)
                {
                    continue; // unreachable
                }

                foreach (var to in successors[from].Where(t => dominators[from]!.Contains(t)))
                {
                    headers.Add(to);
                }
            }

            return headers.Count;
        }
    }

    // Basic blocks: the code before the first label, then one per label, as (label, instructions).
    private List<(string? Label, List<string> Code)> Blocks()
    {
        var blocks = new List<(string? Label, List<string> Code)> { (null, []) };
        foreach (var line in Lines)
        {
            if (line.EndsWith(':'))
            {
                blocks.Add((line[..^1], []));
            }
            else
            {
                blocks[^1].Code.Add(line);
            }
        }

        return blocks;
    }

    private static List<int> Successors(List<(string? Label, List<string> Code)> blocks, int index)
    {
        var next = new List<int>();
        foreach (var line in blocks[index].Code.Where(l => l.StartsWith('j')))
        {
            if (JumpTarget().Match(line) is { Success: true } target && blocks.FindIndex(b => b.Label == target.Groups[1].Value) is >= 0 and var to)
            {
                next.Add(to);
            }
        }

        // Falls through unless its last instruction leaves: ret, an unconditional jump, or int3 after a throwing helper.
        var last = blocks[index].Code.LastOrDefault(l => !l.StartsWith("align", StringComparison.Ordinal));
        var leaves = last is not null && (last.StartsWith("ret", StringComparison.Ordinal) || last.StartsWith("jmp", StringComparison.Ordinal) || last.StartsWith("int3", StringComparison.Ordinal));
        if (!leaves && index + 1 < blocks.Count)
        {
            next.Add(index + 1);
        }

        return next;
    }

    // Dominator sets (iterative data-flow from block 0); null for blocks the entry never reaches.
    private static HashSet<int>?[] Dominators(int count, List<int>[] successors)
    {
        var predecessors = Enumerable.Range(0, count).Select(_ => new List<int>()).ToArray();
        for (var from = 0; from < count; from++)
        {
            foreach (var to in successors[from])
            {
                predecessors[to].Add(from);
            }
        }

        var reachable = new HashSet<int> { 0 };
        var pending = new Stack<int>([0]);
        while (pending.TryPop(out var block))
        {
            foreach (var to in successors[block].Where(reachable.Add))
            {
                pending.Push(to);
            }
        }

        var dominators = new HashSet<int>?[count];
        for (var i = 0; i < count; i++)
        {
            dominators[i] = !reachable.Contains(i) ? null : i == 0 ? [0] : [.. reachable];
        }

        for (var changed = true; changed;)
        {
            changed = false;
            for (var i = 1; i < count; i++)
            {
                if (dominators[i] is null)
                {
                    continue;
                }

                var meet = new HashSet<int>(reachable);
                foreach (var from in predecessors[i].Where(p => dominators[p] is not null))
                {
                    meet.IntersectWith(dominators[from]!);
                }

                meet.Add(i);
                if (!meet.SetEquals(dominators[i]!))
                {
                    dominators[i] = meet;
                    changed = true;
                }
            }
        }

        return dominators;
    }

    /// <summary>
    /// The method's name for matching it across runtimes. The JITs disagree on small types: .NET 9 prints a
    /// bool as "ubyte" (IsDog():ubyte:this), .NET 8 and 9 print a byte as "ubyte" (Vector128`1[ubyte]) and a
    /// char as "ushort" (HexLower(ushort)), where .NET 10 prints "bool", "byte" and "char". The key folds
    /// each family into one spelling; <see cref="PrintsCSharpNames"/> tells which name to show.
    /// </summary>
    public string SameMethodKey => SmallType().Replace(Method, m => m.Value is "bool" or "byte" or "ubyte" ? "ubyte" : "ushort");

    /// <summary>The name uses C#'s spelling of its small types (no "ubyte" or "ushort" a newer JIT would print otherwise).</summary>
    public bool PrintsCSharpNames => !SmallType().Matches(Method).Any(m => m.Value is "ubyte" or "ushort");

    /// <summary>
    /// Optimized code: Tier1, OSR or FullOpts, including Tier0-FullOpts: asked for Tier0, the JIT optimized at once,
    /// as it does for a method with a loop that on-stack replacement could not leave later (one with a stackalloc),
    /// and that code is the method's last.
    /// </summary>
    public bool IsOptimized => Tier.StartsWith("Tier1", StringComparison.Ordinal) || Tier.EndsWith("FullOpts", StringComparison.Ordinal);

    /// <summary>
    /// What makes this listing unfit to show, or null: a line that is no label, instruction or data where
    /// instructions belong (another listing's header text spliced in when the JIT's output interleaved), or,
    /// where the steady state was asked for, Tier0 code (captured before tiering reached Tier1).
    /// </summary>
    /// <param name="steadyState">Whether the listing stands for the steady state (default, NoPgo and FullOpts variants).</param>
    internal string? Problem(bool steadyState)
    {
        if (Lines.FirstOrDefault(l => !CodeLine().IsMatch(l) || HeaderWords().IsMatch(l)) is { } stray)
        {
            return $"'{stray}' where instructions belong";
        }

        // MinOpts is a steady state too (a method too large to optimize, or marked NoOptimization).
        return steadyState && Tier.Contains("Tier0", StringComparison.Ordinal) && !IsOptimized ? $"{Tier} code where the steady state (optimized code) belongs" : null;
    }

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

    [GeneratedRegex(@"\b(bool|byte|ubyte|char|ushort)\b")]
    private static partial Regex SmallType();

    [GeneratedRegex(@"CORINFO_HELP_\w+")]
    private static partial Regex HelperName();

    [GeneratedRegex(@"\b(?:SHORT |NEAR )?(G_M\d+_IG\d+)\s*$")]
    private static partial Regex JumpTarget();

    [GeneratedRegex(@"\b([0-9][0-9A-Fa-f]*)H\b")]
    private static partial Regex HexSuffix();

    [GeneratedRegex(@"\s+")]
    private static partial Regex CollapseSpaces();

    // A label ("G_M1234_IG01:"), an instruction (lower-case mnemonic, "tail.jmp" too) or a data row ("RWD00 dq ...").
    [GeneratedRegex(@"^(?:[A-Za-z_$][\w$.]*:|[a-z][a-z0-9.]*(?: .*)?|RWD\d+ .*)$")]
    private static partial Regex CodeLine();

    // The words of a listing's header and trailer, which no instruction carries.
    [GeneratedRegex(@"Assembly listing|Total bytes|Emitting|\bTier[01]\b|optimized code")]
    private static partial Regex HeaderWords();
}
