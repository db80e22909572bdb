using System.Net;
using System.Net.Sockets;

namespace KafkaPerf.Cli.Tests;

/// <summary><c>--otel</c> as a user runs it: the tool in a child process with an environment of its own.</summary>
public class OtelTests
{
    [Fact]
    public async Task Run_OtelConsole_PrintsEachMetricOnceWithItsTotalsAndEverySpanOnStandardError()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            var (exit, stdout, err) = await CliProcess.RunAsync(null, "run", "--clients", "inmemory", "--scenarios", "produce,roundtrip",
                "--messages", "1000", "--sizes", "100", "--repeat", "2", "--otel", "console", "--output", output.FullName);

            Assert.True(exit == 0, err);
            // Two measured runs and the warm-up per cell, 1 000 messages of 100 bytes each.
            Assert.Contains("otel: kafkaperf.messages.produced{client=inmemory,payload.bytes=100,scenario=produce} 3000 {message}", err, StringComparison.Ordinal);
            Assert.Contains("otel: kafkaperf.bytes.produced{client=inmemory,payload.bytes=100,scenario=produce} 300000 By", err, StringComparison.Ordinal);
            Assert.Contains("otel: kafkaperf.messages.consumed{client=inmemory,payload.bytes=100,scenario=roundtrip} 3000 {message}", err, StringComparison.Ordinal);
            // The measured runs' latencies only.
            Assert.Contains("otel: kafkaperf.produce_consume.latency{client=inmemory,payload.bytes=100,scenario=roundtrip} count=2000 ", err, StringComparison.Ordinal);
            var lines = err.Split('\n', StringSplitOptions.TrimEntries);
            Assert.Equal(lines.Length, lines.Distinct(StringComparer.Ordinal).Count());
            // Spans through the host's tracer provider: one line each, 6 runs, 2 cells, 1 plan; none on standard output.
            Assert.Equal(6, lines.Count(l => l.StartsWith("otel: span kafkaperf run ", StringComparison.Ordinal)));
            Assert.Equal(2, lines.Count(l => l.StartsWith("otel: span kafkaperf cell ", StringComparison.Ordinal)));
            Assert.Single(lines, l => l.StartsWith("otel: span kafkaperf plan ", StringComparison.Ordinal));
            Assert.Contains(lines, l => l.StartsWith("otel: span kafkaperf run ", StringComparison.Ordinal) && l.Contains("client=inmemory,scenario=roundtrip", StringComparison.Ordinal));
            Assert.DoesNotContain("otel", stdout, StringComparison.Ordinal);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Run_OtlpEndpointUnreachable_WarnsOnceAndTheRunSucceeds()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            var environment = new Dictionary<string, string?> { ["OTEL_EXPORTER_OTLP_ENDPOINT"] = $"http://127.0.0.1:{ClosedPort()}" };

            var (exit, stdout, err) = await CliProcess.RunAsync(environment, "run", "--clients", "inmemory", "--scenarios", "produce",
                "--messages", "1000", "--sizes", "100", "--repeat", "2", "--otel", "otlp", "--output", output.FullName);

            Assert.True(exit == 0, err);
            Assert.Contains("## Per-client statistics", stdout, StringComparison.Ordinal);
            var warning = Assert.Single(err.Split('\n'), l => l.Contains("OpenTelemetry export", StringComparison.Ordinal));
            Assert.StartsWith("kafkaperf: warning: OpenTelemetry export to http://127.0.0.1:", warning, StringComparison.Ordinal);
            Assert.Single(output.GetFiles("*.json"));
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Theory]
    [InlineData("bogus")]
    [InlineData("console,prometheus")]
    public async Task Run_OtelUnknownTarget_OneLineAndExitCode2(string value)
    {
        var (exit, _, err) = await CliProcess.RunAsync(null, "run", "--clients", "inmemory", "--otel", value);

        Assert.Equal(2, exit);
        Assert.Equal("kafkaperf: Unknown --otel '" + value.Split(',')[^1] + "': use otlp and/or console.", err.Trim());
    }

    /// <summary>A loopback port nothing listens on (bound, then let go).</summary>
    private static int ClosedPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }
}
