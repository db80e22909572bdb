using System.Diagnostics;
using System.Text.Json;
using KafkaPerf.Tests.Shared;

namespace KafkaPerf.Cli.Tests;

/// <summary>
/// The multi-host case on one machine: a broker in one container, two workers in two more and the coordinator in a
/// fourth, each with its own address on a Docker network, all from the tool's own image (eng/build-tool-image.sh).
/// </summary>
public sealed class ContainerWorkerTests : IDisposable
{
    private readonly string _id = Guid.NewGuid().ToString("N")[..8];
    private readonly DirectoryInfo _output = Directory.CreateTempSubdirectory("kafkaperf-containers-");

    private string Network => "kafkaperf-test-" + _id;

    public void Dispose()
    {
        foreach (var name in new[] { "kafka", "w1", "w2", "run" }) Docker(TimeSpan.FromSeconds(30), "rm", "-f", $"{name}-{_id}");
        Docker(TimeSpan.FromSeconds(30), "network", "rm", Network);
        // Files the containers (root) wrote: deleted through a container when this process may not.
        try
        {
            _output.Delete(recursive: true);
        }
        catch (UnauthorizedAccessException)
        {
        }
    }

    [Fact]
    public async Task TwoWorkerContainersAndACoordinatorContainer_RunAPlanAgainstABrokerContainer()
    {
        if (TestDocker.WhyUnavailable() is { } why) Assert.Skip(why);
        var (built, image, buildLog) = Build();
        Assert.True(built == 0, buildLog);
        image = image.Trim().Split('\n')[^1];

        Assert.Equal(0, Docker(TimeSpan.FromSeconds(30), "network", "create", Network).Exit);
        Assert.Equal(0, Docker(TimeSpan.FromSeconds(60), "run", "-d", "--network", Network, "--name", $"kafka-{_id}", "--network-alias", "kafka",
            "-e", "KAFKA_ADVERTISED_LISTENERS=PLAINTEXT://kafka:9092", "-e", "KAFKA_HEAP_OPTS=-Xmx512m", TestDocker.Image).Exit);
        // The coordinator checks its cluster for 30 s, as a user's run does; a CI machine busy with other tests took
        // longer than that to start the broker's JVM, so the test starts the coordinator once the broker says it serves.
        Assert.True(await BrokerStarted(TimeSpan.FromMinutes(3)), "the broker container did not start within 3 min" + Logs("kafka"));
        foreach (var worker in new[] { "w1", "w2" })
        {
            // Configured from the environment only, as in a Kubernetes Job; named after nothing: host/pid, the host the container's own.
            Assert.Equal(0, Docker(TimeSpan.FromSeconds(60), "run", "-d", "--network", Network, "--name", $"{worker}-{_id}",
                "-e", "KAFKAPERF_WORKER__GROUP=g" + _id, "-e", "KAFKAPERF_WORKER__BOOTSTRAP=kafka:9092", image, "worker").Exit);
        }

        var (exit, output) = Docker(TimeSpan.FromMinutes(4), "run", "--name", $"run-{_id}", "--network", Network, "-v", $"{_output.FullName}:/work/out",
            image, "run", "--workers", "g" + _id, "--expect", "2", "--bootstrap", "kafka:9092", "--clients", "confluent", "--scenarios", "produce,roundtrip",
            "--sizes", "100", "--rate", "2000", "--duration", "2s", "--warmup", "500ms", "--repeat", "1", "--stall-timeout", "60s",
            "--join-timeout", "120s", "--format", "json", "--output", "out");

        Assert.True(exit == 0, output + Logs("w1") + Logs("w2"));
        Assert.Contains("2 worker(s) of group 'g" + _id + "' run the plan", output, StringComparison.Ordinal);
        using var json = JsonDocument.Parse(File.ReadAllText(Assert.Single(_output.GetFiles("*.json")).FullName));
        var runs = json.RootElement.GetProperty("runs").EnumerateArray().ToList();
        Assert.Equal(2, runs.Count);
        foreach (var run in runs)
        {
            Assert.True(run.GetProperty("succeeded").GetBoolean(), run.ToString());
            var parts = run.GetProperty("workers").EnumerateArray().ToList();
            Assert.Equal(2, parts.Count);
            // Two hosts: each container its own.
            Assert.Equal(2, parts.Select(p => p.GetProperty("host").GetString()).Distinct().Count());
            Assert.Equal(run.GetProperty("sent").GetInt64(), parts.Sum(p => p.GetProperty("sent").GetInt64()));
        }
    }

    private async Task<bool> BrokerStarted(TimeSpan within)
    {
        var deadline = DateTime.UtcNow + within;
        while (DateTime.UtcNow < deadline)
        {
            if (Docker(TimeSpan.FromSeconds(30), "logs", $"kafka-{_id}").Output.Contains("Kafka Server started", StringComparison.Ordinal)) return true;
            await Task.Delay(TimeSpan.FromSeconds(1));
        }
        return false;
    }

    private string Logs(string name) => "\n--- " + name + ":\n" + Docker(TimeSpan.FromSeconds(30), "logs", $"{name}-{_id}").Output;

    /// <summary>The tool's image, built from the build the tests run on (idempotent).</summary>
    private static (int Exit, string Image, string Log) Build()
    {
        var root = AppContext.BaseDirectory;
        while (!File.Exists(Path.Combine(root, "KafkaPerf.sln"))) root = Path.GetDirectoryName(root) ?? throw new InvalidOperationException("no KafkaPerf.sln above the tests");
        return Run("bash", TimeSpan.FromMinutes(5), Path.Combine(root, "eng", "build-tool-image.sh"));
    }

    private static (int Exit, string Output) Docker(TimeSpan timeout, params string[] args)
    {
        var (exit, stdout, stderr) = Run("docker", timeout, args);
        return (exit, stdout + stderr);
    }

    private static (int Exit, string Stdout, string Stderr) Run(string file, TimeSpan timeout, params string[] args) => ExternalProcess.Run(file, timeout, args);
}
