using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>
/// A consume cell's topic as one client filled it: its client's first consume of the cell fills it, and its next ones
/// read the same records from the start, each in a group of its own, instead of filling a topic of their own (filling
/// 10 000 records of 10 KB took the java client more than a second a run, untimed).
/// </summary>
/// <remarks>The records, their batches and their offsets are the ones the client's own producer wrote, as in a topic
/// filled for the run; so is the ledger a read is proven against (<see cref="Acknowledged"/>).</remarks>
/// <param name="topic">The topic: the run's that fills it.</param>
internal sealed class TopicFill(string topic)
{
    /// <summary>The topic.</summary>
    public string Topic { get; } = topic;

    /// <summary>Where the broker acknowledged the records of the fill; <see langword="null"/> until one run filled it in full.</summary>
    public AcknowledgedOffsets? Acknowledged { get; private set; }

    /// <summary>Records the fill delivered.</summary>
    public long Delivered { get; private set; }

    /// <summary>Keeps a fill that delivered every record, for the next runs to read.</summary>
    /// <param name="acknowledged">Its ledger, complete (its producer closed).</param>
    /// <param name="delivered">Records it delivered.</param>
    public void Keep(AcknowledgedOffsets acknowledged, long delivered)
    {
        Acknowledged = acknowledged;
        Delivered = delivered;
    }
}
