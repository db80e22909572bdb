using KafkaPerf.Plans;
using KafkaPerf.Running;

namespace KafkaPerf.Core.Tests.Plans;

public class RunOrderTests
{
    [Fact]
    public void Balanced_TwoClients_AlternatesABBA()
    {
        var order = RunOrder.Balanced(["A", "B"], repeat: 4);

        Assert.Equal(["A", "B", "B", "A", "A", "B", "B", "A"], order.Select(o => o.Client));
        Assert.Equal([1, 1, 2, 2, 3, 3, 4, 4], order.Select(o => o.Repetition));
    }

    [Fact]
    public void Balanced_ThreeClients_EachClientHoldsEveryPositionEvenly()
    {
        var order = RunOrder.Balanced(["A", "B", "C"], repeat: 2);

        Assert.Equal(["A", "B", "C", "C", "B", "A"], order.Select(o => o.Client));
        // Over a pair of rounds every client's mean position is the same, so drift favours none.
        var meanPosition = order.Select((o, i) => (o.Client, Position: i % 3)).GroupBy(x => x.Client)
            .ToDictionary(g => g.Key, g => g.Average(x => x.Position));
        Assert.All(meanPosition.Values, p => Assert.Equal(1.0, p));
    }

    [Fact]
    public void Shuffled_SameSeed_SameOrderAndEveryClientOncePerRound()
    {
        var first = RunOrder.Shuffled(["A", "B", "C"], repeat: 5, seed: 7);
        var second = RunOrder.Shuffled(["A", "B", "C"], repeat: 5, seed: 7);
        var other = RunOrder.Shuffled(["A", "B", "C"], repeat: 5, seed: 8);

        Assert.Equal(first, second);
        Assert.NotEqual(first, other);
        foreach (var round in first.Chunk(3))
            Assert.Equal(["A", "B", "C"], round.Select(r => r.Client).Order());
    }
}
