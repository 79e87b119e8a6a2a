using System.CommandLine;
using PerfLab.Course.Room;

namespace PerfLab.Cli;

/// <summary>`perflab room`: a workshop room's server (serve).</summary>
internal static class RoomCommand
{
    public static Command Create(TextWriter output, TextWriter error)
    {
        return new Command("room", "A workshop room: every laptop's benchmark results, gathered on the instructor's machine.")
        {
            Serve(output, error),
        };
    }

    private static Command Serve(TextWriter output, TextWriter error)
    {
        var port = new Option<int>("--port") { Description = "The port to listen on (every network interface); 0 takes a free one.", DefaultValueFactory = _ => 5050, HelpName = "N" };
        var folder = new Option<string?>("--folder") { Description = "Where the new room keeps what it receives (default: room-DATE-TIME in the current folder).", HelpName = "DIR" };
        var resume = new Option<string?>("--resume") { Description = "Reopen the room kept in FOLDER after a restart: the same code, every result it acknowledged.", HelpName = "FOLDER" };
        var postLimit = new Option<int>("--post-limit") { Description = "The largest post the room takes, in KB.", DefaultValueFactory = _ => RoomLimits.DefaultPostBytes / 1024, HelpName = "KB" };
        var laptopLimit = new Option<int>("--laptop-limit") { Description = "The most one laptop's posts may take in all, in KB.", DefaultValueFactory = _ => (int)(RoomLimits.DefaultLaptopBytes / 1024), HelpName = "KB" };
        var serve = new Command("serve", "Serve a room on this machine: prints the address and code the laptops join with, keeps every result it acknowledges.")
        {
            port, folder, resume, postLimit, laptopLimit,
        };
        serve.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var resumed = parse.GetValue(resume);
            if (resumed is not null && parse.GetValue(folder) is not null)
            {
                throw new PerfLabException("--resume and --folder both name a room's folder.", "Give --resume FOLDER to reopen a room, or --folder DIR for a new one.");
            }

            if (parse.GetValue(port) is < 0 or > 65535 || parse.GetValue(postLimit) < 1 || parse.GetValue(laptopLimit) < 1)
            {
                throw new PerfLabException("--port must be 0 to 65535, and the limits at least 1 KB.", "e.g. --port 5050 --post-limit 256 --laptop-limit 8192.");
            }

            using var ledger = resumed is not null
                ? RoomLedger.Resume(resumed)
                : RoomLedger.Create(parse.GetValue(folder) ?? $"room-{DateTime.Now:yyyyMMdd-HHmmss}");
            var limits = new RoomLimits(parse.GetValue(postLimit) * 1024, parse.GetValue(laptopLimit) * 1024L);
            await using var server = await RoomServer.StartAsync(ledger, RoomIntake.ForCourse(), limits, parse.GetValue(port), cancellationToken).ConfigureAwait(false);
            var posts = ledger.Posts;
            output.WriteLine(resumed is null
                ? $"Room open. Its folder: {ledger.Folder}"
                : $"Room reopened from {ledger.Folder}: {posts.Count} results from {posts.Select(p => p.Laptop).Distinct().Count()} laptops.");
            output.WriteLine($"Code: {ledger.Code}");
            output.WriteLine("Each laptop joins with one of:");
            foreach (var address in server.Addresses)
            {
                output.WriteLine($"  perflab room join {address} --code {ledger.Code} --name NICKNAME");
            }

            output.WriteLine($"Listening on port {server.Port}. Ctrl+C closes the room; `perflab room serve --resume {ledger.Folder}` reopens it.");
            output.Flush();
            await server.RunUntilAsync(cancellationToken).ConfigureAwait(false);
            output.WriteLine("Room closed.");
            return 0;
        }).ConfigureAwait(false));
        return serve;
    }
}
