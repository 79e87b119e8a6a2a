using System.CommandLine;
using PerfLab.Course.Room;
using PerfLab.Room;

namespace PerfLab.Cli;

/// <summary>`perflab room`: a workshop room's server (serve, export) and a laptop's membership (join, leave, status).</summary>
internal static class RoomCommand
{
    public static Command Create(TextWriter output, TextWriter error)
    {
        return new Command("room", "A workshop room: every laptop's benchmark results, gathered on the instructor's machine.")
        {
            Serve(output, error), Join(output, error), Leave(output, error), Status(output, error), Export(output, error),
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
            var (lines, problems) = RoomLines.ForCourse();
            foreach (var problem in problems)
            {
                error.WriteLine("warning: " + problem);
            }

            RoomServer started;
            try
            {
                started = await RoomServer.StartAsync(ledger, RoomIntake.ForCourse(), limits, parse.GetValue(port), cancellationToken, lines).ConfigureAwait(false);
            }
            catch (Exception) when (resumed is null)
            {
                // A new room that never opened leaves no folder behind to trip the next --folder.
                ledger.Discard();
                throw;
            }

            await using var server = started;
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

            if (RoomServer.CodespaceAddress(server.Port) is not null)
            {
                output.WriteLine($"In this codespace, laptops outside it reach the room at the first address once port {server.Port} is public: Ports tab, right-click the port, Port Visibility, Public (or `gh codespace ports visibility {server.Port}:public -c {Environment.GetEnvironmentVariable("CODESPACE_NAME")}`).");
            }

            output.WriteLine($"Listening on port {server.Port}. Ctrl+C closes the room; `perflab room serve --resume {ledger.Folder}` reopens it.");
            output.Flush();
            await server.RunUntilAsync(cancellationToken).ConfigureAwait(false);
            output.WriteLine("Room closed.");
            return 0;
        }).ConfigureAwait(false));
        return serve;
    }

    private static Command Join(TextWriter output, TextWriter error)
    {
        var address = new Argument<string?>("ADDRESS") { Description = $"The room's address, as the instructor's screen shows it (http://HOST:PORT). Without it, {RoomLaptop.Variable}=ADDRESS,CODE[,NICKNAME] is read.", Arity = ArgumentArity.ZeroOrOne };
        var code = new Option<string?>("--code") { Description = "The room's code, as the instructor's screen shows it.", HelpName = "CODE" };
        var name = new Option<string?>("--name") { Description = $"The name the room shows for this laptop (1 to {RoomPost.NicknameLength} characters; default: laptop- and the start of this laptop's random id).", HelpName = "NICKNAME" };
        var join = new Command("join", "Join a room: from now on every benchmark result of this laptop is sent there too, until `perflab room leave`.") { address, code, name };
        join.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var laptop = new RoomLaptop();
            var (given, givenCode, givenName) = (parse.GetValue(address), parse.GetValue(code), parse.GetValue(name));
            if (given is null)
            {
                var fromVariable = laptop.Membership is { } m && Environment.GetEnvironmentVariable(RoomLaptop.Variable) is { Length: > 0 } ? m : null;
                (given, givenCode, givenName) = fromVariable is null
                    ? throw new PerfLabException("No room to join: give its address, or set " + RoomLaptop.Variable + ".", "perflab room join http://HOST:PORT --code CODE --name NICKNAME (as the instructor's screen shows).")
                    : (fromVariable.Address, givenCode ?? fromVariable.Code, givenName ?? fromVariable.Nickname);
            }

            if (givenCode is null)
            {
                throw new PerfLabException("No room code.", "Add --code CODE, the code the instructor's screen shows.");
            }

            var (membership, dropped) = laptop.Join(given, givenCode, givenName);
            var (answered, problem) = await RoomLaptop.CheckAsync(membership, cancellationToken).ConfigureAwait(false);
            if (answered && problem is not null)
            {
                laptop.Leave();
                throw new PerfLabException($"The room at {membership.Address} refused this laptop: {problem}");
            }

            output.WriteLine($"Joined the room at {membership.Address} as {membership.Nickname}.");
            if (dropped > 0)
            {
                output.WriteLine($"{dropped} results queued for the room you were in before were not sent (they stay in this laptop's cache).");
            }

            output.WriteLine(answered
                ? "The room answers. Every benchmark result from now on is sent there; `perflab room leave` stops it."
                : $"The room does not answer now ({problem}); results are kept on this laptop and sent once it does.");
            return 0;
        }).ConfigureAwait(false));
        return join;
    }

    private static Command Leave(TextWriter output, TextWriter error)
    {
        var leave = new Command("leave", "Leave the room: results are no longer sent.");
        leave.SetAction((parse, _) => PerfLabCommand.Guard(error, () =>
        {
            var laptop = new RoomLaptop();
            var (left, dropped) = laptop.Leave();
            output.WriteLine(left is null ? "This laptop had joined no room." : $"Left the room at {left.Address}.");
            if (dropped > 0)
            {
                output.WriteLine($"{dropped} results the room had not received were not sent (they stay in this laptop's cache).");
            }

            if (Environment.GetEnvironmentVariable(RoomLaptop.Variable) is { Length: > 0 })
            {
                output.WriteLine($"{RoomLaptop.Variable} is set, so results still go to its room: unset it to leave that one.");
            }

            return Task.FromResult(0);
        }));
        return leave;
    }

    private static Command Status(TextWriter output, TextWriter error)
    {
        var status = new Command("status", "Which room this laptop is in, whether it answers, and what waits to be sent (sent now if it answers).");
        status.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var laptop = new RoomLaptop();
            if (laptop.Membership is not { } room)
            {
                output.WriteLine("This laptop is in no room. Join one with `perflab room join ADDRESS --code CODE --name NICKNAME`.");
                return 0;
            }

            output.WriteLine($"In the room at {room.Address} as {room.Nickname}.");
            var (answered, problem) = await RoomLaptop.CheckAsync(room, cancellationToken).ConfigureAwait(false);
            if (problem is not null)
            {
                output.WriteLine(answered ? $"The room refuses this laptop: {problem}" : $"The room does not answer: {problem}");
                output.WriteLine($"{laptop.Queued} results wait on this laptop to be sent.");
                return PerfLabCommand.Failure;
            }

            var (sent, waiting) = await laptop.SendQueuedAsync(output.WriteLine, cancellationToken).ConfigureAwait(false);
            output.WriteLine(sent > 0 ? $"The room answers; {sent} results that waited were sent." : "The room answers.");
            if (waiting > 0)
            {
                output.WriteLine($"{waiting} results still wait on this laptop to be sent.");
            }

            return 0;
        }).ConfigureAwait(false));
        return status;
    }

    private static Command Export(TextWriter output, TextWriter error)
    {
        var folder = new Argument<string>("FOLDER") { Description = "The room's folder, as `perflab room serve` printed it (the room may still be serving)." };
        var outFile = new Option<string>("--out", "-o") { Description = "The file to write (replaced): every laptop as a machine of the reference file's format, for `perflab fidelity --room` and `perflab site --room`.", HelpName = "FILE", Required = true };
        var export = new Command("export", "Write the room's results in the reference machine file's format, one machine per laptop (each cell's latest run).") { folder, outFile };
        export.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var (json, laptops, runs) = RoomExport.Of(parse.GetValue(folder)!);
            var written = await OutputFiles.WriteAsync(parse.GetValue(outFile)!, json, cancellationToken).ConfigureAwait(false);
            output.WriteLine($"Exported {laptops} laptops, {runs} runs: {written}");
            return 0;
        }).ConfigureAwait(false));
        return export;
    }
}
