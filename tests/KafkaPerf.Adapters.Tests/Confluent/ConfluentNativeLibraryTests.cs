using System.Text.RegularExpressions;
using Confluent.Kafka;
using KafkaPerf.Adapters.Confluent;

namespace KafkaPerf.Adapters.Tests.Confluent;

public partial class ConfluentNativeLibraryTests
{
    [Fact]
    public void EnsureLoaded_SystemLibrdkafka_ReportsItsVersion()
    {
        var version = ConfluentNativeLibrary.EnsureLoaded();

        Assert.Matches(VersionPattern(), version);
        Assert.Equal(version, ConfluentNativeLibrary.EnsureLoaded());
        Assert.StartsWith("2.", ConfluentNativeLibrary.ManagedVersion, StringComparison.Ordinal);
    }

    [Fact]
    public void Producer_NoBrokerListening_ReportsEveryDeliveryAsFailed()
    {
        // Proves the native library really works end to end (queueing, delivery reports, flush) without a broker:
        // nothing listens on the port, so every record must come back as a delivery failure, none silently lost.
        ConfluentNativeLibrary.EnsureLoaded();
        var config = new ProducerConfig { BootstrapServers = "127.0.0.1:1", MessageTimeoutMs = 1500, LogConnectionClose = false };
        int failed = 0, delivered = 0;
        using (var producer = new ProducerBuilder<long, byte[]>(config).SetLogHandler((_, _) => { }).Build())
        {
            for (long key = 0; key < 100; key++)
            {
                producer.Produce("kafkaperf-unreachable", new Message<long, byte[]> { Key = key, Value = new byte[16] }, report =>
                {
                    if (report.Error.IsError) Interlocked.Increment(ref failed);
                    else Interlocked.Increment(ref delivered);
                });
            }
            Assert.Equal(0, producer.Flush(TimeSpan.FromSeconds(30)));
        }

        Assert.Equal(100, failed);
        Assert.Equal(0, delivered);
    }

    [GeneratedRegex(@"^\d+\.\d+\.\d+")]
    private static partial Regex VersionPattern();
}
