using PerfLab.Processes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>
/// FileLock on real files: shared holders coexist, an exclusive one is alone, and a process waiting to hold it alone
/// goes before shared takers that come after it. Each taker opens the file anew, as another process would. No clock:
/// a <see cref="Taker"/> tries once when it starts, and once more each time the test ends its wait between tries
/// (the lock's own pause), so every assertion reads the outcome of a try that has happened.
/// </summary>
public class FileLockTests
{
    [Fact]
    public async Task Shared_holders_coexist_and_an_exclusive_taker_waits_for_the_last_of_them()
    {
        using var folder = new TempFolder();
        var path = Path.Combine(folder.Path, "locks", "measure.lock");
        var first = await FileLock.AcquireAsync(path, shared: true, null, CancellationToken.None);
        var second = new Taker(path, shared: true);
        Assert.True(second.Lock.IsCompletedSuccessfully, "a second shared taker found the lock busy while only a shared holder held it");

        var exclusive = new Taker(path, shared: false);
        Assert.False(exclusive.Lock.IsCompleted, "the exclusive taker got the lock while two shared holders held it");
        Assert.Equal($"process {Environment.ProcessId}", exclusive.WaitingFor?.Split(',')[0]);

        first.Dispose();
        await exclusive.TryAgainAsync();
        Assert.False(exclusive.Lock.IsCompleted, "the exclusive taker got the lock while a shared holder still held it");

        (await second.Lock).Dispose();
        await exclusive.TryAgainAsync();
        Assert.True(exclusive.Lock.IsCompletedSuccessfully, "the exclusive taker found the lock busy after every shared holder let go");
        (await exclusive.Lock).Dispose();
    }

    [Fact]
    public async Task A_shared_taker_waits_behind_an_exclusive_one_already_waiting_and_gets_its_turn_after_it()
    {
        using var folder = new TempFolder();
        var path = Path.Combine(folder.Path, "measure.lock");
        var holder = await FileLock.AcquireAsync(path, shared: true, null, CancellationToken.None);
        var exclusive = new Taker(path, shared: false);
        Assert.False(exclusive.Lock.IsCompleted, "the exclusive taker got the lock while a shared holder held it");

        var late = new Taker(path, shared: true);
        Assert.False(late.Lock.IsCompleted, "a shared taker went past an exclusive one waiting before it");

        holder.Dispose();
        await exclusive.TryAgainAsync();
        Assert.True(exclusive.Lock.IsCompletedSuccessfully, "the exclusive taker found the lock busy after its holder let go");
        var alone = await exclusive.Lock;
        await late.TryAgainAsync();
        Assert.False(late.Lock.IsCompleted, "a shared taker got the lock while an exclusive holder held it");

        alone.Dispose();
        await late.TryAgainAsync();
        Assert.True(late.Lock.IsCompletedSuccessfully, "the shared taker found the lock busy after the exclusive holder let go");
        (await late.Lock).Dispose();
    }

    [Fact]
    public async Task Cancelling_a_wait_throws_and_leaves_the_lock_free_for_the_next()
    {
        using var folder = new TempFolder();
        var path = Path.Combine(folder.Path, "measure.lock");
        using var cancel = new CancellationTokenSource();
        var exclusive = await FileLock.AcquireAsync(path, shared: false, null, CancellationToken.None);
        var waiting = new Taker(path, shared: false, cancel.Token);

        await cancel.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => waiting.Lock);
        exclusive.Dispose();

        // The cancelled taker let go of its place in the queue: a shared taker gets the lock at its first try.
        var next = new Taker(path, shared: true);
        Assert.True(next.Lock.IsCompletedSuccessfully, "a shared taker found the lock busy after the only other taker was cancelled: the cancelled one kept its place in the queue");
        (await next.Lock).Dispose();
    }

    /// <summary>
    /// One taker of the lock whose wait between tries the test ends. Its first try happens before the constructor
    /// returns (the lock tries at once, on the caller's thread); after a try that found the lock busy it waits until
    /// <see cref="TryAgainAsync"/>, which returns once the next try has taken the lock or found it busy again.
    /// </summary>
    private sealed class Taker
    {
        private TaskCompletionSource _paused = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private TaskCompletionSource? _resume;

        public Taker(string path, bool shared, CancellationToken cancellationToken = default) =>
            Lock = FileLock.AcquireAsync(path, shared, holder => WaitingFor = holder, PauseAsync, cancellationToken);

        /// <summary>The lock, once a try took it.</summary>
        public Task<FileLock> Lock { get; }

        /// <summary>The holder the lock named when it first found itself busy.</summary>
        public string? WaitingFor { get; private set; }

        /// <summary>Ends the wait: the taker tries once more. Fails, rather than hangs, if that try never ends.</summary>
        public async Task TryAgainAsync()
        {
            var resume = _resume ?? throw new InvalidOperationException("The taker is not waiting: its last try took the lock.");
            _resume = null;
            var paused = _paused = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            resume.SetResult();
            await Task.WhenAny(paused.Task, Lock).WaitAsync(TimeSpan.FromSeconds(30));
        }

        private Task PauseAsync(CancellationToken cancellationToken)
        {
            var resume = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            _resume = resume;
            _paused.TrySetResult();
            return resume.Task.WaitAsync(cancellationToken);
        }
    }
}
