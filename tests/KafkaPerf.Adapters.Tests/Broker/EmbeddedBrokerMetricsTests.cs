using KafkaPerf.Adapters.Broker;

namespace KafkaPerf.Adapters.Tests.Broker;

/// <summary>A node's answer to <c>metrics</c> read into running totals: exactly the fields NodeCommands.java writes, or
/// nothing.</summary>
public sealed class EmbeddedBrokerMetricsTests
{
    [Fact]
    public void Parse_TheNodesAnswer_AllFields()
    {
        // 3 kinds of request × 6 parts × (count, sum), then the JVM's collection time and count.
        var answer = string.Join(' ', Enumerable.Range(0, 36).Select(i => i % 2 == 0 ? "10" : "25.5")) + " 120 4";

        var totals = EmbeddedBrokerMetrics.Parse(answer);

        Assert.NotNull(totals);
        Assert.Equal(38, totals.Length);
        Assert.Equal(25.5, totals[1]);
        Assert.Equal(120, totals[36]);
        Assert.Equal(4, totals[37]);
    }

    [Theory]
    [InlineData("")]
    [InlineData("1 2 3")]
    [InlineData("unknown command metrics")]
    public void Parse_AnythingElse_IsNothing(string answer) => Assert.Null(EmbeddedBrokerMetrics.Parse(answer));
}
