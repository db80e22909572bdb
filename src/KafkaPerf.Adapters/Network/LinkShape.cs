using System.Diagnostics;

namespace KafkaPerf.Adapters.Network;

/// <summary>One direction of a shaped link, shared by every connection through it: its one-way delay, its jitter, and a
/// token bucket for its rate (a wire carries one chunk at a time, whichever connection it belongs to).</summary>
/// <remarks>Thread-safe: <see cref="Set"/> comes from the runner between runs, <see cref="DueAt"/> from every reading thread.
/// A chunk already queued keeps the due time it was given.</remarks>
internal sealed class LinkShape
{
    /// <summary>How much a link may send at once above its rate (a token bucket's depth): 64 KB, as a <c>tbf</c> burst.</summary>
    internal const int BurstBytes = 64 * 1024;

    private readonly Lock _bucket = new();
    private long _oneWayTicks;
    private long _extraTicks;
    private long _jitterTicks;
    private double _ticksPerByte;
    private long _burstTicks;
    // The bucket as a virtual clock (GCRA): when the wire would be free had it sent every byte so far at the rate.
    private long _freeAt;
    private long _forwardedBytes;

    /// <summary>The one-way delay asked, in <see cref="Stopwatch"/> ticks.</summary>
    internal long OneWayTicks => Volatile.Read(ref _oneWayTicks);

    /// <summary>Bytes sent on through this direction so far.</summary>
    internal long ForwardedBytes => Interlocked.Read(ref _forwardedBytes);

    /// <summary>Shapes from now on.</summary>
    /// <param name="oneWay">The one-way delay.</param>
    /// <param name="jitter">How far a chunk's delay may stray either way (uniform), when there is a delay.</param>
    /// <param name="rateBitsPerSecond">The rate; <see langword="null"/> for none.</param>
    internal void Set(TimeSpan oneWay, TimeSpan jitter, long? rateBitsPerSecond)
    {
        lock (_bucket)
        {
            _ticksPerByte = rateBitsPerSecond is { } bits ? 8.0 * Stopwatch.Frequency / bits : 0;
            _burstTicks = (long)(_ticksPerByte * BurstBytes);
            _freeAt = 0;
        }
        Volatile.Write(ref _jitterTicks, ToTicks(jitter));
        Volatile.Write(ref _oneWayTicks, ToTicks(oneWay));
    }

    /// <summary>A one-way delay added to the asked one (a <c>slow</c> fault), until it is set back to zero.</summary>
    internal void SetExtra(TimeSpan oneWay) => Volatile.Write(ref _extraTicks, ToTicks(oneWay));

    /// <summary>When a chunk that arrived at <paramref name="arrival"/> is due on the other side: once the wire has carried
    /// it at the rate, plus the one-way delay ± jitter.</summary>
    /// <param name="arrival">When it arrived (<see cref="Stopwatch.GetTimestamp"/>).</param>
    /// <param name="bytes">Its length.</param>
    /// <param name="random">The reading thread's random state.</param>
    /// <returns>Its due time.</returns>
    internal long DueAt(long arrival, int bytes, ref ulong random)
    {
        long delay = Volatile.Read(ref _oneWayTicks);
        long jitter = Volatile.Read(ref _jitterTicks);
        if (jitter > 0 && delay > 0) delay = Math.Max(0, delay + (long)((NextUnit(ref random) * 2 - 1) * jitter));
        delay += Volatile.Read(ref _extraTicks);
        long departed = arrival;
        if (_ticksPerByte > 0)
        {
            lock (_bucket)
            {
                long freeAt = Math.Max(_freeAt, arrival) + (long)(bytes * _ticksPerByte);
                _freeAt = freeAt;
                departed = Math.Max(arrival, freeAt - _burstTicks);
            }
        }
        return departed + delay;
    }

    /// <summary>Counts bytes sent on.</summary>
    internal void Forwarded(int bytes) => Interlocked.Add(ref _forwardedBytes, bytes);

    internal static long ToTicks(TimeSpan value) => (long)(value.Ticks * (double)Stopwatch.Frequency / TimeSpan.TicksPerSecond);

    /// <summary>A uniform draw in [0, 1) from xorshift64*: no allocation, one state per thread.</summary>
    private static double NextUnit(ref ulong state)
    {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return ((state * 2685821657736338717UL) >> 11) * (1.0 / (1UL << 53));
    }
}
