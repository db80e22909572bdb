// KafkaPerf's packages are packed once for every test of this assembly that uses them (LocalFeedFixture).
[assembly: AssemblyFixture(typeof(KafkaPerf.Testing.Tests.Packages.LocalFeedFixture))]

namespace KafkaPerf.Testing.Tests.Packages;

/// <summary>The tests that run a sample's or a template's own performance gate (a throughput floor): one collection, so
/// that they run one after another and not beside each other's brokers. The other package tests (the tool installed
/// from the feed, the packages' contents) run beside them; all share the feed of <see cref="LocalFeedFixture"/>.</summary>
[CollectionDefinition(Name)]
public sealed class LocalFeedCollectionDefinition
{
    /// <summary>The collection's name.</summary>
    public const string Name = "local feed, performance gates";
}
