using Xunit.Sdk;
using Xunit.v3;

[assembly: TestCollectionOrderer(typeof(KafkaPerf.Testing.Tests.Packages.GatesFirstOrderer))]

namespace KafkaPerf.Testing.Tests.Packages;

/// <summary>
/// Starts the performance gates' collection (<see cref="LocalFeedCollectionDefinition"/>) first, the others after it in
/// xUnit's own order. Its five tests run one after another (about 160 s in a CI run) and were the assembly's longest
/// chain, but xUnit queued it behind two other collections: with two threads it began only when they had ended, about
/// 90 s in, and the assembly ran 290 s, alone at the end of CI. Begun first, it runs beside them.
/// </summary>
public sealed class GatesFirstOrderer : ITestCollectionOrderer
{
    /// <inheritdoc />
    public IReadOnlyCollection<TTestCollection> OrderTestCollections<TTestCollection>(IReadOnlyCollection<TTestCollection> testCollections)
        where TTestCollection : ITestCollection =>
        [.. testCollections.OrderBy(c => c.TestCollectionDisplayName == LocalFeedCollectionDefinition.Name ? 0 : 1)];
}
