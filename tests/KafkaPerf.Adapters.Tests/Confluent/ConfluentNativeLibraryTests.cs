using KafkaPerf.Adapters.Confluent;

namespace KafkaPerf.Adapters.Tests.Confluent;

public class ConfluentNativeLibraryTests
{
    [Fact]
    public void EnsureLoaded_ProjectBuild_IsTheVersionConfluentKafkaExpects()
    {
        var binding = ConfluentNativeLibrary.EnsureLoaded();

        Assert.Equal("2.15.1", binding.Version);
        Assert.Equal(LibrdkafkaOrigin.ProjectBuild, binding.Origin);
        Assert.True(binding.IsExpectedVersion);
        Assert.Null(binding.Warning);
        Assert.Equal("2.15.1", ConfluentNativeLibrary.ManagedVersion);
        Assert.Same(binding, ConfluentNativeLibrary.EnsureLoaded());
    }

    [Fact]
    public void ProbeBroker_NothingListening_FailsWithinTheTimeoutInOneLine()
    {
        var ex = Assert.Throws<PrerequisiteException>(() => ConfluentClientFactory.ProbeBroker("127.0.0.1:1", TimeSpan.FromSeconds(2)));

        Assert.StartsWith("No Kafka broker answered at '127.0.0.1:1' within 2 s", ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', ex.Message);
    }
}
