using System.Text.Json.Serialization;
using HdrHistogram;

namespace KafkaPerf.Measurement;

/// <summary>A run's transactions (<c>--transactions</c>): how many were committed and aborted, and how long each took
/// from its begin to the broker's answer to its commit (or abort).</summary>
/// <param name="Committed">Transactions committed.</param>
/// <param name="Aborted">Transactions aborted (<c>--abort-ratio</c>).</param>
/// <param name="Latency">Begin → commit (or abort) acknowledged, per transaction.</param>
public sealed record TransactionRecord(long Committed, long Aborted, LatencySummary? Latency)
{
    /// <summary>The latencies themselves, in nanoseconds; not written.</summary>
    [JsonIgnore]
    public HistogramBase? Histogram { get; init; }
}

/// <summary>Counts a run's transactions and records each one's latency; one producer thread writes, the run reads after.</summary>
public sealed class TransactionRecorder
{
    private readonly LongHistogram _latency = Histograms.Create();
    private long _committed;
    private long _aborted;

    /// <summary>One transaction ended.</summary>
    /// <param name="nanoseconds">From its begin to the broker's answer.</param>
    /// <param name="aborted">Whether it was aborted.</param>
    public void Record(long nanoseconds, bool aborted)
    {
        lock (_latency)
        {
            _latency.RecordClamped(nanoseconds);
            if (aborted) _aborted++;
            else _committed++;
        }
    }

    /// <summary>What was recorded so far.</summary>
    /// <returns>The record; <see langword="null"/> when no transaction ended.</returns>
    public TransactionRecord? Snapshot()
    {
        lock (_latency)
        {
            if (_committed + _aborted == 0) return null;
            var copy = _latency.Copy();
            return new TransactionRecord(_committed, _aborted, LatencySummary.From(copy, unitsPerMicrosecond: 1000)) { Histogram = copy };
        }
    }
}
