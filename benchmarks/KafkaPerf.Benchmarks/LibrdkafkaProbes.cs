using System.Diagnostics;
using System.Globalization;
using Confluent.Kafka;
using Confluent.Kafka.Admin;

namespace KafkaPerf.Benchmarks;

/// <summary>
/// What Confluent.Kafka (librdkafka) costs around a run, against any broker (start one with <c>dotnet kafkaperf broker</c>):
/// <c>create-topics</c> times N topics created in N requests at once against N in one request; <c>client-start</c> times a
/// new producer handle's first metadata request (librdkafka's defaults, then with <c>enable.sparse.connections=false</c>)
/// and a new group's consumer from its start to its partition's assignment and its first record, subscribed and assigned.
/// Three rounds each, one line per round; every topic it creates it deletes.
/// </summary>
internal static class LibrdkafkaProbes
{
    public static async Task<int> CreateTopicsAsync(string bootstrap, int count)
    {
        using var admin = new AdminClientBuilder(new AdminClientConfig { BootstrapServers = bootstrap }).Build();
        admin.GetMetadata(TimeSpan.FromSeconds(10));
        foreach (bool together in new[] { false, true, false, true, false, true })
        {
            var names = Enumerable.Range(0, count).Select(i => $"kafkaperf-probe-{i}-{Guid.NewGuid():N}").ToList();
            var specs = names.Select(n => new TopicSpecification { Name = n, NumPartitions = 1, ReplicationFactor = 1 }).ToList();
            var watch = Stopwatch.StartNew();
            if (together) await admin.CreateTopicsAsync(specs);
            else await Task.WhenAll(specs.Select(s => admin.CreateTopicsAsync([s])));
            double created = watch.Elapsed.TotalMilliseconds;
            await admin.DeleteTopicsAsync(names);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{count} topics in {(together ? "one request" : $"{count} requests at once")}: {created:0} ms"));
        }
        return 0;
    }

    public static async Task<int> ClientStartAsync(string bootstrap)
    {
        string topic = $"kafkaperf-probe-{Guid.NewGuid():N}";
        using var admin = new AdminClientBuilder(new AdminClientConfig { BootstrapServers = bootstrap }).Build();
        await admin.CreateTopicsAsync([new TopicSpecification { Name = topic, NumPartitions = 1, ReplicationFactor = 1 }]);
        try
        {
            using (var producer = new ProducerBuilder<Null, byte[]>(new ProducerConfig { BootstrapServers = bootstrap }).Build())
            {
                for (int i = 0; i < 1_000; i++) producer.Produce(topic, new Message<Null, byte[]> { Value = new byte[100] });
                producer.Flush(TimeSpan.FromSeconds(30));
            }
            for (int round = 0; round < 3; round++)
            {
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"first metadata of a new producer: {FirstMetadata(bootstrap, topic, sparse: true):0.0} ms by default, {FirstMetadata(bootstrap, topic, sparse: false):0.0} ms with enable.sparse.connections=false"));
            }
            for (int round = 0; round < 3; round++)
            {
                foreach (bool subscribe in new[] { true, false })
                {
                    var (assigned, first) = FirstRecord(bootstrap, topic, subscribe);
                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                        $"{(subscribe ? "subscribed" : "assigned at Offset.Beginning")}: assigned after {assigned:0.0} ms, first record {first - assigned:0.0} ms after that"));
                }
            }
        }
        finally
        {
            await admin.DeleteTopicsAsync([topic]);
        }
        return 0;
    }

    private static double FirstMetadata(string bootstrap, string topic, bool sparse)
    {
        var config = new ProducerConfig { BootstrapServers = bootstrap };
        if (!sparse) config.Set("enable.sparse.connections", "false");
        using var producer = new ProducerBuilder<Null, byte[]>(config).Build();
        using var admin = new DependentAdminClientBuilder(producer.Handle).Build();
        var watch = Stopwatch.StartNew();
        admin.GetMetadata(topic, TimeSpan.FromSeconds(10));
        return watch.Elapsed.TotalMilliseconds;
    }

    private static (double Assigned, double FirstRecord) FirstRecord(string bootstrap, string topic, bool subscribe)
    {
        var watch = Stopwatch.StartNew();
        double assigned = double.NaN;
        var config = new ConsumerConfig { BootstrapServers = bootstrap, GroupId = $"kafkaperf-probe-{Guid.NewGuid():N}", AutoOffsetReset = AutoOffsetReset.Earliest };
        using var consumer = new ConsumerBuilder<Ignore, byte[]>(config)
            .SetPartitionsAssignedHandler((_, _) => assigned = watch.Elapsed.TotalMilliseconds).Build();
        if (subscribe)
        {
            consumer.Subscribe(topic);
        }
        else
        {
            consumer.Assign(new TopicPartitionOffset(topic, 0, Offset.Beginning));
            assigned = watch.Elapsed.TotalMilliseconds;
        }
        var record = consumer.Consume(TimeSpan.FromSeconds(10)) ?? throw new InvalidOperationException("No record within 10 s.");
        double first = watch.Elapsed.TotalMilliseconds;
        consumer.Close();
        return (assigned, first);
    }
}
