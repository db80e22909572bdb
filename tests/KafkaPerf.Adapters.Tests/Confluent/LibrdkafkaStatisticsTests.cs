using KafkaPerf.Adapters.Confluent;

namespace KafkaPerf.Adapters.Tests.Confluent;

/// <summary>librdkafka's statistics document read into a producer's breakdown: windows weighted by their counts, the
/// bootstrap pseudo-broker and empty windows left out, microseconds turned into milliseconds.</summary>
public sealed class LibrdkafkaStatisticsTests
{
    private const string Statistics = """
        {
          "name": "kafkaperf-confluent#producer-1", "type": "producer", "ts": 1,
          "brokers": {
            "127.0.0.1:9092/bootstrap": { "nodeid": -1,
              "int_latency": { "avg": 0, "cnt": 0 }, "outbuf_latency": { "avg": 0, "cnt": 0 }, "rtt": { "avg": 0, "cnt": 0 }, "throttle": { "avg": 0, "cnt": 0 } },
            "127.0.0.1:9092/1": { "nodeid": 1,
              "int_latency": { "min": 10, "max": 9000, "avg": 4000, "cnt": 300 },
              "outbuf_latency": { "avg": 100, "cnt": 20 },
              "rtt": { "avg": 1500, "cnt": 20 },
              "throttle": { "avg": 0, "cnt": 20 } },
            "127.0.0.1:9093/2": { "nodeid": 2,
              "int_latency": { "avg": 2000, "cnt": 100 },
              "outbuf_latency": { "avg": 500, "cnt": 5 },
              "rtt": { "avg": 4000, "cnt": 5 },
              "throttle": { "avg": 10000, "cnt": 5 } }
          },
          "topics": {
            "t": { "topic": "t", "batchsize": { "avg": 16000, "cnt": 25 }, "batchcnt": { "avg": 150, "cnt": 25 }, "partitions": {} }
          }
        }
        """;

    [Fact]
    public void Parse_WeightsEachBrokersWindowByItsCount_InMilliseconds()
    {
        var b = LibrdkafkaStatistics.Parse(Statistics);

        // int_latency (4 000 × 300 + 2 000 × 100) / 400 = 3 500 µs, outbuf (100 × 20 + 500 × 5) / 25 = 180 µs.
        Assert.Equal(3.68, b.QueueMs!.Value, 6);
        Assert.Equal((1.5 * 20 + 4.0 * 5) / 25, b.RequestMs!.Value, 6);
        // librdkafka counts throttling in milliseconds already.
        Assert.Equal(10_000.0 * 5 / 25, b.ThrottleMs!.Value, 6);
        Assert.Equal(16_000, b.BatchBytes!.Value, 6);
        Assert.Equal(150, b.RecordsPerRequest!.Value, 6);
    }

    [Fact]
    public void Parse_NoWindowWithSamples_SaysNothingRatherThanZero()
    {
        var b = LibrdkafkaStatistics.Parse("""{ "brokers": { "b/1": { "int_latency": { "avg": 0, "cnt": 0 } } }, "topics": {} }""");

        Assert.Null(b.QueueMs);
        Assert.Null(b.RequestMs);
        Assert.Null(b.BatchBytes);
    }
}
