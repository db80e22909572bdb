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

    [Fact]
    public void AddDelta_ASumAHairSmallerWithTheSameCount_IsNoRequestNotARestart()
    {
        var previous = Totals(count: 1_000, sum: 13_909.000000000002, gcMillis: 50, gcCount: 3);
        var current = Totals(count: 1_000, sum: 13_909, gcMillis: 50, gcCount: 3);
        var sum = new double[38];

        EmbeddedBrokerMetrics.AddDelta(sum, previous, current, restarted: false);

        // Taken for a restart, the whole history (1 000 requests, 13.9 s) landed in one interval.
        Assert.All(sum, value => Assert.Equal(0, value));
    }

    [Fact]
    public void AddDelta_NewRequestsCountedOnce_ACountThatFellOrANewJvmStartsOver()
    {
        var previous = Totals(count: 1_000, sum: 5_000, gcMillis: 50, gcCount: 3);
        var sum = new double[38];
        EmbeddedBrokerMetrics.AddDelta(sum, previous, Totals(count: 1_010, sum: 5_030, gcMillis: 60, gcCount: 4), restarted: false);
        Assert.Equal(10, sum[0]);
        Assert.Equal(30, sum[1]);
        Assert.Equal(10, sum[36]);
        Assert.Equal(1, sum[37]);

        var restarted = new double[38];
        EmbeddedBrokerMetrics.AddDelta(restarted, previous, Totals(count: 7, sum: 21, gcMillis: 5, gcCount: 1), restarted: true);
        Assert.Equal(7, restarted[0]);
        Assert.Equal(21, restarted[1]);
        Assert.Equal(5, restarted[36]);
    }

    /// <summary>Every histogram with the same count and sum, then the collections.</summary>
    private static double[] Totals(long count, double sum, long gcMillis, long gcCount)
    {
        var totals = new double[38];
        for (int i = 0; i < 36; i += 2) (totals[i], totals[i + 1]) = (count, sum);
        (totals[36], totals[37]) = (gcMillis, gcCount);
        return totals;
    }
}
