using PerfLab.Processes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>
/// FileLock on real files: shared holders coexist, an exclusive one is alone, and a process waiting to hold it alone
/// goes before shared takers that come after it. Each taker opens the file anew, as another process would.
/// </summary>
public class FileLockTests
{
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(1);

    [Fact]
    public async Task Shared_holders_coexist_and_an_exclusive_taker_waits_for_the_last_of_them()
    {
        using var folder = new TempFolder();
        var path = Path.Combine(folder.Path, "locks", "measure.lock");
        var first = await FileLock.AcquireAsync(path, shared: true, null, CancellationToken.None);
        var second = await FileLock.AcquireAsync(path, shared: true, null, CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(5));

        string? waitingFor = null;
        var exclusive = FileLock.AcquireAsync(path, shared: false, holder => waitingFor = holder, CancellationToken.None);
        await Task.Delay(Settle);
        Assert.False(exclusive.IsCompleted, "the exclusive taker got the lock while two shared holders held it");
        Assert.Equal($"process {Environment.ProcessId}", waitingFor?.Split(',')[0]);

        first.Dispose();
        await Task.Delay(Settle);
        Assert.False(exclusive.IsCompleted, "the exclusive taker got the lock while a shared holder still held it");

        second.Dispose();
        (await exclusive.WaitAsync(TimeSpan.FromSeconds(5))).Dispose();
    }

    [Fact]
    public async Task A_shared_taker_waits_behind_an_exclusive_one_already_waiting_and_gets_its_turn_after_it()
    {
        using var folder = new TempFolder();
        var path = Path.Combine(folder.Path, "measure.lock");
        var holder = await FileLock.AcquireAsync(path, shared: true, null, CancellationToken.None);
        var exclusive = FileLock.AcquireAsync(path, shared: false, null, CancellationToken.None);
        await Task.Delay(Settle);

        var late = FileLock.AcquireAsync(path, shared: true, null, CancellationToken.None);
        await Task.Delay(Settle);
        Assert.False(late.IsCompleted, "a shared taker went past an exclusive one waiting before it");

        holder.Dispose();
        var alone = await exclusive.WaitAsync(TimeSpan.FromSeconds(5));
        await Task.Delay(Settle);
        Assert.False(late.IsCompleted, "a shared taker got the lock while an exclusive holder held it");

        alone.Dispose();
        (await late.WaitAsync(TimeSpan.FromSeconds(5))).Dispose();
    }

    [Fact]
    public async Task Cancelling_a_wait_throws_and_leaves_the_lock_free_for_the_next()
    {
        using var folder = new TempFolder();
        var path = Path.Combine(folder.Path, "measure.lock");
        using var cancel = new CancellationTokenSource();
        var exclusive = await FileLock.AcquireAsync(path, shared: false, null, CancellationToken.None);
        var waiting = FileLock.AcquireAsync(path, shared: false, null, cancel.Token);

        cancel.CancelAfter(Settle);
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => waiting);
        exclusive.Dispose();

        // The cancelled taker let go of its place in the queue: a shared taker is not kept waiting.
        (await FileLock.AcquireAsync(path, shared: true, null, CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(5))).Dispose();
    }
}
