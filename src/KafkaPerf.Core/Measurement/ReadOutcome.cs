namespace KafkaPerf.Measurement;

/// <summary>What a read of a topic proved about the acknowledged records it did not see.</summary>
/// <param name="Lost">Acknowledged records that a read of their partition went past without seeing: proven lost.</param>
/// <param name="NotVerified">Acknowledged records not seen whose partitions' reads stopped short: nothing is known of
/// them, and they are not counted lost.</param>
/// <param name="Reason">Why they are not verified, with where the reads stopped; <see langword="null"/> when every
/// record is accounted for.</param>
public readonly record struct ReadOutcome(long Lost, long NotVerified, string? Reason)
{
    /// <summary>Every acknowledged record was seen.</summary>
    public static ReadOutcome Complete { get; } = new(0, 0, null);

    /// <summary>Whether every acknowledged record is accounted for: seen, or proven lost.</summary>
    public bool Verified => NotVerified == 0 && Reason is null;
}
