using KafkaPerf.Clients;

namespace KafkaPerf.Core.Tests.Architecture;

/// <summary>
/// The contract's version says what kind of change the tracked public API went through since the release written in
/// <c>src/KafkaPerf.Core/PublicAPI.Version.txt</c> (whose surface is <c>PublicAPI.Shipped.txt</c>): a line marked
/// <c>*REMOVED*</c> in <c>PublicAPI.Unshipped.txt</c> is a breaking change and needs a higher major; an added line needs
/// at least a higher minor; nothing unshipped, the shipped version itself. The build already refuses a public change that
/// is not written in those files (RS0016, RS0017); this test refuses one whose version does not follow it.
/// </summary>
public class ContractVersionTests
{
    private const string Header = "#nullable enable\n";

    [Theory]
    [InlineData("2.1", true)]
    [InlineData("2.2", false)]
    [InlineData("3.0", false)]
    [InlineData("2.0", false)]
    public void Violation_NothingUnshipped_VersionIsTheShippedOne(string current, bool holds)
    {
        var violation = Violation(Header, new Version(2, 1), Version.Parse(current));

        Assert.Equal(holds, violation is null);
        if (!holds) Assert.Contains("nothing is unshipped", violation, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("2.1", false)]
    [InlineData("2.0", false)]
    [InlineData("2.2", true)]
    [InlineData("3.0", true)]
    public void Violation_AddedLines_NeedAHigherMinorAtLeast(string current, bool holds)
    {
        const string Unshipped = Header + "KafkaPerf.Clients.IBenchClient.Describe() -> string!\n";

        var violation = Violation(Unshipped, new Version(2, 1), Version.Parse(current));

        Assert.Equal(holds, violation is null);
        if (!holds) Assert.Contains("1 addition", violation, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("2.1", false)]
    [InlineData("2.2", false)]
    [InlineData("3.0", true)]
    [InlineData("3.4", true)]
    public void Violation_RemovedLines_NeedAHigherMajor(string current, bool holds)
    {
        // A changed signature is written so: the old line removed, the new one added; the removal is what breaks.
        const string Unshipped = Header
            + "*REMOVED*KafkaPerf.Clients.IBenchClientFactory.Create(KafkaPerf.Clients.KafkaEndpoint! endpoint) -> KafkaPerf.Clients.IBenchClient!\n"
            + "KafkaPerf.Clients.IBenchClientFactory.Create(KafkaPerf.Clients.KafkaEndpoint! endpoint, int partitions) -> KafkaPerf.Clients.IBenchClient!\n";

        var violation = Violation(Unshipped, new Version(2, 1), Version.Parse(current));

        Assert.Equal(holds, violation is null);
        if (!holds) Assert.Contains("1 removal", violation, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("")]
    [InlineData("#nullable enable\r\n\r\n")]
    [InlineData("#nullable enable\n  \n")]
    public void Violation_OnlyHeaderAndBlankLines_CountAsNothingUnshipped(string unshipped)
    {
        Assert.Null(Violation(unshipped, new Version(2, 1), new Version(2, 1)));
        Assert.NotNull(Violation(unshipped, new Version(2, 1), new Version(2, 2)));
    }

    [Fact]
    public void TrackedApi_CoresFiles_AgreeWithClientContractVersion()
    {
        var core = Path.Combine(RoomDependencyTests.RepositoryRoot(), "src", "KafkaPerf.Core");
        var shipped = Version.Parse(File.ReadAllText(Path.Combine(core, "PublicAPI.Version.txt")).Trim());
        var unshipped = File.ReadAllText(Path.Combine(core, "PublicAPI.Unshipped.txt"));

        // The shipped surface is the analyzer's (its header, and the contract among its lines), not an empty file; the
        // version file names a contract version, major.minor.
        var shippedLines = File.ReadAllLines(Path.Combine(core, "PublicAPI.Shipped.txt"));
        Assert.Equal("#nullable enable", shippedLines[0]);
        Assert.Contains("KafkaPerf.Clients.IBenchClientFactory", shippedLines);
        Assert.Equal(-1, shipped.Build);

        var violation = Violation(unshipped, shipped, ClientContract.Version);

        Assert.True(violation is null, violation);
    }

    /// <summary>What is wrong with <paramref name="current"/> given the unshipped API changes, or <see langword="null"/>
    /// when the version follows the rule.</summary>
    /// <param name="unshipped">The text of a <c>PublicAPI.Unshipped.txt</c>.</param>
    /// <param name="shipped">The version whose surface <c>PublicAPI.Shipped.txt</c> holds (major.minor).</param>
    /// <param name="current">The contract's version now (major.minor).</param>
    internal static string? Violation(string unshipped, Version shipped, Version current)
    {
        var lines = unshipped.Split('\n').Select(l => l.Trim()).Where(l => l.Length > 0 && !l.StartsWith('#')).ToList();
        int removals = lines.Count(l => l.StartsWith("*REMOVED*", StringComparison.Ordinal));
        int additions = lines.Count - removals;
        var now = new Version(current.Major, current.Minor);
        var then = new Version(shipped.Major, shipped.Minor);

        if (removals > 0)
            return now.Major > then.Major ? null
                : $"{removals} removal(s) in PublicAPI.Unshipped.txt break the contract shipped as {then}: Version must move to {then.Major + 1}.0, not {now}";
        if (additions > 0)
            return now > then ? null
                : $"{additions} addition(s) in PublicAPI.Unshipped.txt grow the contract shipped as {then}: Version must move to at least {then.Major}.{then.Minor + 1}, not {now}";
        return now == then ? null
            : $"nothing is unshipped since {then}, so Version must be {then}, not {now} (or PublicAPI.Version.txt is stale)";
    }
}
