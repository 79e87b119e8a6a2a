using System.Net;
using System.Net.NetworkInformation;
using System.Net.Sockets;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using PerfLab.Course.Views;
using PerfLab.Room;

namespace PerfLab.Course.Room;

/// <summary>How much a room takes.</summary>
/// <param name="PostBytes">The largest post.</param>
/// <param name="LaptopBytes">The most one laptop's posts may take in all.</param>
public sealed record RoomLimits(int PostBytes = RoomLimits.DefaultPostBytes, long LaptopBytes = RoomLimits.DefaultLaptopBytes)
{
    /// <summary>256 KB: a quick run of a dozen cases on three runtimes takes about 30.</summary>
    public const int DefaultPostBytes = 256 * 1024;

    /// <summary>8 MB: a few hundred posts.</summary>
    public const long DefaultLaptopBytes = 8L * 1024 * 1024;
}

/// <summary>
/// A workshop room's HTTP server (ASP.NET Core's Kestrel, from the shared framework the SDK ships): laptops post their
/// runs to <c>POST /api/results</c> with the room's code (Authorization: Bearer CODE, or X-PerfLab-Room-Code), each
/// checked (<see cref="RoomIntake"/>) and stored (<see cref="RoomLedger"/>) before it is acknowledged; every refusal is
/// one status and one <see cref="RoomRefusal"/>. <c>GET /api/room</c> with the code says the code is right. The page
/// (<see cref="RoomPage"/>) is GET /, drawn from GET /api/summary and live through GET /api/events; it needs no code
/// (it changes nothing, and the instructor projects it).
/// </summary>
public sealed class RoomServer : IAsyncDisposable
{
    private readonly WebApplication _app;

    private RoomServer(WebApplication app, int port, IReadOnlyList<string> addresses)
    {
        _app = app;
        Port = port;
        Addresses = addresses;
    }

    /// <summary>The port it listens on (every interface).</summary>
    public int Port { get; }

    /// <summary>The addresses a laptop joins with: in a codespace, first its forwarded address (<see cref="CodespaceAddress"/>); then http://IP:PORT for each of this machine's network addresses (IPv4 first), the loopback when it has none.</summary>
    public IReadOnlyList<string> Addresses { get; }

    /// <summary>Starts serving <paramref name="ledger"/>'s room.</summary>
    /// <param name="ledger">The room's folder, opened.</param>
    /// <param name="intake">What the room takes.</param>
    /// <param name="limits">How much.</param>
    /// <param name="port">The port; 0 takes a free one.</param>
    /// <param name="cancellationToken">Stops the start.</param>
    /// <param name="lines">The reference machines' and the posts' ratios the page draws across each cell's charts; null: none.</param>
    /// <exception cref="PerfLabException">The port is taken or cannot be used.</exception>
    public static async Task<RoomServer> StartAsync(RoomLedger ledger, RoomIntake intake, RoomLimits limits, int port, CancellationToken cancellationToken, RoomLines? lines = null)
    {
        ArgumentNullException.ThrowIfNull(ledger);
        ArgumentNullException.ThrowIfNull(intake);
        ArgumentNullException.ThrowIfNull(limits);
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { ContentRootPath = ledger.Folder });
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.ListenAnyIP(port);
            kestrel.AddServerHeader = false;
            // The room reads at most one byte past its own limit and answers itself; Kestrel's own limit is the backstop.
            kestrel.Limits.MaxRequestBodySize = limits.PostBytes * 2L;
        });
        var app = builder.Build();
        app.MapPost(RoomPost.ResultsPath, (HttpContext context) => PostAsync(context, ledger, intake, limits));
        app.MapGet(RoomPost.RoomPath, (HttpContext context) => RoomAsync(context, ledger));
        var stopping = app.Lifetime.ApplicationStopping;
        app.MapGet("/", (HttpContext context) => PageAsync(context, RoomPage.Html, "text/html; charset=utf-8"));
        app.MapGet(RoomPage.ScriptPath, (HttpContext context) => PageAsync(context, RoomPage.Script, "text/javascript; charset=utf-8"));
        app.MapGet(RoomPage.PlotlyPath, (HttpContext context) => PageAsync(context, Plotly.Value, "text/javascript; charset=utf-8"));
        app.MapGet("/api/summary", (HttpContext context) => context.Response.WriteAsJsonAsync(RoomSummary.Of(ledger.Posts, lines), JsonFormats.WebIndented, context.RequestAborted));
        app.MapGet("/api/events", (HttpContext context) => EventsAsync(context, ledger, stopping));
        try
        {
            await app.StartAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (IOException ex)
        {
            await app.DisposeAsync().ConfigureAwait(false);
            throw new PerfLabException($"Cannot listen on port {port}: {ex.Message}", "Choose another with --port, or stop the program that holds it.", inner: ex);
        }

        var bound = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses
            .Select(a => new Uri(a.Replace("[::]", "localhost", StringComparison.Ordinal).Replace("0.0.0.0", "localhost", StringComparison.Ordinal)).Port)
            .First();
        return new RoomServer(app, bound, JoinAddresses(bound));
    }

    /// <summary>Serves until <paramref name="cancellationToken"/> is cancelled (Ctrl+C), then stops.</summary>
    /// <param name="cancellationToken">Stops the server.</param>
    public async Task RunUntilAsync(CancellationToken cancellationToken)
    {
        try
        {
            await Task.Delay(Timeout.Infinite, cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
        }

        await _app.StopAsync(CancellationToken.None).ConfigureAwait(false);
    }

    /// <inheritdoc />
    public ValueTask DisposeAsync() => _app.DisposeAsync();

    private static async Task PostAsync(HttpContext context, RoomLedger ledger, RoomIntake intake, RoomLimits limits)
    {
        if (!Authorized(context, ledger, out var refusal))
        {
            await AnswerAsync(context, 401, refusal!).ConfigureAwait(false);
            return;
        }

        if (context.Request.ContentLength is { } declared && declared > limits.PostBytes)
        {
            await AnswerAsync(context, 413, TooLarge(declared, limits)).ConfigureAwait(false);
            return;
        }

        // Read up to one byte past the limit: a body without a length is measured as it comes.
        var body = new MemoryStream();
        var buffer = new byte[16 * 1024];
        int read;
        while ((read = await context.Request.Body.ReadAsync(buffer, context.RequestAborted).ConfigureAwait(false)) > 0)
        {
            body.Write(buffer, 0, read);
            if (body.Length > limits.PostBytes)
            {
                await AnswerAsync(context, 413, TooLarge(null, limits)).ConfigureAwait(false);
                return;
            }
        }

        var (post, status, problem) = intake.Read(body.GetBuffer().AsSpan(0, (int)body.Length));
        if (post is null)
        {
            await AnswerAsync(context, status, problem!).ConfigureAwait(false);
            return;
        }

        var admission = await ledger.AppendAsync(post, limits.LaptopBytes, context.RequestAborted).ConfigureAwait(false);
        switch (admission.Kind)
        {
            case AdmissionKind.NicknameTaken:
                await AnswerAsync(context, 409, new RoomRefusal(
                    $"Another laptop in this room is called '{post.Nickname}'.",
                    "Join again under another name: `perflab room join ADDRESS --code CODE --name NICKNAME`.")).ConfigureAwait(false);
                return;
            case AdmissionKind.OverLaptopLimit:
                await AnswerAsync(context, 413, new RoomRefusal(
                    $"This laptop's results already take {Kilobytes(admission.LaptopBytes)} of the {Kilobytes(limits.LaptopBytes)} the room keeps per laptop.",
                    "Ask the instructor: the room can be served again with a larger --laptop-limit.")).ConfigureAwait(false);
                return;
            default:
                context.Response.StatusCode = admission.Kind == AdmissionKind.Stored ? 201 : 200;
                await context.Response.WriteAsJsonAsync(new { stored = post.Id, duplicate = admission.Kind == AdmissionKind.Duplicate }, JsonFormats.Answer, context.RequestAborted).ConfigureAwait(false);
                return;
        }
    }

    // The course's one copy of plotly.js, read once.
    private static readonly Lazy<string> Plotly = new(PerfLab.Views.Html.PlotlyAsset.File);

    private static Task PageAsync(HttpContext context, string text, string contentType)
    {
        context.Response.ContentType = contentType;
        context.Response.Headers.ContentSecurityPolicy = RoomPage.ContentSecurityPolicy;
        context.Response.Headers.XContentTypeOptions = "nosniff";
        context.Response.Headers.CacheControl = "no-cache";
        return context.Response.WriteAsync(text, context.RequestAborted);
    }

    // Server-sent events: one "stored" message per post the room stores (coalesced while the page is behind), and a
    // comment every 15 s so a proxy (a forwarded port) keeps the connection; it ends when the page goes or the room stops.
    private static async Task EventsAsync(HttpContext context, RoomLedger ledger, CancellationToken stopping)
    {
        context.Response.ContentType = "text/event-stream";
        context.Response.Headers.CacheControl = "no-cache";
        var stored = System.Threading.Channels.Channel.CreateBounded<bool>(new System.Threading.Channels.BoundedChannelOptions(1) { FullMode = System.Threading.Channels.BoundedChannelFullMode.DropOldest });
        void OnStored(RoomPost post) => stored.Writer.TryWrite(true);
        ledger.Stored += OnStored;
        using var ends = CancellationTokenSource.CreateLinkedTokenSource(context.RequestAborted, stopping);
        try
        {
            await context.Response.WriteAsync(": the room's events\n\n", ends.Token).ConfigureAwait(false);
            await context.Response.Body.FlushAsync(ends.Token).ConfigureAwait(false);
            while (!ends.IsCancellationRequested)
            {
                using var beat = CancellationTokenSource.CreateLinkedTokenSource(ends.Token);
                beat.CancelAfter(TimeSpan.FromSeconds(15));
                string message;
                try
                {
                    await stored.Reader.ReadAsync(beat.Token).ConfigureAwait(false);
                    message = "data: stored\n\n";
                }
                catch (OperationCanceledException) when (!ends.IsCancellationRequested)
                {
                    message = ": still here\n\n";
                }

                await context.Response.WriteAsync(message, ends.Token).ConfigureAwait(false);
                await context.Response.Body.FlushAsync(ends.Token).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException)
        {
        }
        finally
        {
            ledger.Stored -= OnStored;
        }
    }

    private static async Task RoomAsync(HttpContext context, RoomLedger ledger)
    {
        if (!Authorized(context, ledger, out var refusal))
        {
            await AnswerAsync(context, 401, refusal!).ConfigureAwait(false);
            return;
        }

        var posts = ledger.Posts;
        await context.Response.WriteAsJsonAsync(new { laptops = posts.Select(p => p.Laptop).Distinct().Count(), posts = posts.Count }, JsonFormats.Answer, context.RequestAborted).ConfigureAwait(false);
    }

    // The code from Authorization: Bearer CODE, else X-PerfLab-Room-Code; compared in constant time (RoomCode.Matches).
    private static bool Authorized(HttpContext context, RoomLedger ledger, out RoomRefusal? refusal)
    {
        string? given = null;
        var authorization = context.Request.Headers.Authorization.ToString();
        if (authorization.StartsWith("Bearer ", StringComparison.OrdinalIgnoreCase))
        {
            given = authorization["Bearer ".Length..].Trim();
        }
        else if (context.Request.Headers.TryGetValue(RoomPost.CodeHeader, out var header))
        {
            given = header.ToString();
        }

        refusal = given is null
            ? new RoomRefusal("The request carries no room code.", "Join with `perflab room join ADDRESS --code CODE`, the code the instructor's screen shows.")
            : RoomCode.Matches(given, ledger.Code) ? null
            : new RoomRefusal("The room code is wrong.", "Check the code on the instructor's screen and join again: `perflab room join ADDRESS --code CODE`.");
        return refusal is null;
    }

    private static RoomRefusal TooLarge(long? bytes, RoomLimits limits) => new(
        $"The post is {(bytes is { } b ? Kilobytes(b) : "larger than " + Kilobytes(limits.PostBytes))}; the room takes at most {Kilobytes(limits.PostBytes)} per post.",
        "Run fewer cases at a time (--filter), or ask the instructor to serve the room with a larger --post-limit.");

    private static string Kilobytes(long bytes) => string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{bytes / 1024.0:0.#} KB");

    private static Task AnswerAsync(HttpContext context, int status, RoomRefusal refusal)
    {
        context.Response.StatusCode = status;
        return context.Response.WriteAsJsonAsync(refusal, JsonFormats.Answer, context.RequestAborted);
    }

    // Every up interface's unicast addresses, IPv4 first, loopback last (only when nothing else).
    private static IReadOnlyList<string> JoinAddresses(int port)
    {
        var found = NetworkInterface.GetAllNetworkInterfaces()
            .Where(n => n.OperationalStatus == OperationalStatus.Up && n.NetworkInterfaceType != NetworkInterfaceType.Loopback)
            .SelectMany(n => n.GetIPProperties().UnicastAddresses.Select(u => u.Address))
            .Where(a => a.AddressFamily == AddressFamily.InterNetwork || (a.AddressFamily == AddressFamily.InterNetworkV6 && !a.IsIPv6LinkLocal))
            .OrderBy(a => a.AddressFamily == AddressFamily.InterNetwork ? 0 : 1)
            .Select(a => $"http://{(a.AddressFamily == AddressFamily.InterNetworkV6 ? $"[{a}]" : a.ToString())}:{port}")
            .Distinct()
            .ToList();
        var addresses = found.Count > 0 ? found : [$"http://{IPAddress.Loopback}:{port}"];
        return CodespaceAddress(port) is { } forwarded ? [forwarded, .. addresses] : addresses;
    }

    /// <summary>
    /// In a GitHub codespace, the address GitHub forwards <paramref name="port"/> to, https://NAME-PORT.DOMAIN, from the
    /// variables every codespace sets (CODESPACES, CODESPACE_NAME, GITHUB_CODESPACES_PORT_FORWARDING_DOMAIN); null
    /// elsewhere. Laptops outside the codespace reach it once the port's visibility is Public.
    /// </summary>
    /// <param name="port">The port the room listens on.</param>
    public static string? CodespaceAddress(int port) =>
        Environment.GetEnvironmentVariable("CODESPACES") == "true"
        && Environment.GetEnvironmentVariable("CODESPACE_NAME") is { Length: > 0 } name
        && Environment.GetEnvironmentVariable("GITHUB_CODESPACES_PORT_FORWARDING_DOMAIN") is { Length: > 0 } domain
            ? $"https://{name}-{port}.{domain}"
            : null;
}
