using HdrHistogram;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios.Load;

/// <summary>What the producers, the delivery and record sinks and the interval sampler of one load run share: the
/// schedule, the send times in flight, the three recorders and every thread's counters.</summary>
internal sealed class LoadState(SendSchedule schedule, IClock clock)
{
    public SendSchedule Schedule { get; } = schedule;

    public IClock Clock { get; } = clock;

    public TickConverter Ticks { get; } = new(clock.Frequency);

    public SendTimeRing Ring { get; } = new(schedule);

    /// <summary>Response time: from when a record was due (rate runs).</summary>
    public Recorder Response { get; } = Histograms.CreateRecorder();

    /// <summary>Service time: from when a record was actually sent.</summary>
    public Recorder Service { get; } = Histograms.CreateRecorder();

    /// <summary>Send delay: actual − intended send time (rate runs).</summary>
    public Recorder SendDelay { get; } = Histograms.CreateRecorder();

    public List<LoadCounter> SentCounters { get; } = [];

    public List<LoadCounter> AcknowledgedCounters { get; } = [];

    public List<LoadCounter> ConsumedCounters { get; } = [];

    /// <summary>Whether the sampler records where each interval's time went (<see cref="IntervalBreakdown"/>).</summary>
    public bool Breakdown { get; init; }

    /// <summary>The client's runtime (the java clients' JVM), read each interval for its collections.</summary>
    public IRuntimeProbe? Runtime { get; init; }

    /// <summary>The broker, read each interval for its request metrics and collections.</summary>
    public IBrokerBreakdown? Broker { get; init; }

    /// <summary>The producers and consumers that can say where their records' time went, as they are created.</summary>
    public List<IClientBreakdown> BreakdownSources { get; } = [];

    /// <summary>Adds a producer or consumer to <see cref="BreakdownSources"/> (on the thread creating it).</summary>
    public void AddBreakdownSource(IClientBreakdown source)
    {
        lock (BreakdownSources) BreakdownSources.Add(source);
    }

    /// <summary>What a run with faults records beside its figures; <see langword="null"/> without faults.</summary>
    public FaultWatch? Faults { get; init; }

    /// <summary>Where each record was acknowledged, for the proofs of a read (the run's consumers, or the read-back after a
    /// run with faults); <see langword="null"/> when nothing reads the records.</summary>
    public AcknowledgedOffsets? Acknowledged { get; init; }

    /// <summary>The clock time the warm-up ends (the first measured record is due); set with the schedule's start.</summary>
    public long WarmupEnd { get; set; }

    /// <summary>A new counter in <paramref name="list"/>.</summary>
    public static LoadCounter Add(List<LoadCounter> list)
    {
        var counter = new LoadCounter();
        lock (list) list.Add(counter);
        return counter;
    }
}
