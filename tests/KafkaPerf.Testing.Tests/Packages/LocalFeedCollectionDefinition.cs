namespace KafkaPerf.Testing.Tests.Packages;

/// <summary>The tests that use KafkaPerf's packages as a user does: one collection, so that the packages are packed
/// once for all of them (<see cref="LocalFeedFixture"/>), and its tests run one after another.</summary>
[CollectionDefinition(Name)]
public sealed class LocalFeedCollectionDefinition : ICollectionFixture<LocalFeedFixture>
{
    /// <summary>The collection's name.</summary>
    public const string Name = "local feed";
}
