namespace KafkaPerf.Clients.InMemory;

internal sealed class InMemoryConsumer(PartitionedTopic topic, IReadOnlyDictionary<string, string> config) : IBenchConsumer
{
    private Thread? _thread;
    private volatile bool _stopping;
    private int _member = -1;

    public IReadOnlyDictionary<string, string> EffectiveConfig => config;

    public bool PrefetchEnabled => false;

    public void StartPolling(IRecordSink sink)
    {
        ArgumentNullException.ThrowIfNull(sink);
        if (_thread is not null) throw new InvalidOperationException("The consumer was already started.");
        _member = topic.Join();
        _thread = new Thread(() => Poll(sink)) { IsBackground = true, Name = "kafkaperf-inmemory-poll" };
        _thread.Start();
    }

    public void StopPolling()
    {
        _stopping = true;
        _thread?.Join();
        if (_member >= 0) topic.Leave();
        _member = -1;
    }

    public void Dispose() => StopPolling();

    private void Poll(IRecordSink sink)
    {
        sink.OnAssigned();
        var spinner = new SpinWait();
        while (!_stopping)
        {
            if (topic.Drain(_member, sink) > 0)
                spinner.Reset();
            else
                spinner.SpinOnce(sleep1Threshold: -1);
        }
    }
}
