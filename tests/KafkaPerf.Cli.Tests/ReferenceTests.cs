using System.Text.Json;

namespace KafkaPerf.Cli.Tests;

/// <summary>The reference tools beside a client, end to end: the built tool, the embedded broker, kcat and Kafka's perf tools.</summary>
public class ReferenceTests
{
    [Fact]
    public async Task Run_WithKcatAndKafkaToolsReferences_RowsInCsvJsonAndMarkdown()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            var (exit, stdout, stderr) = await CliProcess.RunAsync(null,
                "run", "--clients", "confluent", "--references", "kcat,kafka-tools", "--scenarios", "produce,consume,roundtrip",
                "--messages", "2000", "--sizes", "100", "--repeat", "2", "--broker-heap", "256", "--output", output.FullName);

            Assert.True(exit == 0, stderr);
            Assert.Contains("references kcat, kafka-tools in produce and consume cells, without warm-up", stderr, StringComparison.Ordinal);
            foreach (var scenario in new[] { "produce", "consume" })
            {
                foreach (var client in new[] { "confluent", "kcat", "kafka-tools" })
                    Assert.Contains($"| {scenario} | defaults | {client} | 2 000 | 100 | 2 | 0 |", stdout, StringComparison.Ordinal);
            }
            Assert.Contains("| roundtrip | defaults | confluent | 2 000 | 100 | 2 | 0 |", stdout, StringComparison.Ordinal);
            Assert.DoesNotContain("| roundtrip | defaults | kcat |", stdout, StringComparison.Ordinal);
            Assert.DoesNotContain("| roundtrip | defaults | kafka-tools |", stdout, StringComparison.Ordinal);
            Assert.Contains("## Produce · defaults — kcat vs confluent", stdout, StringComparison.Ordinal);
            Assert.Contains("## Consume · defaults — kafka-tools vs confluent", stdout, StringComparison.Ordinal);

            // CSV: every reference run measured and succeeded, two per cell, no warm-up, no roundtrip.
            var csv = File.ReadAllLines(output.GetFiles("*.csv").Single().FullName);
            var header = csv[0].Split(',');
            int Column(string name) => Array.IndexOf(header, name);
            var rows = csv.Skip(1).Select(line => line.Split(',')).ToList();
            foreach (var reference in new[] { "kcat", "kafka-tools" })
            {
                var own = rows.Where(r => r[Column("client")] == reference).ToList();
                Assert.Equal(4, own.Count);
                Assert.All(own, r => Assert.Equal("false", r[Column("warmup")]));
                Assert.All(own, r => Assert.Equal("true", r[Column("succeeded")]));
                Assert.All(own, r => Assert.True(double.Parse(r[Column("messagesPerSecond")], System.Globalization.CultureInfo.InvariantCulture) > 0));
                Assert.Equal(["consume", "consume", "produce", "produce"], own.Select(r => r[Column("scenario")]).Order());
            }
            // kcat's own process's CPU over its timed section (the .NET tax's first step); Kafka's tools are JVMs it does not read.
            Assert.All(rows.Where(r => r[Column("client")] == "kcat"), r =>
                Assert.True(double.Parse(r[Column("cpuUserSeconds")], System.Globalization.CultureInfo.InvariantCulture)
                    + double.Parse(r[Column("cpuSystemSeconds")], System.Globalization.CultureInfo.InvariantCulture) > 0, string.Join(",", r)));
            Assert.All(rows.Where(r => r[Column("client")] == "kafka-tools"), r => Assert.Equal(string.Empty, r[Column("cpuUserSeconds")]));
            // confluent: 3 scenarios × (2 runs + 1 warm-up).
            Assert.Equal(9, rows.Count(r => r[Column("client")] == "confluent"));

            // JSON: the plan names the references; each records the tool and the librdkafka or Kafka version it ran.
            using var json = JsonDocument.Parse(File.ReadAllText(output.GetFiles("*.json").Single().FullName));
            var root = json.RootElement;
            Assert.Equal(["kcat", "kafka-tools"], root.GetProperty("plan").GetProperty("references").EnumerateArray().Select(e => e.GetString()));
            var clients = root.GetProperty("clients").EnumerateArray().ToDictionary(c => c.GetProperty("name").GetString()!);
            Assert.Contains("librdkafka 2.16.0", clients["kcat"].GetProperty("libraryVersion").GetString(), StringComparison.Ordinal);
            // kcat ran on the very file confluent loaded (librdkafka.redist's), and both record it with its features.
            var confluentFile = clients["confluent"].GetProperty("details").GetProperty("librdkafka.file").GetString();
            Assert.EndsWith("librdkafka.so", confluentFile, StringComparison.Ordinal);
            Assert.Equal(confluentFile, clients["kcat"].GetProperty("details").GetProperty("librdkafka.file").GetString());
            Assert.Contains("sasl_scram", clients["kcat"].GetProperty("details").GetProperty("librdkafka.features").GetString(), StringComparison.Ordinal);
            Assert.Contains("4.3.1", clients["kafka-tools"].GetProperty("libraryVersion").GetString(), StringComparison.Ordinal);
            Assert.Equal(4, root.GetProperty("comparisons").EnumerateArray().Count(c => c.GetProperty("candidate").GetString() is "kcat" or "kafka-tools"));

            // Markdown file: the same tables as the screen.
            var markdown = File.ReadAllText(output.GetFiles("*.md").Single().FullName);
            Assert.Contains("| consume | defaults | kcat | 2 000 | 100 | 2 | 0 |", markdown, StringComparison.Ordinal);
            Assert.Contains("| produce | defaults | kafka-tools | 2 000 | 100 | 2 | 0 |", markdown, StringComparison.Ordinal);

            // Nothing left behind: no kcat, and no perf tool JVM.
            Assert.DoesNotContain(System.Diagnostics.Process.GetProcesses(), p => p.ProcessName is "kcat");
            Assert.Empty(Directory.GetDirectories(Path.GetTempPath(), "kafkaperf-kafka-tools-*"));
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }
}
