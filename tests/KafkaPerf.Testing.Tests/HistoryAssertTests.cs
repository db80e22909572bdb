using KafkaPerf.Adapters.Store;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;

namespace KafkaPerf.Testing.Tests;

/// <summary>The fluent API's <c>Store</c> and the xUnit gate against history.</summary>
public sealed class HistoryAssertTests : IDisposable
{
    private readonly DirectoryInfo _folder = Directory.CreateTempSubdirectory("kafkaperf-history-");

    private string StorePath => Path.Combine(_folder.FullName, "results.db");

    public void Dispose() => _folder.Delete(recursive: true);

    [Fact]
    public async Task Store_KeepsTheResultAsItsJson_WithItsLabel()
    {
        var result = await KafkaBenchmark.OnEmbeddedBroker().Clients("inmemory").Produce(5_000, 100).Repeat(3).Store(StorePath, "fluent").RunAsync(TestContext.Current.CancellationToken);

        var store = await ResultStore.OpenAsync(StoreLocation.Parse(StorePath), cancellationToken: TestContext.Current.CancellationToken);
        var stored = Assert.Single(await store.ListAsync(new HistoryFilter(), TestContext.Current.CancellationToken));
        Assert.Equal("fluent", stored.Metadata.Label);
        Assert.Equal(ResultJson.Write(result), await store.ReadDocumentAsync(stored.Id, TestContext.Current.CancellationToken));
    }

    [Fact]
    public async Task NotSlowerThanHistory_PassesItsOwnHistory_AndFailsThirtyPercentSlower()
    {
        var result = await KafkaBenchmark.OnEmbeddedBroker().Clients("inmemory").Produce(5_000, 100).Repeat(5).RunAsync(TestContext.Current.CancellationToken);
        // A history of six earlier results around this one's figures, each run 3 % apart (seeded).
        var store = await ResultStore.OpenAsync(StoreLocation.Parse(StorePath), cancellationToken: TestContext.Current.CancellationToken);
        var random = new Random(35);
        for (int i = 1; i <= 6; i++)
        {
            var earlier = result with
            {
                StartedAtUtc = result.StartedAtUtc.AddDays(-i),
                Runs = [.. result.Runs.Select(r => r with { ElapsedSeconds = r.ElapsedSeconds * (1 + ((random.NextDouble() - 0.5) * 0.06)) })],
            };
            await store.AppendAsync(ResultJson.Write(earlier), new StoreMetadata(null, null, null), TestContext.Current.CancellationToken);
        }
        var slower = result with { Runs = [.. result.Runs.Select(r => r with { ElapsedSeconds = r.ElapsedSeconds * 1.3 })] };

        var judged = await PerformanceAssert.NotSlowerThanHistoryAsync(result, StorePath, percent: 10);
        var error = await Assert.ThrowsAsync<PerformanceAssertionException>(() => PerformanceAssert.NotSlowerThanHistoryAsync(slower, StorePath, percent: 10));

        Assert.True(Assert.Single(judged).Judged);
        Assert.Equal(6, judged[0].HistoryResults);
        // 30 % against the history's centre, which its ±3 % runs move by a point or two.
        Assert.Matches(@"inmemory produce 5000 × 100 B \(defaults\): slower than its last 6 stored results by (2[6-9]|3[0-4])\.\d\d % in elapsed s", error.Message);
    }
}
