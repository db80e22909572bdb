using KafkaPerf.Adapters.Broker;

namespace KafkaPerf.Adapters.Tests.Broker;

/// <summary>The brokers' class-data archives stay few: about 50 MB each, a new one for every JDK, jar set or checkout.</summary>
public sealed class BrokerClassArchiveTests : IDisposable
{
    private readonly DirectoryInfo _root = Directory.CreateTempSubdirectory("kafkaperf-archives-");

    public void Dispose() => _root.Delete(recursive: true);

    [Fact]
    public void For_ManyArchives_KeepsTheOneUsedAndTheMostRecentlyUsedOthers()
    {
        var java = Path.Combine(_root.FullName, "java");
        var jar = Path.Combine(_root.FullName, "kafka.jar");
        File.WriteAllText(java, "java");
        File.WriteAllText(jar, "jar");
        var folder = Path.Combine(_root.FullName, "class-archives");
        Directory.CreateDirectory(folder);
        var now = DateTime.UtcNow;
        // Five archives of other jars, used 1 to 5 hours ago.
        for (int hours = 1; hours <= 5; hours++)
        {
            var other = Path.Combine(folder, $"other{hours}.jsa");
            File.WriteAllText(other, "archive");
            File.SetLastWriteTimeUtc(other, now.AddHours(-hours));
        }
        // This JDK's and jars' archive, written 10 hours ago: the oldest of all.
        var writing = BrokerClassArchive.For(_root.FullName, java, jar, [jar], write: true)!.OptionFor(1)!;
        Assert.StartsWith("-XX:ArchiveClassesAtExit=", writing, StringComparison.Ordinal);
        var ours = Path.Combine(folder, Path.GetFileName(writing)[..Path.GetFileName(writing).IndexOf('.', StringComparison.Ordinal)] + ".jsa");
        File.WriteAllText(ours, "archive");
        File.SetLastWriteTimeUtc(ours, now.AddHours(-10));

        var used = BrokerClassArchive.For(_root.FullName, java, jar, [jar], write: true)!;

        // It is used (and so now the most recent), and with it the three most recently used others stay.
        Assert.Equal("-XX:SharedArchiveFile=" + ours, used.OptionFor(1));
        Assert.True(File.GetLastWriteTimeUtc(ours) > now.AddMinutes(-1));
        Assert.Equal(BrokerClassArchive.Kept, Directory.GetFiles(folder, "*.jsa").Length);
        Assert.Equal(["other1.jsa", "other2.jsa", "other3.jsa"],
            Directory.GetFiles(folder, "other*.jsa").Select(Path.GetFileName).Order(StringComparer.Ordinal));
    }
}
