using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;

namespace PerfLab.Room;

/// <summary>A laptop's requests to its room: sent with the room's code, and answered within seconds or not at all.</summary>
internal static class RoomConnection
{
    private static readonly HttpClient Http = new(new SocketsHttpHandler { ConnectTimeout = TimeSpan.FromSeconds(3) }) { Timeout = Timeout.InfiniteTimeSpan };
    private static readonly TimeSpan AnswerTimeout = TimeSpan.FromSeconds(10);

    // Sends with the code; a room that cannot be reached, or answers too slowly, is a failure line, never an exception.
    internal static async Task<(int Status, string Body, string? Failure)> SendAsync(HttpRequestMessage request, string code, CancellationToken cancellationToken)
    {
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", code);
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        limit.CancelAfter(AnswerTimeout);
        try
        {
            using var response = await Http.SendAsync(request, limit.Token).ConfigureAwait(false);
            var body = await response.Content.ReadAsStringAsync(limit.Token).ConfigureAwait(false);
            return ((int)response.StatusCode, body, null);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return (0, "", $"no answer within {AnswerTimeout.TotalSeconds:F0} s");
        }
        catch (HttpRequestException ex)
        {
            return (0, "", ex.HttpRequestError switch
            {
                HttpRequestError.ConnectionError => "cannot connect",
                HttpRequestError.NameResolutionError => "unknown host",
                _ => ex.Message,
            });
        }
    }

    // The room's own message ({"error", "fix"}), else the status.
    internal static string Refusal(string body, int status)
    {
        try
        {
            if (JsonSerializer.Deserialize<RoomRefusal>(body, JsonFormats.Answer) is { Error: not null } refusal)
            {
                return refusal.ToString();
            }
        }
        catch (JsonException)
        {
        }

        return $"status {status} ({(HttpStatusCode)status}).";
    }
}
