using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>
/// Where a burst's time went (<see cref="RunRecord.Breakdown"/>): a burst has no interval series, so its clients' own
/// figures are read once a second on a thread of its own while it runs and averaged, and the collections and the
/// broker's figures are taken over its timed section.
/// </summary>
/// <remarks><see cref="Start"/> and <see cref="Stop"/> are called outside the timed section (the broker's answer is
/// awaited in both); the readings in between run on this object's thread, never on a sending or receiving one. A burst
/// shorter than the clients' statistics window (a second) may end before either client has any figure.</remarks>
internal sealed class BurstBreakdown : IDisposable
{
    private static readonly TimeSpan BrokerWait = TimeSpan.FromMilliseconds(250);
    private static readonly TimeSpan ReadEvery = TimeSpan.FromSeconds(1);
    private readonly List<IClientBreakdown> _sources = [];
    private readonly List<ClientBreakdown> _readings = [];
    private readonly IRuntimeProbe? _runtime;
    private readonly IBrokerBreakdownCount? _broker;
    private readonly BackgroundLoop _loop = new("kafkaperf-breakdown");
    private TimeSpan _gcPause;
    private long? _runtimeGcMillis;

    private BurstBreakdown(ScenarioContext context)
    {
        _runtime = context.Client as IRuntimeProbe;
        _broker = context.BrokerBreakdown?.NewCount();
    }

    /// <summary>The run's breakdown once <see cref="Stop"/> returned.</summary>
    public IntervalBreakdown? Result { get; private set; }

    /// <summary>A breakdown for the run when it asks for one (<see cref="ScenarioContext.Breakdown"/>), else none.</summary>
    public static BurstBreakdown? For(ScenarioContext context) => context.Breakdown ? new BurstBreakdown(context) : null;

    /// <summary>Adds a producer or consumer (passed to <see cref="ScenarioContext.CreateProducer"/> and
    /// <see cref="ScenarioContext.CreateConsumer"/>).</summary>
    public void Add(IClientBreakdown source)
    {
        lock (_sources) _sources.Add(source);
    }

    /// <summary>Starts the count, just before the timed section.</summary>
    public void Start()
    {
        TakeBroker(_broker, BrokerWait);
        _gcPause = GC.GetTotalPauseDuration();
        _runtimeGcMillis = ReadRuntimeGcMillis(_runtime);
        _loop.Start(Loop);
    }

    /// <summary>Ends the count, just after the timed section, and sets <see cref="Result"/>.</summary>
    public void Stop()
    {
        if (!_loop.Stop()) return;
        Read();
        var pause = GC.GetTotalPauseDuration();
        long? runtime = ReadRuntimeGcMillis(_runtime);
        Result = Combine(_readings, (pause - _gcPause).TotalMilliseconds, runtime - _runtimeGcMillis, TakeBroker(_broker, BrokerWait));
    }

    public void Dispose() => _loop.Dispose();

    private void Loop()
    {
        while (!_loop.WaitForStop(ReadEvery)) Read();
    }

    private void Read()
    {
        IClientBreakdown[] sources;
        lock (_sources) sources = [.. _sources];
        foreach (var source in sources)
        {
            try
            {
                var reading = source.ReadBreakdown();
                lock (_readings) _readings.Add(reading);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                // A client being torn down: its figure is missing from this reading, nothing else.
            }
        }
    }

    /// <summary>An interval's or a run's breakdown: each client figure the mean over the readings that have it.</summary>
    internal static IntervalBreakdown Combine(List<ClientBreakdown> readings, double dotnetGcPauseMs, long? runtimeGcMs, BrokerBreakdown? broker) => new()
    {
        QueueMs = Mean(readings, r => r.QueueMs),
        RequestMs = Mean(readings, r => r.RequestMs),
        BatchBytes = Mean(readings, r => r.BatchBytes),
        RecordsPerRequest = Mean(readings, r => r.RecordsPerRequest),
        ThrottleMs = Mean(readings, r => r.ThrottleMs),
        FetchMs = Mean(readings, r => r.FetchMs),
        ClientLag = Mean(readings, r => r.Lag),
        DotnetGcPauseMs = dotnetGcPauseMs,
        RuntimeGcMs = runtimeGcMs,
        Broker = broker,
    };

    /// <summary>The broker's figures since its last reading; none when it cannot say.</summary>
    internal static BrokerBreakdown? TakeBroker(IBrokerBreakdownCount? broker, TimeSpan wait)
    {
        try
        {
            return broker?.TakeInterval(wait);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            return null;
        }
    }

    /// <summary>The client runtime's collection time so far; none when it has none or cannot say.</summary>
    internal static long? ReadRuntimeGcMillis(IRuntimeProbe? runtime)
    {
        try
        {
            return runtime?.ReadRuntime().GcMillis;
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            return null;
        }
    }

    private static double? Mean(List<ClientBreakdown> readings, Func<ClientBreakdown, double?> figure)
    {
        double sum = 0;
        int count = 0;
        foreach (var reading in readings)
        {
            if (figure(reading) is not { } value || !double.IsFinite(value)) continue;
            sum += value;
            count++;
        }
        return count == 0 ? null : sum / count;
    }
}
