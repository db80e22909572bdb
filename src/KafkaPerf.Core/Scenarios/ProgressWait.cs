using System.Diagnostics;

namespace KafkaPerf.Scenarios;

/// <summary>Waits for an event while progress continues; gives up when progress stalls for too long.</summary>
internal static class ProgressWait
{
    private const int PollMilliseconds = 50;

    /// <summary>Waits for <paramref name="done"/>.</summary>
    /// <returns><see langword="true"/> when it was set, <see langword="false"/> when <paramref name="progress"/> stalled past the timeout.</returns>
    public static bool Until(ManualResetEventSlim done, Func<long> progress, TimeSpan stallTimeout, CancellationToken cancellationToken)
    {
        long last = progress();
        long lastChange = Stopwatch.GetTimestamp();
        while (!done.Wait(PollMilliseconds, cancellationToken))
        {
            long now = progress();
            if (now != last)
            {
                last = now;
                lastChange = Stopwatch.GetTimestamp();
            }
            else if (Stopwatch.GetElapsedTime(lastChange) > stallTimeout)
            {
                return false;
            }
        }
        return true;
    }

    /// <summary>Waits for <paramref name="done"/>, or until <paramref name="orElse"/> holds (checked every 50 ms, for an
    /// end that no event signals).</summary>
    /// <returns><see langword="true"/> when either came, <see langword="false"/> when <paramref name="progress"/> stalled
    /// past the timeout.</returns>
    public static bool Until(ManualResetEventSlim done, Func<bool> orElse, Func<long> progress, TimeSpan stallTimeout, CancellationToken cancellationToken)
    {
        long last = progress();
        long lastChange = Stopwatch.GetTimestamp();
        while (!done.Wait(PollMilliseconds, cancellationToken))
        {
            if (orElse()) return true;
            long now = progress();
            if (now != last)
            {
                last = now;
                lastChange = Stopwatch.GetTimestamp();
            }
            else if (Stopwatch.GetElapsedTime(lastChange) > stallTimeout)
            {
                return done.IsSet || orElse();
            }
        }
        return true;
    }

    /// <summary>Waits until <paramref name="done"/> holds, checking every 50 ms.</summary>
    /// <returns><see langword="true"/> when it held, <see langword="false"/> when <paramref name="progress"/> stalled past the timeout.</returns>
    public static bool Until(Func<bool> done, Func<long> progress, TimeSpan stallTimeout, CancellationToken cancellationToken)
    {
        long last = progress();
        long lastChange = Stopwatch.GetTimestamp();
        while (!done())
        {
            if (cancellationToken.WaitHandle.WaitOne(PollMilliseconds)) cancellationToken.ThrowIfCancellationRequested();
            long now = progress();
            if (now != last)
            {
                last = now;
                lastChange = Stopwatch.GetTimestamp();
            }
            else if (Stopwatch.GetElapsedTime(lastChange) > stallTimeout)
            {
                return done();
            }
        }
        return true;
    }
}
