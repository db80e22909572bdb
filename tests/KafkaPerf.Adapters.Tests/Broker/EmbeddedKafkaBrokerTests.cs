using System.Diagnostics;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Tests.Broker;

public class EmbeddedKafkaBrokerTests
{
    [Fact]
    public async Task StartAsync_ThenDispose_LeavesNoJvmAndNoDataFolder()
    {
        var broker = await EmbeddedKafkaBroker.StartAsync(new EmbeddedKafkaBrokerOptions { HeapMegabytes = 256 }, TestPaths.Timeout());
        int pid = broker.ProcessId;
        string data = broker.DataDirectory;
        Assert.True(IsRunning(pid));
        Assert.True(File.Exists(broker.LogFile));
        Assert.StartsWith("127.0.0.1:", broker.BootstrapServers, StringComparison.Ordinal);
        Assert.NotEqual("127.0.0.1:9092", broker.BootstrapServers);
        Assert.Equal(broker.Jars.KafkaVersion, broker.KafkaVersion);
        Assert.Equal("false", broker.Config["auto.create.topics.enable"]);

        await broker.DisposeAsync();

        Assert.False(IsRunning(pid));
        Assert.False(Directory.Exists(data));
    }

    [Fact]
    public async Task StartAsync_ConfigKafkaRejects_FailsWithTheBrokerLogTailAndCleansUp()
    {
        var root = Directory.CreateTempSubdirectory("kafkaperf-broker-test-");
        try
        {
            var options = new EmbeddedKafkaBrokerOptions
            {
                HeapMegabytes = 256,
                DataRoot = root.FullName,
                ExtraConfig = new Dictionary<string, string> { ["num.network.threads"] = "-3" },
            };

            var ex = await Assert.ThrowsAsync<BrokerStartException>(() => EmbeddedKafkaBroker.StartAsync(options, TestPaths.Timeout()));

            Assert.Contains("did not start", ex.Summary, StringComparison.Ordinal);
            Assert.Contains("num.network.threads", ex.Summary, StringComparison.Ordinal);
            Assert.False(ex.PortInUse);
            Assert.Contains("--- last lines of the", ex.Message, StringComparison.Ordinal);
            // Only the class archive's folder stays: no broker's data folder.
            Assert.All(root.GetDirectories(), d => Assert.Equal("class-archives", d.Name));
        }
        finally
        {
            root.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task StartAsync_PortTakenMeanwhile_StartsAgainOnOtherPorts()
    {
        // The first pick hands out a port another socket holds, as when a process takes a "free" port in between.
        using var taken = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        taken.Start();
        int takenPort = ((System.Net.IPEndPoint)taken.LocalEndpoint).Port;
        int picks = 0;
        var options = new EmbeddedKafkaBrokerOptions
        {
            HeapMegabytes = 256,
            PortPicker = () => Interlocked.Increment(ref picks) == 1 ? (takenPort, FreePort()) : (FreePort(), FreePort()),
            // Without a class archive yet (a fresh clone), each of the two starts would write one as its JVM ends, the
            // failed start before it is retried: 98 s in CI. An archive that exists is still mapped; how the ports are
            // picked and the start retried is all this test is about.
            WriteClassArchive = false,
        };

        await using var broker = await EmbeddedKafkaBroker.StartAsync(options, TestPaths.Timeout());

        Assert.Equal(2, picks);
        Assert.NotEqual($"127.0.0.1:{takenPort}", broker.BootstrapServers);
    }

    [Fact]
    public async Task StartAsync_KafkaHomeWithoutJars_OneLineNamingTheVariable()
    {
        var empty = Directory.CreateTempSubdirectory("kafkaperf-kafka-home-");
        try
        {
            var ex = await Assert.ThrowsAsync<PrerequisiteException>(() =>
                EmbeddedKafkaBroker.StartAsync(new EmbeddedKafkaBrokerOptions { KafkaHome = empty.FullName }, TestPaths.Timeout()));

            Assert.StartsWith($"KAFKAPERF_KAFKA_HOME is '{empty.FullName}'", ex.Message, StringComparison.Ordinal);
            Assert.DoesNotContain('\n', ex.Message);
        }
        finally
        {
            empty.Delete();
        }
    }

    [Fact]
    public void FindJavaExecutable_JavaHomeWithoutJava_OneLineNamingJavaHome()
    {
        var ex = Assert.Throws<PrerequisiteException>(() => JavaLocator.FindJavaExecutable("/nonexistent/jdk"));

        Assert.StartsWith("JAVA_HOME is '/nonexistent/jdk', but it has no bin/java", ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', ex.Message);
    }

    [Fact]
    public void Locate_FetchedJars_FindsKafka431()
    {
        var jars = KafkaJars.Locate();

        Assert.Equal("4.3.1", jars.KafkaVersion);
        Assert.True(File.Exists(KafkaJars.ProjectJar));
        Assert.True(Directory.GetFiles(jars.LibsDirectory, "*.jar").Length >= 90);
    }

    private static int FreePort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }

    internal static bool IsRunning(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }
}
