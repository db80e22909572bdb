using System.Text.Json.Serialization;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>
/// One worker's part of a run that several workers ran together (<c>run --workers</c>, <c>--processes</c>): which worker,
/// its share, and its own <see cref="RunRecord"/>. The figures below are views of that record (written flat into the
/// result's JSON, and read back into a record).
/// </summary>
public sealed record WorkerPart
{
    private readonly string? _error;

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

    /// <summary>Its producers: its run's, or its share's when it sent nothing back.</summary>
    public int Producers
    {
        get => Run?.Producers ?? _producers;
        init => _producers = value;
    }

    private readonly int _producers = 1;

    /// <summary>What it measured; <see langword="null"/> when it sent nothing back (it died, or stopped answering).</summary>
    [JsonIgnore]
    public RunRecord? Run { get; init; }

    /// <summary>Records it sent.</summary>
    public long Sent { get => Run?.Sent ?? 0; init => Run = Measured with { Sent = value }; }

    /// <summary>Records it saw acknowledged.</summary>
    public long Delivered { get => Run?.Delivered ?? 0; init => Run = Measured with { Delivered = value }; }

    /// <summary>Records its consumers received.</summary>
    public long Received { get => Run?.Received ?? 0; init => Run = Measured with { Received = value }; }

    /// <summary>Keys it proved lost (its read went past them); none when it sent nothing back.</summary>
    public long Lost { get => Run?.Lost ?? 0; init => Run = Measured with { Lost = value }; }

    /// <summary>Keys it did not see and could not prove lost; all of its share when it sent nothing back.</summary>
    public long NotVerified { get => Run?.NotVerified ?? Records; init => Run = Measured with { NotVerified = value }; }

    /// <summary>How long after the agreed moment it started (it heard "start" late); 0 when on time.</summary>
    public double StartedLateSeconds { get; init; }

    /// <summary>Keys it saw more than once.</summary>
    public long Duplicates { get => Run?.Duplicates ?? 0; init => Run = Measured with { Duplicates = value }; }

    /// <summary>Its timed section, in seconds (NaN when it failed).</summary>
    public double ElapsedSeconds
    {
        get => Run is { Succeeded: true } run ? run.ElapsedSeconds : double.NaN;
        init => Run = Measured with { ElapsedSeconds = value };
    }

    /// <summary>The rate it reached (rate runs).</summary>
    public double? AchievedRate { get => Run?.AchievedRate; init => Run = Measured with { AchievedRate = value }; }

    /// <summary>Its main latency: response time at a rate, send→ack or produce→consume in a burst; on its own clock.</summary>
    public LatencySummary? Latency
    {
        get => Run is not { } run ? null
            : (run.ResponseTimeHistogram ?? run.LatencyHistogram) is { TotalCount: > 0 } h ? LatencySummary.From(h, unitsPerMicrosecond: 1000)
            : run.ResponseTime ?? run.Latency;
        init => Run = Measured with { Latency = value };
    }

    /// <summary>Why its part failed: why it sent nothing back, or its run's error; <see langword="null"/> when it succeeded.</summary>
    public string? Error
    {
        get => _error ?? (Run is { Succeeded: false } run ? run.Error ?? run.VerificationError : null);
        init => _error = value;
    }

    private RunRecord Measured => Run ?? new RunRecord { MessageCount = Records, Producers = _producers };
}
