using System.Text;
using PerfLab.Course.Room;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>The room's folder: append-only, synced, reopened with every acknowledged post; what a post may add depends on what is stored.</summary>
public class RoomLedgerTests
{
    private const long Plenty = 1L << 30;

    [Fact]
    public async Task A_reopened_room_has_its_code_and_every_stored_post()
    {
        using var folder = new TempFolder();
        var room = Path.Combine(folder.Path, "room");
        string code;
        var posts = Enumerable.Range(0, 3).Select(i => Fake.Post(nickname: "n" + i)).ToArray();
        using (var ledger = RoomLedger.Create(room))
        {
            code = ledger.Code;
            foreach (var post in posts)
            {
                Assert.Equal(AdmissionKind.Stored, (await ledger.AppendAsync(post, Plenty, CancellationToken.None)).Kind);
            }
        }

        using var reopened = RoomLedger.Resume(room);

        Assert.Equal(code, reopened.Code);
        Assert.Equal(posts.Select(p => p.ToJson()), reopened.Posts.Select(p => p.ToJson()));
        Assert.Equal(AdmissionKind.Duplicate, (await reopened.AppendAsync(posts[0], Plenty, CancellationToken.None)).Kind);
    }

    [Fact]
    public async Task A_line_cut_off_by_a_crash_was_never_acknowledged_and_is_removed_on_resume()
    {
        using var folder = new TempFolder();
        var room = Path.Combine(folder.Path, "room");
        var stored = Fake.Post();
        using (var ledger = RoomLedger.Create(room))
        {
            await ledger.AppendAsync(stored, Plenty, CancellationToken.None);
        }

        var torn = Fake.Post().ToJson();
        File.AppendAllText(Path.Combine(room, RoomLedger.PostsFile), torn[..(torn.Length / 2)], Encoding.UTF8);

        using var reopened = RoomLedger.Resume(room);

        Assert.Equal([stored.Id], reopened.Posts.Select(p => p.Id));
        Assert.Equal(stored.ToJson() + "\n", File.ReadAllText(Path.Combine(room, RoomLedger.PostsFile)));
    }

    [Fact]
    public async Task A_nickname_belongs_to_the_laptop_that_posted_it_first()
    {
        using var folder = new TempFolder();
        using var ledger = RoomLedger.Create(Path.Combine(folder.Path, "room"));
        var ana = Fake.Post(nickname: "ana");
        await ledger.AppendAsync(ana, Plenty, CancellationToken.None);

        var impostor = await ledger.AppendAsync(Fake.Post(nickname: "ANA"), Plenty, CancellationToken.None);
        var renamed = await ledger.AppendAsync(Fake.Post(laptop: ana.Laptop, nickname: "ana2"), Plenty, CancellationToken.None);
        var freed = await ledger.AppendAsync(Fake.Post(nickname: "ana"), Plenty, CancellationToken.None);

        Assert.Equal(AdmissionKind.NicknameTaken, impostor.Kind);
        Assert.Equal(ana.Laptop, impostor.Owner);
        Assert.Equal(AdmissionKind.Stored, renamed.Kind);
        Assert.Equal(AdmissionKind.Stored, freed.Kind);
        Assert.Equal(3, ledger.Posts.Count);
    }

    [Fact]
    public async Task A_laptop_cannot_pass_its_share_and_a_refused_post_leaves_no_trace()
    {
        using var folder = new TempFolder();
        using var ledger = RoomLedger.Create(Path.Combine(folder.Path, "room"));
        var first = Fake.Post();
        var share = Encoding.UTF8.GetByteCount(first.ToJson()) + 1 + 100;
        await ledger.AppendAsync(first, share, CancellationToken.None);
        var before = File.ReadAllBytes(Path.Combine(ledger.Folder, RoomLedger.PostsFile));

        var second = await ledger.AppendAsync(Fake.Post(laptop: first.Laptop), share, CancellationToken.None);
        var other = await ledger.AppendAsync(Fake.Post(nickname: "bo"), share, CancellationToken.None);

        Assert.Equal(AdmissionKind.OverLaptopLimit, second.Kind);
        Assert.Equal(AdmissionKind.Stored, other.Kind);
        Assert.Equal(before, File.ReadAllBytes(Path.Combine(ledger.Folder, RoomLedger.PostsFile)).Take(before.Length));
        Assert.Equal(2, ledger.Posts.Count);
    }

    [Fact]
    public void A_folder_that_holds_a_room_is_not_made_a_new_one_and_a_folder_without_one_is_not_reopened()
    {
        using var folder = new TempFolder();
        var room = Path.Combine(folder.Path, "room");
        RoomLedger.Create(room).Dispose();

        var again = Assert.Throws<PerfLabException>(() => RoomLedger.Create(room));
        var none = Assert.Throws<PerfLabException>(() => RoomLedger.Resume(Path.Combine(folder.Path, "elsewhere")));

        Assert.Equal($"{room} already holds a room.", again.Message);
        Assert.Contains("--resume", again.Fix, StringComparison.Ordinal);
        Assert.Contains("holds no room", none.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_room_that_never_opened_leaves_no_folder_and_one_with_posts_keeps_them()
    {
        using var folder = new TempFolder();
        var never = Path.Combine(folder.Path, "never");
        var used = Path.Combine(folder.Path, "used");

        RoomLedger.Create(never).Discard();
        var ledger = RoomLedger.Create(used);
        await ledger.AppendAsync(Fake.Post(), Plenty, CancellationToken.None);
        ledger.Discard();

        using var reopened = RoomLedger.Resume(used);
        Assert.False(Directory.Exists(never));
        Assert.Single(reopened.Posts);
    }
}
