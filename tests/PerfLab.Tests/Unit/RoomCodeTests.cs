using System.Text.RegularExpressions;
using PerfLab.Course.Room;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>A room's code: at least 40 random bits, typed loosely, compared in constant time and only in one place.</summary>
public partial class RoomCodeTests
{
    [Fact]
    public void A_code_has_at_least_40_random_bits_in_two_groups_of_five()
    {
        var codes = Enumerable.Range(0, 200).Select(_ => RoomCode.New()).ToArray();

        Assert.True(RoomCode.Bits >= 40);
        Assert.Equal(RoomCode.Bits, Math.Log2(RoomCode.Alphabet.Length) * RoomCode.Length);
        Assert.All(codes, c => Assert.Matches(CodeShape(), c));
        Assert.Equal(codes.Length, codes.Distinct().Count());
    }

    [Fact]
    public void The_code_matches_in_any_case_with_or_without_its_dash_and_nothing_else()
    {
        const string code = "K7Q2M-9XW3F";

        Assert.True(RoomCode.Matches("K7Q2M-9XW3F", code));
        Assert.True(RoomCode.Matches("k7q2m9xw3f", code));
        Assert.True(RoomCode.Matches(" k7q2m 9xw3f", code));
        Assert.False(RoomCode.Matches("K7Q2M-9XW3G", code));
        Assert.False(RoomCode.Matches("K7Q2M", code));
        Assert.False(RoomCode.Matches("", code));
        Assert.False(RoomCode.Matches(null, code));
    }

    [Fact]
    public void Codes_are_compared_in_constant_time_and_only_by_RoomCode_Matches()
    {
        var matches = File.ReadAllText(RepoFiles.Path("helpers/PerfLab.Course/Room/RoomCode.cs"));
        var body = matches[matches.IndexOf("public static bool Matches", StringComparison.Ordinal)..];
        body = body[..body.IndexOf("\n    }", StringComparison.Ordinal)];

        Assert.Contains("CryptographicOperations.FixedTimeEquals(", body, StringComparison.Ordinal);
        Assert.DoesNotContain("==", body.Replace("is not null", "", StringComparison.Ordinal), StringComparison.Ordinal);
        Assert.DoesNotContain(".Equals(", body, StringComparison.Ordinal);
        // Everywhere else in the room's code, the code is only ever handed to RoomCode.Matches.
        foreach (var file in Directory.GetFiles(RepoFiles.Path("helpers/PerfLab.Course/Room"), "*.cs").Where(f => !f.EndsWith("RoomCode.cs", StringComparison.Ordinal)))
        {
            var text = File.ReadAllText(file);
            Assert.DoesNotMatch(CodeCompared(), text);
        }
    }

    [GeneratedRegex("^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$")]
    private static partial Regex CodeShape();

    // ".Code ==", "== ledger.Code", "Code.Equals(", "Equals(...Code": any comparison of a code but RoomCode.Matches.
    [GeneratedRegex(@"Code\s*[!=]=|[!=]=\s*\w+\.Code\b|Code\.Equals\(|Equals\([^)]*\.Code\b|SequenceEqual\(")]
    private static partial Regex CodeCompared();
}
