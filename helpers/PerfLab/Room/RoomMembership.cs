namespace PerfLab.Room;

/// <summary>The room a laptop is in.</summary>
/// <param name="Address">http://HOST:PORT.</param>
/// <param name="Code">The room's code, as typed.</param>
/// <param name="Nickname">The name the room shows for this laptop.</param>
public sealed record RoomMembership(string Address, string Code, string Nickname)
{
    /// <summary>A membership from what a participant types: the address made http://HOST:PORT, the code checked for shape, the nickname checked.</summary>
    internal static RoomMembership Parse(string address, string code, string nickname)
    {
        ArgumentNullException.ThrowIfNull(address);
        ArgumentNullException.ThrowIfNull(code);
        var text = address.Trim().TrimEnd('/');
        if (!text.Contains("://", StringComparison.Ordinal))
        {
            text = "http://" + text;
        }

        if (!Uri.TryCreate(text, UriKind.Absolute, out var uri) || uri.Scheme is not ("http" or "https") || uri.AbsolutePath != "/" || uri.Query.Length > 0)
        {
            throw new PerfLabException($"'{address}' is not a room's address.", "Type the address the instructor's screen shows, e.g. http://192.168.1.20:5050.");
        }

        if (string.IsNullOrWhiteSpace(code) || code.Length > 64 || code.Any(c => char.IsControl(c) || c == ','))
        {
            throw new PerfLabException($"'{code}' is not a room code.", "Type the code the instructor's screen shows, e.g. --code K7Q2M-9XW3F.");
        }

        if (RoomPost.NicknameProblem(nickname) is { } problem)
        {
            throw new PerfLabException($"'{nickname}' cannot be a nickname: {problem}.", "Choose another with --name, e.g. --name ana.");
        }

        return new RoomMembership(uri.GetLeftPart(UriPartial.Authority), code.Trim(), nickname);
    }
}
