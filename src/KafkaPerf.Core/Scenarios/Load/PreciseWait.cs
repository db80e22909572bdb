using System.Diagnostics;
using System.Runtime.InteropServices;

namespace KafkaPerf.Scenarios.Load;

/// <summary>
/// Waits until a moment of the <see cref="Stopwatch"/> clock, for a send schedule: it sleeps while the moment is far
/// (so a slow schedule costs no CPU) and spins for the last <see cref="SpinMargin"/>, because a sleeping thread wakes
/// late - on the 2-core VM these figures come from, an absolute <c>clock_nanosleep</c> woke 53 µs late at the median
/// and 116 µs at the 99th percentile even with the thread's timer slack at 1 ns.
/// </summary>
/// <remarks>On Linux the sleep is <c>clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)</c>, the clock
/// <see cref="Stopwatch"/> reads there, with the calling thread's timer slack lowered to 1 ns once
/// (<see cref="PrepareThread"/>); elsewhere <see cref="Thread.Sleep(int)"/>. A wait is cut into pieces of at most
/// <see cref="CancellationSlice"/> so that cancellation ends it promptly.</remarks>
public static unsafe partial class PreciseWait
{
    /// <summary>How long before the moment the wait stops sleeping and spins.</summary>
    public static readonly TimeSpan SpinMargin = TimeSpan.FromMicroseconds(300);

    /// <summary>The longest single sleep, so that a cancelled wait ends within it.</summary>
    public static readonly TimeSpan CancellationSlice = TimeSpan.FromMilliseconds(50);

    private const int ClockMonotonic = 1;
    private const int TimerAbsoluteTime = 1;
    private const int PrSetTimerSlack = 29;
    private static readonly bool s_nanosleep = OperatingSystem.IsLinux() && Stopwatch.Frequency == 1_000_000_000;
    private static readonly long s_spinTicks = (long)(SpinMargin.TotalSeconds * Stopwatch.Frequency);
    private static readonly long s_sliceTicks = (long)(CancellationSlice.TotalSeconds * Stopwatch.Frequency);

    /// <summary>Lowers the calling thread's timer slack to 1 ns (Linux), so its sleeps end when asked rather than up to
    /// 50 µs later. Call once on each sending thread.</summary>
    public static void PrepareThread()
    {
        if (!OperatingSystem.IsLinux()) return;
        try
        {
            _ = prctl(PrSetTimerSlack, 1, 0, 0, 0);
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException)
        {
            // Without it sleeps end a little later; the spin covers most of that.
        }
    }

    /// <summary>Returns at or just after <paramref name="timestamp"/> (a <see cref="Stopwatch.GetTimestamp"/> value).</summary>
    /// <param name="timestamp">The moment.</param>
    /// <param name="cancellationToken">Ends the wait early.</param>
    /// <exception cref="OperationCanceledException">The token was cancelled.</exception>
    public static void Until(long timestamp, CancellationToken cancellationToken) => Until(timestamp, s_spinTicks, cancellationToken);

    /// <summary>Returns at or just after <paramref name="timestamp"/>, spinning for the last <paramref name="spinTicks"/>
    /// only: a caller that waits thousands of times a second trades a little lateness for CPU.</summary>
    /// <param name="timestamp">The moment (a <see cref="Stopwatch.GetTimestamp"/> value).</param>
    /// <param name="spinTicks">How long before the moment to stop sleeping and spin, in <see cref="Stopwatch"/> ticks.</param>
    /// <param name="cancellationToken">Ends the wait early.</param>
    /// <exception cref="OperationCanceledException">The token was cancelled.</exception>
    public static void Until(long timestamp, long spinTicks, CancellationToken cancellationToken)
    {
        while (true)
        {
            long remaining = timestamp - Stopwatch.GetTimestamp();
            if (remaining <= 0) return;
            if (remaining <= spinTicks)
            {
                Spin(timestamp);
                return;
            }
            cancellationToken.ThrowIfCancellationRequested();
            long wakeAt = timestamp - spinTicks;
            if (wakeAt - Stopwatch.GetTimestamp() > s_sliceTicks) wakeAt = Stopwatch.GetTimestamp() + s_sliceTicks;
            Sleep(wakeAt);
        }
    }

    private static void Spin(long timestamp)
    {
        // A read of the clock costs about 25 ns: spinning on it alone keeps the delay under a microsecond unless the
        // thread is preempted. A yield now and then lets another thread on this core run meanwhile.
        int spins = 0;
        while (Stopwatch.GetTimestamp() < timestamp)
        {
            if (++spins % 64 == 0) Thread.Yield();
        }
    }

    private static void Sleep(long wakeAt)
    {
        if (s_nanosleep)
        {
            var time = stackalloc long[2];
            time[0] = wakeAt / 1_000_000_000;
            time[1] = wakeAt % 1_000_000_000;
            // EINTR (a signal) just ends this sleep early: the caller loops.
            _ = clock_nanosleep(ClockMonotonic, TimerAbsoluteTime, time, null);
            return;
        }
        long milliseconds = (wakeAt - Stopwatch.GetTimestamp()) * 1000 / Stopwatch.Frequency;
        if (milliseconds > 0) Thread.Sleep((int)milliseconds);
    }

    [LibraryImport("libc", EntryPoint = "clock_nanosleep")]
    private static partial int clock_nanosleep(int clock, int flags, long* request, long* remaining);

    [LibraryImport("libc", EntryPoint = "prctl")]
    private static partial int prctl(int option, ulong arg2, ulong arg3, ulong arg4, ulong arg5);
}
