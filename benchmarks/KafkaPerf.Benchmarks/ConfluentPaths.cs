using System.Diagnostics;
using System.Globalization;
using Confluent.Kafka;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Benchmarks;

/// <summary>
/// Where the time of a confluent produce goes: the adapter as the benchmark runs it (send→ack latency recorded),
/// the adapter with a sink that only counts, and plain Confluent.Kafka code as users write it - with a delivery
/// handler and a new message per record, and fire-and-forget (no handler). Same embedded broker, same settings
/// (acks=1, linger.ms=100, batch.size=1000000), 100-byte payloads, the variants alternating in reversed order every
/// round after a warm-up round; every record is checked acknowledged where a handler exists. A fifth variant polls on
/// the sending thread instead of Confluent.Kafka's poll thread, as kcat does. Prints each run's time, rate, bytes
/// allocated per record by the whole process (GC.GetTotalAllocatedBytes), process CPU per record and the garbage
/// collections, then the medians; last, how long the first record of a fresh producer takes, adapter against plain code.
/// </summary>
internal static class ConfluentPaths
{
    private static readonly string[] Variants =
        ["adapter", "adapter, counting sink", "Confluent.Kafka + handler", "Confluent.Kafka, no handler", "adapter-style, manual poll"];

    public static async Task<int> RunAsync(int rounds, int messages)
    {
        await using var broker = await EmbeddedKafkaBroker.StartAsync();
        await using var client = new ConfluentClientFactory().Create(new KafkaEndpoint(broker.BootstrapServers));
        var settings = new ClientSettings { Acks = AcksMode.Leader, LingerMs = 100, BatchSizeBytes = 1_000_000 };
        var payload = new byte[100];
        Random.Shared.NextBytes(payload);
        var times = Variants.ToDictionary(v => v, _ => new List<double>());
        var allocations = Variants.ToDictionary(v => v, _ => new List<double>());
        var cpu = Variants.ToDictionary(v => v, _ => new List<double>());
        int topicNumber = 0;
        Console.WriteLine($"{messages:N0} records x 100 B to Kafka {broker.KafkaVersion} at {broker.BootstrapServers}, {ConfluentNativeLibrary.EnsureLoaded().Describe()}");
        for (int round = 0; round <= rounds; round++)
        {
            foreach (var variant in round % 2 == 0 ? Variants : Variants.Reverse())
            {
                var topic = $"paths-{topicNumber++}";
                await client.CreateTopicAsync(new TopicSpec(topic), default);
                GC.Collect();
                GC.WaitForPendingFinalizers();
                GC.Collect();
                long allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
                var (gen0, gen1, gen2, pause) = (GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2), GC.GetTotalPauseDuration());
                var cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
                double seconds = variant switch
                {
                    "adapter" => Scenario.Produce.Run(new ScenarioContext
                    {
                        Client = client, Topic = topic, MessageCount = messages, Payload = payload, Settings = settings,
                    }, default) is { Succeeded: true } m ? m.ElapsedSeconds : throw new InvalidOperationException("adapter run failed"),
                    "adapter, counting sink" => AdapterCounting(client, topic, settings, payload, messages),
                    "adapter-style, manual poll" => ManualPoll(broker.BootstrapServers, topic, payload, messages),
                    _ => Plain(broker.BootstrapServers, topic, payload, messages, withHandler: variant.Contains("handler", StringComparison.Ordinal) && !variant.Contains("no handler", StringComparison.Ordinal)),
                };
                double bytesPerRecord = (GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore) / (double)messages;
                double cpuMicros = (Process.GetCurrentProcess().TotalProcessorTime - cpuBefore).TotalMicroseconds / messages;
                var gcs = $"GCs {GC.CollectionCount(0) - gen0}/{GC.CollectionCount(1) - gen1}/{GC.CollectionCount(2) - gen2}, pause {(GC.GetTotalPauseDuration() - pause).TotalMilliseconds:0} ms";
                await client.DeleteTopicAsync(topic, default);
                var label = round == 0 ? "warm-up" : $"round {round}";
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"{label,-8} {variant,-28} {seconds,7:0.000} s {messages / seconds,11:N0} msg/s {bytesPerRecord,6:0} B/record {cpuMicros,5:0.00} µs CPU/record  {gcs}"));
                if (round == 0) continue;
                times[variant].Add(seconds);
                allocations[variant].Add(bytesPerRecord);
                cpu[variant].Add(cpuMicros);
            }
        }
        Console.WriteLine();
        Console.WriteLine("| variant | median s | median msg/s | allocated B/record | process CPU µs/record |");
        Console.WriteLine("|---|---:|---:|---:|---:|");
        foreach (var variant in Variants)
        {
            double median = Median(times[variant]);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {variant} | {median:0.000} | {messages / median:N0} | {Median(allocations[variant]):0} | {Median(cpu[variant]):0.00} |"));
        }

        // The first record of a fresh producer: the adapter has fetched metadata and connected to the leader before
        // timing; plain code pays both on its first send. linger.ms=0, one record, flushed.
        Console.WriteLine();
        for (int i = 0; i < 3; i++)
        {
            var topic = $"paths-first-{i}";
            await client.CreateTopicAsync(new TopicSpec(topic), default);
            double adapter, plain;
            using (var producer = client.CreateProducer(new ProducerSpec(topic, new ClientSettings { LingerMs = 0 }), new CountingSink()))
            {
                long start = Stopwatch.GetTimestamp();
                producer.Send(0, payload);
                producer.Flush(default);
                adapter = Stopwatch.GetElapsedTime(start).TotalMilliseconds;
            }
            using (var producer = new ProducerBuilder<long, byte[]>(new ProducerConfig { BootstrapServers = broker.BootstrapServers, LingerMs = 0 }).Build())
            {
                long start = Stopwatch.GetTimestamp();
                producer.Produce(topic, new Message<long, byte[]> { Key = 1, Value = payload }, _ => { });
                producer.Flush(TimeSpan.FromSeconds(30));
                plain = Stopwatch.GetElapsedTime(start).TotalMilliseconds;
            }
            await client.DeleteTopicAsync(topic, default);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"first record sent and acknowledged: adapter {adapter:0.0} ms, plain producer {plain:0.0} ms"));
        }
        return 0;
    }

    /// <summary>The adapter's choices (one reused message, key-only reports, short waits) with Confluent.Kafka's
    /// background poll thread off: delivery reports are served on the sending thread, every 1 000 sends.</summary>
    private static double ManualPoll(string bootstrap, string topic, byte[] payload, int messages)
    {
        var config = new ProducerConfig { BootstrapServers = bootstrap, Acks = Acks.Leader, LingerMs = 100, BatchSize = 1_000_000 };
        config.Set("dotnet.producer.delivery.report.fields", "key");
        config.Set("dotnet.producer.enable.background.poll", "false");
        using var producer = new ProducerBuilder<long, byte[]>(config).SetLogHandler((_, _) => { }).Build();
        using (var admin = new DependentAdminClientBuilder(producer.Handle).Build()) admin.GetMetadata(topic, TimeSpan.FromSeconds(30));
        long delivered = 0;
        Action<DeliveryReport<long, byte[]>> handler = report =>
        {
            if (!report.Error.IsError) delivered++;
        };
        var partition = new TopicPartition(topic, Partition.Any);
        var message = new Message<long, byte[]> { Value = payload, Headers = [] };
        long start = Stopwatch.GetTimestamp();
        for (long key = 0; key < messages; key++)
        {
            message.Key = key;
            while (true)
            {
                try
                {
                    producer.Produce(partition, message, handler);
                    break;
                }
                catch (ProduceException<long, byte[]> ex) when (ex.Error.Code == ErrorCode.Local_QueueFull)
                {
                    producer.Poll(TimeSpan.FromMilliseconds(5));
                }
            }
            if (key % 1000 == 0) producer.Poll(TimeSpan.Zero);
        }
        while (producer.Flush(TimeSpan.FromMilliseconds(1)) > 0)
        {
        }
        var seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
        return delivered == messages ? seconds : throw new InvalidOperationException($"{delivered} of {messages} acknowledged");
    }

    private static double AdapterCounting(IBenchClient client, string topic, ClientSettings settings, byte[] payload, int messages)
    {
        var sink = new CountingSink();
        using var producer = client.CreateProducer(new ProducerSpec(topic, settings), sink);
        long start = Stopwatch.GetTimestamp();
        for (long key = 0; key < messages; key++) producer.Send(key, payload);
        producer.Flush(default);
        var seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
        return sink.Delivered == messages ? seconds : throw new InvalidOperationException($"{sink.Delivered} of {messages} acknowledged");
    }

    /// <summary>Producer code as the Confluent.Kafka documentation shows it: a new message per record.</summary>
    private static double Plain(string bootstrap, string topic, byte[] payload, int messages, bool withHandler)
    {
        var config = new ProducerConfig { BootstrapServers = bootstrap, Acks = Acks.Leader, LingerMs = 100, BatchSize = 1_000_000 };
        using var producer = new ProducerBuilder<long, byte[]>(config).SetLogHandler((_, _) => { }).Build();
        using (var admin = new DependentAdminClientBuilder(producer.Handle).Build()) admin.GetMetadata(topic, TimeSpan.FromSeconds(30));
        long delivered = 0;
        Action<DeliveryReport<long, byte[]>> handler = report =>
        {
            if (!report.Error.IsError) Interlocked.Increment(ref delivered);
        };
        long start = Stopwatch.GetTimestamp();
        for (long key = 0; key < messages; key++)
        {
            var message = new Message<long, byte[]> { Key = key, Value = payload };
            while (true)
            {
                try
                {
                    if (withHandler) producer.Produce(topic, message, handler);
                    else producer.Produce(topic, message);
                    break;
                }
                catch (ProduceException<long, byte[]> ex) when (ex.Error.Code == ErrorCode.Local_QueueFull)
                {
                    producer.Poll(TimeSpan.FromMilliseconds(50));
                }
            }
        }
        producer.Flush(TimeSpan.FromMinutes(2));
        var seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
        if (withHandler && delivered != messages) throw new InvalidOperationException($"{delivered} of {messages} acknowledged");
        return seconds;
    }

    private static double Median(List<double> values)
    {
        var sorted = values.Order().ToList();
        return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[sorted.Count / 2 - 1] + sorted[sorted.Count / 2]) / 2;
    }

    private sealed class CountingSink : IDeliverySink
    {
        private long _delivered;

        public long Delivered => Volatile.Read(ref _delivered);

        public void OnDelivered(long key) => Interlocked.Increment(ref _delivered);

        public void OnDeliveryFailed(long key, string reason)
        {
        }
    }
}
