namespace KafkaPerf.Clients.InMemory;

/// <summary>Recycles topic segments across topics of one client, so that after a warm-up neither producing
/// into a fresh topic nor reading allocates.</summary>
internal sealed class SegmentPool
{
    // About 50 MB of segments at most are kept for reuse; beyond that they go to the GC.
    private const int MaxPooled = 128;
    private readonly Stack<InMemoryTopic.Segment> _free = new();

    public InMemoryTopic.Segment Rent()
    {
        lock (_free) return _free.Count > 0 ? _free.Pop() : new InMemoryTopic.Segment();
    }

    public void Return(InMemoryTopic.Segment segment)
    {
        Array.Clear(segment.Values);
        Array.Clear(segment.Counts);
        segment.Next = null;
        lock (_free)
        {
            if (_free.Count < MaxPooled) _free.Push(segment);
        }
    }
}
