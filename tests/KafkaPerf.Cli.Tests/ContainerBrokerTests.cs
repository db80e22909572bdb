using KafkaPerf.Tests.Shared;

namespace KafkaPerf.Cli.Tests;

/// <summary><c>run --broker testcontainers[:IMAGE]</c> as a user runs it, for real.</summary>
public class ContainerBrokerTests
{
    [Fact]
    public async Task Run_BrokerInAContainer_ConfluentAndJavaRunAndTheContainerIsRemoved()
    {
        if (TestDocker.WhyUnavailable() is { } why) Assert.Skip(why);
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            // As a user runs it: without the test settings' TESTCONTAINERS_RYUK_DISABLED. Where the reaper's image is not on the
            // machine (no registry here), the tool goes without it; it used to fail saying the broker's image could not be pulled.
            var (exit, stdout, stderr) = await CliProcess.RunAsync(new Dictionary<string, string?> { ["TESTCONTAINERS_RYUK_DISABLED"] = null },
                "run", "--broker", "testcontainers:" + TestDocker.Image,
                "--clients", "confluent,java", "--scenarios", "produce,roundtrip", "--messages", "1000", "--sizes", "100", "--repeat", "1", "--output", output.FullName);

            Assert.True(exit == 0, stderr);
            Assert.Contains("kafkaperf: starting a Kafka container from " + TestDocker.Image + " (Testcontainers)", stderr, StringComparison.Ordinal);
            Assert.Matches(@"kafkaperf: container broker ready at [0-9.]+:\d+ in \d+\.\d s", stderr);
            Assert.Contains("| produce | defaults | confluent | 1 000 | 100 | 1 | 0 |", stdout, StringComparison.Ordinal);
            Assert.Contains("| roundtrip | defaults | java | 1 000 | 100 | 1 | 0 |", stdout, StringComparison.Ordinal);
            Assert.Contains("(Kafka 4.3.1, Kafka container from " + TestDocker.Image + " (Testcontainers)", stdout, StringComparison.Ordinal);
            // Testcontainers' own log stays out of the tables.
            Assert.DoesNotContain("testcontainers.org", stdout, StringComparison.Ordinal);
            Assert.Empty(TestDocker.Orphans());
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Run_BrokerInAContainerWithoutDocker_OneLineExit2AndNothingWritten()
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-nodocker-" + Guid.NewGuid().ToString("N"));
        var started = DateTime.UtcNow;

        var (exit, stdout, stderr) = await CliProcess.RunAsync(new Dictionary<string, string?> { ["DOCKER_HOST"] = "unix:///nonexistent/docker.sock" },
            "run", "--broker", "testcontainers", "--clients", "confluent", "--messages", "100", "--output", output);

        Assert.Equal(2, exit);
        Assert.True(DateTime.UtcNow - started < TimeSpan.FromSeconds(30));
        var error = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries), l => !l.StartsWith("kafkaperf: starting", StringComparison.Ordinal));
        Assert.StartsWith("kafkaperf: No Docker engine answers (Failed to connect to Docker endpoint at 'unix:///nonexistent/docker.sock'): start one", error, StringComparison.Ordinal);
        Assert.Empty(stdout);
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task Run_ImageThatCannotBeHad_OneLineExit2AndNoContainerLeft()
    {
        if (TestDocker.WhyUnavailable() is { } why) Assert.Skip(why);
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-noimage-" + Guid.NewGuid().ToString("N"));

        var (exit, _, stderr) = await CliProcess.RunAsync(null, "run", "--broker", "testcontainers:kafkaperf-local/apache-kafka:0.0.0",
            "--clients", "confluent", "--messages", "100", "--output", output);

        Assert.Equal(2, exit);
        var error = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries), l => !l.StartsWith("kafkaperf: starting", StringComparison.Ordinal));
        Assert.StartsWith("kafkaperf: The image 'kafkaperf-local/apache-kafka:0.0.0' is not on this machine and could not be pulled (", error, StringComparison.Ordinal);
        Assert.EndsWith("pull or build it first (eng/build-kafka-image.sh builds one from Kafka's jars), or name another image.", error.TrimEnd(), StringComparison.Ordinal);
        Assert.False(Directory.Exists(output));
        Assert.Empty(TestDocker.Orphans());
    }

    [Theory]
    [InlineData("docker", "--broker 'docker' is not embedded, testcontainers or testcontainers:IMAGE")]
    [InlineData("testcontainers:", "--broker 'testcontainers:' is not embedded, testcontainers or testcontainers:IMAGE")]
    public async Task Run_UnknownBroker_OneLineExit2(string value, string expected)
    {
        var (exit, _, stderr) = await CliProcess.RunAsync(null, "run", "--broker", value, "--messages", "10");

        Assert.Equal(2, exit);
        Assert.StartsWith("kafkaperf: " + expected, stderr.Trim(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_BrokerAndBootstrapBoth_OneLineExit2()
    {
        var (exit, _, stderr) = await CliProcess.RunAsync(null, "run", "--broker", "testcontainers", "--bootstrap", "127.0.0.1:9092", "--messages", "10");

        Assert.Equal(2, exit);
        Assert.Equal("kafkaperf: --broker and --bootstrap both say where the broker is: give one (--bootstrap names an existing cluster).", stderr.Trim());
    }
}
