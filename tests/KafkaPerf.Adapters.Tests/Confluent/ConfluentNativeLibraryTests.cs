using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Tests.Confluent;

public class ConfluentNativeLibraryTests
{
    [Fact]
    public void EnsureLoaded_Default_IsTheRedistFileConfluentKafkaChose()
    {
        var binding = ConfluentNativeLibrary.EnsureLoaded();

        Assert.Equal("2.16.0", binding.Version);
        Assert.Equal(LibrdkafkaOrigin.Redist, binding.Origin);
        // The file Confluent.Kafka's own loader took from the package's linux-x64 folder (centos8-librdkafka.so on Debian 12).
        Assert.Matches(@"/runtimes/linux-(x64|arm64)/native/[a-z0-9]*-?librdkafka\.so$", binding.Path);
        Assert.True(File.Exists(binding.Path), binding.Path);
        Assert.Contains("ssl", binding.Features.Split(','));
        Assert.Contains("zstd", binding.Features.Split(','));
        Assert.True(binding.IsExpectedVersion);
        Assert.Null(binding.Warning);
        Assert.Equal("2.16.0", ConfluentNativeLibrary.ManagedVersion);
        Assert.Same(binding, ConfluentNativeLibrary.EnsureLoaded());
    }

    [Theory]
    [InlineData("2.0.2", false)]
    [InlineData("2.14.9", false)]
    [InlineData("1.9.2", false)]
    [InlineData("2.15.1", false)]
    [InlineData("2.16.0", true)]
    [InlineData("2.16.3", true)]
    [InlineData("2.17.0", true)]
    [InlineData("3.0.0", true)]
    public void TooOld_Version_RefusesOnlyOlderThanTheExpectedMinor(string version, bool usable)
    {
        var reason = ConfluentNativeLibrary.TooOld(version);

        Assert.Equal(usable, reason is null);
        if (reason is not null) Assert.Contains("KAFKAPERF_LIBRDKAFKA", reason, StringComparison.Ordinal);
    }

    [Fact]
    public void ProbeBroker_NothingListening_FailsWithinTheTimeoutInOneLine()
    {
        var ex = Assert.Throws<PrerequisiteException>(() => ConfluentClientFactory.ProbeBroker("127.0.0.1:1", TimeSpan.FromSeconds(2)));

        Assert.StartsWith("No Kafka broker answered at '127.0.0.1:1' within 2 s", ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', ex.Message);
    }
}
