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

    [Fact]
    public void ParseConsumer_FetchRoundTripFromTheLeaders_LagSummedOverThePartitions()
    {
        var b = LibrdkafkaStatistics.ParseConsumer("""
            {
              "type": "consumer",
              "brokers": {
                "GroupCoordinator": { "nodeid": 1, "source": "logical", "rtt": { "avg": 900000, "cnt": 3 } },
                "127.0.0.1:9092/bootstrap": { "nodeid": -1, "source": "configured", "rtt": { "avg": 50000, "cnt": 2 } },
                "127.0.0.1:9092/1": { "nodeid": 1, "source": "learned", "rtt": { "avg": 12000, "cnt": 30 } },
                "127.0.0.1:9093/2": { "nodeid": 2, "source": "learned", "rtt": { "avg": 2000, "cnt": 10 } }
              },
              "topics": {
                "t": { "partitions": {
                  "0": { "consumer_lag": -1, "consumer_lag_stored": 100 }, "1": { "consumer_lag": 250 }, "2": { "consumer_lag": -1, "consumer_lag_stored": -1 },
                  "-1": { "consumer_lag": 7 } } }
              }
            }
            """);

        // The coordinator's heartbeats and the bootstrap connection are left out: (12 × 30 + 2 × 10) / 40 ms.
        Assert.Equal((12.0 * 30 + 2.0 * 10) / 40, b.FetchMs!.Value, 6);
        // Behind the stored offsets where librdkafka says it (partition 0: no commit yet), else behind the committed ones;
        // partition 2's lag is unknown (-1) and "-1" is librdkafka's internal partition.
        Assert.Equal(350, b.Lag!.Value, 6);
        Assert.Null(b.QueueMs);
        Assert.Null(b.RequestMs);
    }
}
