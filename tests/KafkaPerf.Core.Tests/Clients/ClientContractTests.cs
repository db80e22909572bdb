using KafkaPerf.Clients;

namespace KafkaPerf.Core.Tests.Clients;

public class ClientContractTests
{
    [Fact]
    public void Version_IsKafkaPerfCoresAssemblyVersion()
    {
        var assembly = typeof(IBenchClientFactory).Assembly.GetName().Version!;

        Assert.Equal(new Version(assembly.Major, assembly.Minor), ClientContract.Version);
        Assert.Equal(new Version(1, 2), ClientContract.Version);
    }

    [Theory]
    [InlineData("1.0.0.0", true)]
    [InlineData("1.0.3.0", true)]
    [InlineData("1.1.0.0", true)]
    [InlineData("1.2.0.0", true)]
    [InlineData("1.3.0.0", false)]
    [InlineData("0.1.0.0", false)]
    [InlineData("2.0.0.0", false)]
    public void Accepts_TheSameMajorAndNoHigherMinor(string built, bool accepted)
    {
        Assert.Equal(accepted, ClientContract.Accepts(Version.Parse(built)));
    }
}
