using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>One worker's share of a run that several workers ran together (<c>run --workers</c>, <c>--processes</c>).</summary>
public sealed record WorkerPart
{
    /// <summary>The worker's name (by default host/process).</summary>
    public required string Worker { get; init; }

    /// <summary>Its position among the run's workers, from 0: it had that share of the records, rate and producers.</summary>
    public required int Index { get; init; }

    /// <summary>The host it ran on.</summary>
    public string? Host { get; init; }

    /// <summary>Its process ID there.</summary>
    public int? ProcessId { get; init; }

    /// <summary>Its tool and runtime versions, as it announced them.</summary>
    public string? Version { get; init; }

    /// <summary>The records it was to send (its share).</summary>
    public long Records { get; init; }

    /// <summary>Its producers.</summary>
    public int Producers { get; init; }

    /// <summary>Records it sent.</summary>
    public long Sent { get; init; }

    /// <summary>Records it saw acknowledged.</summary>
    public long Delivered { get; init; }

    /// <summary>Records its consumers received.</summary>
    public long Received { get; init; }

    /// <summary>Keys it missed.</summary>
    public long Lost { get; init; }

    /// <summary>Keys it saw more than once.</summary>
    public long Duplicates { get; init; }

    /// <summary>Its timed section, in seconds (NaN when it failed).</summary>
    public double ElapsedSeconds { get; init; } = double.NaN;

    /// <summary>The rate it reached (rate runs).</summary>
    public double? AchievedRate { get; init; }

    /// <summary>Its main latency: response time at a rate, send→ack or produce→consume in a burst; on its own clock.</summary>
    public LatencySummary? Latency { get; init; }

    /// <summary>Why its share failed; <see langword="null"/> when it succeeded.</summary>
    public string? Error { get; init; }
}
