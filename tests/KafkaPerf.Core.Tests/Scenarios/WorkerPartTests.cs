using System.Text.Json;
using System.Text.Json.Nodes;
using KafkaPerf.Measurement;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Scenarios;

public class WorkerPartTests
{
    [Fact]
    public void Json_IsTheWorkersFiguresFlatAndReadsBackIntoARecord()
    {
        var histogram = Histograms.Create();
        for (int i = 1; i <= 1000; i++) histogram.RecordValue(i * 1000L);
        var part = new WorkerPart
        {
            Worker = "w1", Index = 1, Host = "h", ProcessId = 7, Version = "v", Records = 500, Producers = 2,
            Run = new RunRecord { Sent = 500, Delivered = 500, ElapsedSeconds = 2, AchievedRate = 250, Producers = 2, ResponseTimeHistogram = histogram },
        };

        var json = JsonNode.Parse(JsonSerializer.Serialize(part, ResultJson.Options))!.AsObject();
        var read = JsonSerializer.Deserialize<WorkerPart>(json.ToJsonString(), ResultJson.Options)!;

        Assert.Equal(
            ["worker", "index", "host", "processId", "version", "records", "producers", "sent", "delivered", "received", "lost", "notVerified", "startedLateSeconds", "duplicates", "elapsedSeconds", "achievedRate", "latency"],
            json.Select(p => p.Key));
        Assert.Equal(500, (long)json["sent"]!);
        Assert.Equal(1000.0, (double)json["latency"]!["maxMicros"]!, 0);
        Assert.Equal((part.Sent, part.Producers, part.ElapsedSeconds, part.AchievedRate, part.Latency!.P99Micros), (read.Sent, read.Producers, read.ElapsedSeconds, read.AchievedRate, read.Latency!.P99Micros));
        Assert.Null(read.Error);
    }

    [Fact]
    public void AWorkerThatSentNothingBack_ItsShareIsNotVerifiedNotLostAndItSaysWhy()
    {
        var part = new WorkerPart { Worker = "w0", Index = 0, Records = 6_000, Producers = 3, Error = "stopped answering during run 3" };

        // Nothing is known of its records: not verified, never counted lost.
        Assert.Equal((0, 6_000, 3, 0), (part.Lost, part.NotVerified, part.Producers, part.Sent));
        Assert.True(double.IsNaN(part.ElapsedSeconds));
        Assert.Equal("stopped answering during run 3", part.Error);
    }

    [Fact]
    public void AWorkerWhoseRunFailedVerification_SaysWhatItFound()
    {
        var part = new WorkerPart { Worker = "w0", Index = 0, Records = 10, Run = new RunRecord { Sent = 10, Lost = 2, ElapsedSeconds = 1 } };

        Assert.Equal("verification failed: 2 lost, 0 duplicated, 0 unexpected, 0 payload mismatches", part.Error);
        Assert.True(double.IsNaN(part.ElapsedSeconds));
    }
}
