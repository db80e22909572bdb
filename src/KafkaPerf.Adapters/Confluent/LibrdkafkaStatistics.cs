using System.Text.Json;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// A Confluent.Kafka producer's breakdown from librdkafka's own statistics, emitted every second (its
/// <c>statistics.interval.ms</c>) on the client's poll thread: per broker the time a record waited in librdkafka's
/// queues (<c>int_latency</c> + <c>outbuf_latency</c>) and a request's round trip (<c>rtt</c>), the broker's throttle,
/// and per topic the batch size and records per batch — each window's average over the brokers that saw any, weighted
/// by their counts. The sampler reads the latest window.
/// </summary>
/// <remarks>A consumer's (<c>consumer: true</c>) are its fetch round trip - the <c>rtt</c> of its connections to the
/// partitions' leaders, where its fetches go (the group coordinator's logical connection is left out) - and its lag, the
/// sum of its partitions' <c>consumer_lag_stored</c> (behind the offsets it stored as it consumed; <c>consumer_lag</c>,
/// behind the committed ones, is unknown until the first auto-commit, 5 s in, and lags it by up to that much).</remarks>
internal sealed class LibrdkafkaStatistics(bool consumer = false) : IClientBreakdown
{
    /// <summary>How often librdkafka emits its statistics while a breakdown is read: the default interval of the series.</summary>
    public const string IntervalMs = "1000";

    private readonly Lock _lock = new();
    private ClientBreakdown _latest;

    /// <summary>Turns librdkafka's statistics on in <paramref name="settings"/>.</summary>
    /// <param name="settings">The producer's settings.</param>
    public static void Enable(List<KeyValuePair<string, string>> settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        settings.RemoveAll(e => e.Key == "statistics.interval.ms");
        settings.Add(new("statistics.interval.ms", IntervalMs));
    }

    public ClientBreakdown ReadBreakdown()
    {
        lock (_lock) return _latest;
    }

    /// <summary>librdkafka's statistics handler: parses one window (on the client's poll thread, once a second).</summary>
    /// <param name="json">The statistics document.</param>
    public void OnStatistics(string json)
    {
        ClientBreakdown parsed;
        try
        {
            parsed = consumer ? ParseConsumer(json) : Parse(json);
        }
        catch (JsonException)
        {
            return;
        }
        lock (_lock) _latest = parsed;
    }

    /// <summary>One statistics document's breakdown.</summary>
    /// <param name="json">librdkafka's statistics.</param>
    /// <returns>The figures; <see langword="null"/> where no broker or topic had any in the window.</returns>
    internal static ClientBreakdown Parse(string json)
    {
        using var document = JsonDocument.Parse(json);
        var root = document.RootElement;
        Weighted intLatency = default, outbuf = default, rtt = default, throttle = default, batchSize = default, batchCount = default;
        if (root.TryGetProperty("brokers", out var brokers) && brokers.ValueKind == JsonValueKind.Object)
        {
            foreach (var broker in brokers.EnumerateObject())
            {
                intLatency.Add(broker.Value, "int_latency");
                outbuf.Add(broker.Value, "outbuf_latency");
                rtt.Add(broker.Value, "rtt");
                throttle.Add(broker.Value, "throttle");
            }
        }
        if (root.TryGetProperty("topics", out var topics) && topics.ValueKind == JsonValueKind.Object)
        {
            foreach (var topic in topics.EnumerateObject())
            {
                batchSize.Add(topic.Value, "batchsize");
                batchCount.Add(topic.Value, "batchcnt");
            }
        }
        double? queue = intLatency.Mean is { } i ? (i + (outbuf.Mean ?? 0)) / 1000 : null;
        return new ClientBreakdown(queue, rtt.Mean / 1000, batchSize.Mean, batchCount.Mean, throttle.Mean);
    }

    /// <summary>One statistics document of a consumer: its fetch round trip and lag.</summary>
    /// <param name="json">librdkafka's statistics.</param>
    /// <returns>The figures; the fetch time <see langword="null"/> when no fetch was answered in the window.</returns>
    internal static ClientBreakdown ParseConsumer(string json)
    {
        using var document = JsonDocument.Parse(json);
        var root = document.RootElement;
        Weighted rtt = default;
        if (root.TryGetProperty("brokers", out var brokers) && brokers.ValueKind == JsonValueKind.Object)
        {
            foreach (var broker in brokers.EnumerateObject())
            {
                // The coordinator's logical connection carries heartbeats and commits, not fetches.
                if (broker.Value.TryGetProperty("source", out var source) && source.GetString() == "logical") continue;
                if (broker.Value.TryGetProperty("nodeid", out var node) && node.TryGetInt32(out int id) && id < 0) continue;
                rtt.Add(broker.Value, "rtt");
            }
        }
        long? lag = null;
        if (root.TryGetProperty("topics", out var topics) && topics.ValueKind == JsonValueKind.Object)
        {
            foreach (var topic in topics.EnumerateObject())
            {
                if (!topic.Value.TryGetProperty("partitions", out var partitions) || partitions.ValueKind != JsonValueKind.Object) continue;
                foreach (var partition in partitions.EnumerateObject())
                {
                    // -1: librdkafka's internal unassigned partition, and an unknown lag.
                    if (partition.Name == "-1") continue;
                    if ((Lag(partition.Value, "consumer_lag_stored") ?? Lag(partition.Value, "consumer_lag")) is { } partitionLag)
                        lag = (lag ?? 0) + partitionLag;
                }
            }
        }
        return new ClientBreakdown(null, null, null, null, null, FetchMs: rtt.Mean / 1000, Lag: lag);
    }

    /// <summary>A partition's lag figure; none when absent or unknown (-1).</summary>
    private static long? Lag(JsonElement partition, string name) =>
        partition.TryGetProperty(name, out var value) && value.TryGetInt64(out long lag) && lag >= 0 ? lag : null;

    /// <summary>A window average over several brokers or topics, weighted by their sample counts.</summary>
    private struct Weighted
    {
        private double _sum;
        private long _count;

        public readonly double? Mean => _count > 0 ? _sum / _count : null;

        public void Add(JsonElement owner, string name)
        {
            if (!owner.TryGetProperty(name, out var window) || window.ValueKind != JsonValueKind.Object) return;
            if (!window.TryGetProperty("cnt", out var cnt) || !cnt.TryGetInt64(out long count) || count <= 0) return;
            if (!window.TryGetProperty("avg", out var avg) || !avg.TryGetDouble(out double value)) return;
            _sum += value * count;
            _count += count;
        }
    }
}
