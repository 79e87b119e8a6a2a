using System.Security.Cryptography;
using System.Text;

namespace PerfLab.Course.Room;

/// <summary>
/// A room's code: 10 characters of Crockford's base 32 (50 random bits from <see cref="RandomNumberGenerator"/>), shown
/// as two groups of five, typed in any case, with or without the dash. The one place a code is made and compared.
/// </summary>
public static class RoomCode
{
    /// <summary>The characters a code is made of: no I, L, O or U, so nothing reads as another.</summary>
    public const string Alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

    /// <summary>Characters in a code.</summary>
    public const int Length = 10;

    /// <summary>Random bits in a code: 5 per character.</summary>
    public const int Bits = Length * 5;

    /// <summary>A new code, e.g. K7Q2M-9XW3F.</summary>
    public static string New()
    {
        var code = new StringBuilder(Length + 1);
        for (var i = 0; i < Length; i++)
        {
            code.Append(Alphabet[RandomNumberGenerator.GetInt32(Alphabet.Length)]);
            if (i == Length / 2 - 1)
            {
                code.Append('-');
            }
        }

        return code.ToString();
    }

    /// <summary>The code as compared: upper case, without dashes and spaces.</summary>
    /// <param name="code">As typed.</param>
    public static string Normalize(string code)
    {
        ArgumentNullException.ThrowIfNull(code);
        return new string(code.Where(c => c is not ('-' or ' ')).Select(char.ToUpperInvariant).ToArray());
    }

    /// <summary>
    /// Whether <paramref name="given"/> is the room's code <paramref name="expected"/>, in time that does not depend on
    /// how many characters match (<see cref="CryptographicOperations.FixedTimeEquals"/>), so a laptop cannot guess a
    /// code a character at a time from how long the answer takes. Both sides are hashed first, so the length of a guess
    /// tells nothing either.
    /// </summary>
    /// <param name="given">What a laptop sent; null when it sent none.</param>
    /// <param name="expected">The room's code.</param>
    public static bool Matches(string? given, string expected)
    {
        ArgumentNullException.ThrowIfNull(expected);
        var left = SHA256.HashData(Encoding.UTF8.GetBytes(Normalize(given ?? "")));
        var right = SHA256.HashData(Encoding.UTF8.GetBytes(Normalize(expected)));
        return CryptographicOperations.FixedTimeEquals(left, right) && given is not null;
    }
}
