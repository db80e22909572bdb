using KafkaPerf.Plans;
using KafkaPerf.Running;

namespace KafkaPerf.Core.Tests.Plans;

public class TopicNamingTests
{
    [Fact]
    public void For_SeedSchema_JoinsPartsWithDoubleUnderscore()
    {
        Assert.Equal("kafkaperf__knet-kafka__10000__100__7", TopicNaming.For("kafkaperf", "knet-kafka", 10_000, 100, 7));
    }

    [Theory]
    [InlineData("bad prefix")]
    [InlineData("slash/prefix")]
    [InlineData("")]
    public void For_InvalidPrefix_Throws(string prefix)
    {
        Assert.Throws<ArgumentException>(() => TopicNaming.For(prefix, "inmemory", 1, 1, 1));
    }

    [Fact]
    public void For_NameLongerThanKafkaAllows_Throws()
    {
        Assert.Throws<ArgumentException>(() => TopicNaming.For(new string('p', 240), "inmemory", 1, 1, 1));
    }

    [Fact]
    public void ForClusterWarmup_NamesTheRoundAndRefusesWhatKafkaWouldNot()
    {
        Assert.Equal("kafkaperf__cluster-warmup__confluent__3", TopicNaming.ForClusterWarmup("kafkaperf", "confluent", 3));
        Assert.Throws<ArgumentException>(() => TopicNaming.ForClusterWarmup("kafkaperf", "a b", 1));
        Assert.Throws<ArgumentException>(() => TopicNaming.ForClusterWarmup(new string('p', 240), "confluent", 1));
    }
}
