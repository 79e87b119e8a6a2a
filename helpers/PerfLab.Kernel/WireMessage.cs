using System.Security.Cryptography;
using System.Text;
using System.Text.Json.Nodes;
using NetMQ;

namespace PerfLab.Kernel;

/// <summary>
/// One Jupyter message as it travels over ZeroMQ: routing identities, the "&lt;IDS|MSG&gt;" delimiter,
/// an HMAC-SHA256 signature, then header, parent header, metadata and content as JSON frames.
/// </summary>
internal sealed record WireMessage(IReadOnlyList<byte[]> Identities, JsonObject Header, JsonObject ParentHeader, JsonObject Metadata, JsonObject Content)
{
    private const string Delimiter = "<IDS|MSG>";
    public const string ProtocolVersion = "5.3";

    public string Type => (string?)Header["msg_type"] ?? "";

    /// <summary>Parses received frames; null when the signature does not match or a frame is missing.</summary>
    public static WireMessage? Parse(NetMQMessage frames, byte[] key)
    {
        var identities = new List<byte[]>();
        var index = 0;
        for (; index < frames.FrameCount; index++)
        {
            var frame = frames[index];
            if (frame.ConvertToString(Encoding.UTF8) == Delimiter)
            {
                break;
            }

            identities.Add(frame.ToByteArray());
        }

        if (frames.FrameCount < index + 6)
        {
            return null;
        }

        var signature = frames[index + 1].ConvertToString(Encoding.ASCII);
        var parts = Enumerable.Range(index + 2, 4).Select(i => frames[i].ToByteArray()).ToArray();
        if (key.Length > 0 && !CryptographicOperations.FixedTimeEquals(Encoding.ASCII.GetBytes(Sign(key, parts)), Encoding.ASCII.GetBytes(signature)))
        {
            return null;
        }

        static JsonObject Json(byte[] bytes) => bytes.Length == 0 ? [] : JsonNode.Parse(bytes) as JsonObject ?? [];
        return new WireMessage(identities, Json(parts[0]), Json(parts[1]), Json(parts[2]), Json(parts[3]));
    }

    /// <summary>A new message of <paramref name="type"/> in reply to (or caused by) <paramref name="parent"/>.</summary>
    public static WireMessage Create(string type, JsonObject content, WireMessage? parent, string session, IReadOnlyList<byte[]>? identities = null) => new(
        identities ?? parent?.Identities ?? [],
        new JsonObject
        {
            ["msg_id"] = Guid.NewGuid().ToString("N"),
            ["session"] = session,
            ["username"] = "perflab",
            ["date"] = DateTimeOffset.UtcNow.ToString("o", System.Globalization.CultureInfo.InvariantCulture),
            ["msg_type"] = type,
            ["version"] = ProtocolVersion,
        },
        parent?.Header.DeepClone() as JsonObject ?? [],
        [],
        content);

    /// <summary>The frames to send, signed with <paramref name="key"/>.</summary>
    public NetMQMessage ToFrames(byte[] key)
    {
        var parts = new[] { Header, ParentHeader, Metadata, Content }.Select(j => Encoding.UTF8.GetBytes(j.ToJsonString())).ToArray();
        var message = new NetMQMessage();
        foreach (var identity in Identities)
        {
            message.Append(identity);
        }

        message.Append(Delimiter);
        message.Append(key.Length == 0 ? "" : Sign(key, parts));
        foreach (var part in parts)
        {
            message.Append(part);
        }

        return message;
    }

    private static string Sign(byte[] key, byte[][] parts)
    {
        using var hmac = new HMACSHA256(key);
        foreach (var part in parts)
        {
            hmac.TransformBlock(part, 0, part.Length, null, 0);
        }

        hmac.TransformFinalBlock([], 0, 0);
        return Convert.ToHexStringLower(hmac.Hash!);
    }
}
