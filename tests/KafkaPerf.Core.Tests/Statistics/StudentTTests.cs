using KafkaPerf.Statistics;

namespace KafkaPerf.Core.Tests.Statistics;

public sealed class StudentTTests
{
    [Theory]
    [InlineData(0.975, 1.0, 12.7062047)]
    [InlineData(0.975, 2.0, 4.30265273)]
    [InlineData(0.975, 10.0, 2.22813885)]
    [InlineData(0.975, 30.0, 2.04227246)]
    [InlineData(0.95, 5.0, 2.01504837)]
    [InlineData(0.995, 3.0, 5.84090931)]
    [InlineData(0.9, 7.0, 1.41492393)]
    public void Quantile_TabulatedValues_MatchToPublishedDigits(double p, double df, double expected)
    {
        var actual = StudentT.Quantile(p, df);

        // The table gives 9 significant digits, so it is only good to about 5e-9 relative.
        Assert.True(Math.Abs(actual - expected) <= 1e-8 * expected, $"t({p}, {df}) = {actual:R}, expected {expected}");
    }

    [Theory]
    [InlineData(0.975)]
    [InlineData(0.6)]
    [InlineData(0.999999)]
    public void Quantile_OneDegreeOfFreedom_MatchesCauchyClosedForm(double p)
    {
        // With one degree of freedom t is Cauchy: the quantile is tan(π(p − ½)).
        var expected = Math.Tan(Math.PI * (p - 0.5));

        Assert.Equal(expected, StudentT.Quantile(p, 1.0), expected * 1e-10);
    }

    [Theory]
    [InlineData(0.975)]
    [InlineData(0.75)]
    [InlineData(0.9999)]
    public void Quantile_TwoDegreesOfFreedom_MatchesClosedForm(double p)
    {
        // With two degrees of freedom the CDF is ½ + t / (2√(2 + t²)), so t = α√(2 / (1 − α²)) with α = 2p − 1.
        var alpha = (2 * p) - 1;
        var expected = alpha * Math.Sqrt(2 / (1 - (alpha * alpha)));

        Assert.Equal(expected, StudentT.Quantile(p, 2.0), expected * 1e-10);
    }

    [Theory]
    [InlineData(1e6)]
    [InlineData(1e9)]
    [InlineData(double.PositiveInfinity)]
    public void Quantile_LargeDegreesOfFreedom_ApproachesNormal(double df)
    {
        Assert.Equal(1.959963985, StudentT.Quantile(0.975, df), 1e-5);
    }

    [Fact]
    public void Quantile_HugeDegreesOfFreedom_MatchesNormalToSixDigits()
    {
        Assert.True(Math.Abs(StudentT.Quantile(0.975, 1e9) - 1.959963985) <= 1e-6 * 1.959963985);
    }

    [Fact]
    public void Quantile_LowerTail_IsNegativeOfUpperTail()
    {
        Assert.Equal(-2.22813885, StudentT.Quantile(0.025, 10), 1e-7);
        Assert.Equal(-StudentT.Quantile(0.9, 4.5), StudentT.Quantile(0.1, 4.5), 1e-12);
        Assert.Equal(0.0, StudentT.Quantile(0.5, 3));
    }

    [Fact]
    public void Quantile_NonIntegerDegreesOfFreedom_LiesBetweenNeighbouringIntegers()
    {
        var two = StudentT.Quantile(0.975, 2);
        var twoAndHalf = StudentT.Quantile(0.975, 2.5);
        var three = StudentT.Quantile(0.975, 3);

        Assert.True(two > twoAndHalf && twoAndHalf > three, $"{two} > {twoAndHalf} > {three}");
    }

    [Theory]
    [InlineData(0.975, 1.0)]
    [InlineData(0.975, 7.3)]
    [InlineData(0.995, 2.4)]
    [InlineData(0.6, 15.8)]
    [InlineData(0.05, 3.7)]
    [InlineData(1e-9, 4.0)]
    [InlineData(0.999999999, 12.5)]
    [InlineData(0.975, 0.5)]
    [InlineData(0.9, 123456.7)]
    public void Cdf_OfQuantile_RoundTripsToProbability(double p, double df)
    {
        var roundTrip = StudentT.Cdf(StudentT.Quantile(p, df), df);

        var tail = Math.Min(p, 1 - p);
        Assert.True(Math.Abs(roundTrip - p) <= 1e-9 * tail, $"Cdf(Quantile({p}, {df})) = {roundTrip:R}");
    }

    [Theory]
    [InlineData(-3.0)]
    [InlineData(0.3)]
    [InlineData(25.0)]
    public void Cdf_OneDegreeOfFreedom_MatchesCauchyClosedForm(double t)
    {
        Assert.Equal(0.5 + (Math.Atan(t) / Math.PI), StudentT.Cdf(t, 1.0), 1e-13);
    }

    [Theory]
    [InlineData(-4.0)]
    [InlineData(0.01)]
    [InlineData(3.0)]
    public void Cdf_TwoDegreesOfFreedom_MatchesClosedForm(double t)
    {
        Assert.Equal(0.5 + (t / (2 * Math.Sqrt(2 + (t * t)))), StudentT.Cdf(t, 2.0), 1e-13);
    }

    [Fact]
    public void Cdf_AtZeroAndInfinities_IsHalfOneAndZero()
    {
        Assert.Equal(0.5, StudentT.Cdf(0, 6.2), 1e-15);
        Assert.Equal(1.0, StudentT.Cdf(double.PositiveInfinity, 6.2));
        Assert.Equal(0.0, StudentT.Cdf(double.NegativeInfinity, 6.2));
    }

    [Theory]
    [InlineData(0.0)]
    [InlineData(1.0)]
    [InlineData(-0.5)]
    [InlineData(double.NaN)]
    public void Quantile_ProbabilityOutsideOpenUnitInterval_Throws(double p)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => StudentT.Quantile(p, 5));
    }

    [Theory]
    [InlineData(0.0)]
    [InlineData(-1.0)]
    [InlineData(double.NaN)]
    public void Quantile_NonPositiveDegreesOfFreedom_Throws(double df)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => StudentT.Quantile(0.975, df));
        Assert.Throws<ArgumentOutOfRangeException>(() => StudentT.Cdf(1.0, df));
    }
}
