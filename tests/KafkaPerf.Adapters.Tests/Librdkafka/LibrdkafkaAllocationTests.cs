using KafkaPerf.Adapters.Librdkafka;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Adapters.Tests.Librdkafka;

/// <summary>
/// The <c>librdkafka</c> client's hot paths allocate nothing per record once warm: the send (on the sending thread), the
/// delivery report (on whichever thread served it) and the consume loop (on its poll thread). Each thread's own count
/// (<see cref="GC.GetAllocatedBytesForCurrentThread"/>) is read from inside the sinks, so tests running beside these in
/// other collections cannot add to it.
/// </summary>
[Collection(BrokerCollectionDefinition.Name)]
public sealed class LibrdkafkaAllocationTests(BrokerFixture fixture)
{
    private const int Warmup = 10_000;
    private const int Measured = 100_000;

    private ClusterConnection Connection => new(fixture.Broker.BootstrapServers, fixture.Broker.KafkaVersion);

    [Fact]
    public async Task SendDeliverAndConsume_100kRecordsAfterWarmup_NoManagedAllocationPerRecord()
    {
        await TemporaryTopic.RunAsync(new LibrdkafkaClientFactory(), Connection, async (client, topic) =>
        {
            var deliveries = new AllocationSink(Warmup);
            long sent = -1;
            Exception? failure = null;
            var sender = new Thread(() =>
            {
                try
                {
                    using var producer = client.CreateProducer(new ProducerSpec(topic, ClientSettings.SeedProfile), deliveries);
                    ReadOnlyMemory<byte> payload = new byte[100];
                    for (long key = 0; key < Warmup; key++) producer.Send(key, payload);
                    long before = GC.GetAllocatedBytesForCurrentThread();
                    for (long key = Warmup; key < Warmup + Measured; key++) producer.Send(key, payload);
                    sent = GC.GetAllocatedBytesForCurrentThread() - before;
                    producer.Flush(CancellationToken.None);
                }
                catch (Exception ex)
                {
                    failure = ex;
                }
            });
            sender.Start();
            sender.Join();

            Assert.Null(failure);
            Assert.Equal(Warmup + Measured, deliveries.Count);
            Assert.Equal(0, deliveries.Failed);

            var records = new AllocationSink(Warmup);
            using (var consumer = client.CreateConsumer(new ConsumerSpec(topic, "kafkaperf-librdkafka-alloc-" + Guid.NewGuid().ToString("N"), ClientSettings.SeedProfile, false)))
            {
                consumer.StartPolling(records);
                var deadline = DateTime.UtcNow + TimeSpan.FromMinutes(1);
                while (records.Count < Warmup + Measured && records.Error is null && DateTime.UtcNow < deadline) await Task.Delay(50);
                consumer.StopPolling();
            }

            Assert.Null(records.Error);
            Assert.Equal(Warmup + Measured, records.Count);
            Assert.Equal(Warmup + Measured, records.DistinctKeys);
            TestContext.Current.TestOutputHelper?.WriteLine(
                $"bytes allocated over {Measured} records after {Warmup} of warm-up: sends {sent}, delivery reports {deliveries.AllocatedBytes} ({deliveries.Threads} threads), consuming {records.AllocatedBytes} ({records.Threads} threads)");
            // Each measured thread was read: the sinks saw the records after the warm-up.
            Assert.True(deliveries.Threads > 0 && records.Threads > 0);
            // Zero per record: a few hundred bytes over 100 000 records would still round to 0.00 per record, and leave room
            // for a one-off (a tier-1 recompilation's bookkeeping); a byte per record would be 100 000.
            Assert.True(sent < 1_000, $"{sent} bytes allocated by {Measured} sends");
            Assert.True(deliveries.AllocatedBytes < 1_000, $"{deliveries.AllocatedBytes} bytes allocated by {Measured} delivery reports ({deliveries.Threads} threads)");
            Assert.True(records.AllocatedBytes < 1_000, $"{records.AllocatedBytes} bytes allocated while consuming {Measured} records ({records.Threads} threads)");
        });
    }

    /// <summary>Counts deliveries or records and, per thread that served them after the warm-up, the bytes that thread
    /// allocated from its first measured call to its last.</summary>
    private sealed class AllocationSink(int warmup) : IDeliverySink, IRecordSink
    {
        [ThreadStatic]
        private static Slot? t_slot;

        private readonly List<Slot> _slots = [];
        private readonly bool[] _seen = new bool[Warmup + Measured];
        private int _count;
        private int _failed;
        private int _distinct;

        public int Count => Volatile.Read(ref _count);

        public int Failed => Volatile.Read(ref _failed);

        public int DistinctKeys => Volatile.Read(ref _distinct);

        public string? Error { get; private set; }

        public int Threads
        {
            get
            {
                lock (_slots) return _slots.Count;
            }
        }

        public long AllocatedBytes
        {
            get
            {
                lock (_slots) return _slots.Sum(s => s.Last - s.First);
            }
        }

        public void OnDelivered(long key) => Observe(key);

        public void OnDelivered(long key, int partition, long offset) => Observe(key);

        public void OnDeliveryFailed(long key, string reason) => Interlocked.Increment(ref _failed);

        public void OnAssigned()
        {
        }

        public void OnRecord(long key, ReadOnlySpan<byte> value) => Observe(key);

        public void OnError(string reason) => Error = reason;

        private void Observe(long key)
        {
            if ((ulong)key < (ulong)_seen.Length && !_seen[key])
            {
                _seen[key] = true;
                Interlocked.Increment(ref _distinct);
            }
            int count = Interlocked.Increment(ref _count);
            if (count <= warmup) return;
            var slot = t_slot;
            if (slot is null || slot.Owner != this)
            {
                // Once per thread, before its first reading: what it allocates is not counted.
                slot = new Slot(this);
                lock (_slots) _slots.Add(slot);
                t_slot = slot;
                slot.First = GC.GetAllocatedBytesForCurrentThread();
            }
            slot.Last = GC.GetAllocatedBytesForCurrentThread();
        }
    }

    private sealed class Slot(object owner)
    {
        public object Owner { get; } = owner;

        public long First { get; set; }

        public long Last { get; set; }
    }
}
