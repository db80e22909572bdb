using System.Data.Common;
using KafkaPerf.Adapters.Store;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.History;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests.Store;

/// <summary>What every results store does, run on SQLite and on a real PostgreSQL server.</summary>
public abstract class ResultStoreContract
{
    /// <summary>A new, empty store.</summary>
    protected abstract StoreLocation NewStore();

    /// <summary>A connection to the store's database without KafkaPerf in between.</summary>
    protected abstract DbConnection Connect(StoreLocation location);

    [Fact]
    public async Task AStoredResult_ReadsBackIdenticalToItsJsonFile()
    {
        var json = StoredResults.Json(StoredResults.Template);
        var store = await ResultStore.OpenAsync(NewStore(), cancellationToken: TestPaths.Timeout());

        var outcome = await store.AppendAsync(json, new StoreMetadata("main", "abc123", "main"), TestPaths.Timeout());
        var again = await store.AppendAsync(json, new StoreMetadata("other", null, null), TestPaths.Timeout());

        Assert.False(outcome.AlreadyStored);
        Assert.Equal(json, await store.ReadDocumentAsync(outcome.Id, TestPaths.Timeout()));
        // The file's own text: what the JSON exporter writes is what the store keeps.
        using var writer = new StringWriter();
        new JsonExporter().Export(StoredResults.Template, writer);
        Assert.Equal(writer.ToString(), await store.ReadDocumentAsync(outcome.Id, TestPaths.Timeout()));
        Assert.True(again.AlreadyStored);
        Assert.Equal(outcome.Id, again.Id);
        var listed = Assert.Single(await store.ListAsync(new HistoryFilter(), TestPaths.Timeout()));
        Assert.Equal("main", listed.Metadata.Label);
        Assert.Equal(EnvironmentClass.Of(StoredResults.Template.Environment), listed.EnvironmentClass);
        Assert.Equal(CellKey.CellsOf(StoredResults.Template).Count, listed.Cells);
    }

    [Fact]
    public async Task FourWritersAtOnce_LoseNothing()
    {
        var location = NewStore();
        await ResultStore.OpenAsync(location, cancellationToken: TestPaths.Timeout());

        // Four stores (four connections each time), 10 results each, all at once.
        await Task.WhenAll(Enumerable.Range(0, 4).Select(writer => Task.Run(async () =>
        {
            var store = await ResultStore.OpenAsync(location, cancellationToken: TestPaths.Timeout());
            for (int i = 0; i < 10; i++) await store.AppendAsync(StoredResults.Json(StoredResults.Variant((writer * 10) + i)), new StoreMetadata($"w{writer}", null, null), TestPaths.Timeout());
        })));

        var all = await (await ResultStore.OpenAsync(location, cancellationToken: TestPaths.Timeout())).ListAsync(new HistoryFilter(), TestPaths.Timeout());
        Assert.Equal(40, all.Count);
        Assert.Equal(40, all.Select(r => r.Id).Distinct().Count());
        Assert.All(Enumerable.Range(0, 4), w => Assert.Equal(10, all.Count(r => r.Metadata.Label == $"w{w}")));
    }

    [Fact]
    public async Task AStoreOfTheFirstSchema_IsMigratedAndItsResultsGetTheirCells()
    {
        var location = NewStore();
        await ResultStore.CreateAtVersionAsync(location, 1, TestPaths.Timeout());
        var json = StoredResults.Json(StoredResults.Template);
        await using (var connection = Connect(location))
        {
            await connection.OpenAsync(TestPaths.Timeout());
            await using var insert = connection.CreateCommand();
            // Version 1's row, as version 1 wrote it: the document and its columns, no cells.
            insert.CommandText = "INSERT INTO results (id, result_key, stored_at, started_at, label, git_commit, git_branch, machine, tool_version) VALUES (41, 'k1', '2026-11-01T00:00:00.0000000Z', '2026-11-01T00:00:00.0000000Z', 'old', NULL, NULL, 'ci', '0.1.0'); "
                + "INSERT INTO documents (result_id, document) VALUES (41, @doc)";
            var doc = insert.CreateParameter();
            doc.ParameterName = "@doc";
            doc.Value = json;
            insert.Parameters.Add(doc);
            await insert.ExecuteNonQueryAsync(TestPaths.Timeout());
        }

        var store = await ResultStore.OpenAsync(location, cancellationToken: TestPaths.Timeout());

        Assert.Equal(2, await store.SchemaVersionAsync(TestPaths.Timeout()));
        var old = Assert.Single(await store.ListAsync(new HistoryFilter { Label = "old" }, TestPaths.Timeout()));
        Assert.Equal(EnvironmentClass.Of(StoredResults.Template.Environment), old.EnvironmentClass);
        var cells = await store.CellsAsync(new HistoryFilter(), cancellationToken: TestPaths.Timeout());
        Assert.Equal(CellKey.CellsOf(StoredResults.Template).Keys.Select(k => k.Text).Order(StringComparer.Ordinal), cells.Select(c => c.Cell.Text).Order(StringComparer.Ordinal));
        Assert.Equal(json, await store.ReadDocumentAsync(old.Id, TestPaths.Timeout()));
        // And new results go in beside it.
        await store.AppendAsync(StoredResults.Json(StoredResults.Variant(1)), new StoreMetadata("new", null, null), TestPaths.Timeout());
        Assert.Equal(2, (await store.ListAsync(new HistoryFilter(), TestPaths.Timeout())).Count);
    }

    [Fact]
    public async Task AStoreOfANewerSchema_IsRefusedInOneLine()
    {
        var location = NewStore();
        await ResultStore.OpenAsync(location, cancellationToken: TestPaths.Timeout());
        await using (var connection = Connect(location))
        {
            await connection.OpenAsync(TestPaths.Timeout());
            await using var update = connection.CreateCommand();
            update.CommandText = "UPDATE kafkaperf_schema SET version = 99";
            await update.ExecuteNonQueryAsync(TestPaths.Timeout());
        }

        var error = await Assert.ThrowsAsync<ResultStoreException>(() => ResultStore.OpenAsync(location, cancellationToken: TestPaths.Timeout()));

        Assert.Equal("The store is at schema version 99, and this KafkaPerf knows 2 at most: use a newer KafkaPerf with it, or another store.", error.Message);
    }

    [Fact]
    public async Task Filters_SelectByLabelCommitBranchDatesCellAndLast()
    {
        var store = await ResultStore.OpenAsync(NewStore(), cancellationToken: TestPaths.Timeout());
        for (int i = 0; i < 6; i++)
        {
            await store.AppendAsync(StoredResults.Json(StoredResults.Variant(i)),
                new StoreMetadata(i % 2 == 0 ? "main" : "pr-7", $"c0ffee{i}", i % 2 == 0 ? "main" : "feature"), TestPaths.Timeout());
        }
        var start = StoredResults.Template.StartedAtUtc;
        var template = StoredResults.Template;
        var first = CellKey.CellsOf(template).Keys.First();

        Assert.Equal(3, (await store.ListAsync(new HistoryFilter { Label = "main" }, TestPaths.Timeout())).Count);
        Assert.Equal("c0ffee3", Assert.Single(await store.ListAsync(new HistoryFilter { Commit = "c0ffee3" }, TestPaths.Timeout())).Metadata.GitCommit);
        Assert.Equal(3, (await store.ListAsync(new HistoryFilter { Branch = "feature" }, TestPaths.Timeout())).Count);
        Assert.Equal(2, (await store.ListAsync(new HistoryFilter { Since = start.AddHours(2), Until = start.AddHours(4) }, TestPaths.Timeout())).Count);
        var lastTwo = await store.ListAsync(new HistoryFilter { Last = 2 }, TestPaths.Timeout());
        Assert.Equal([start.AddHours(4), start.AddHours(5)], lastTwo.Select(r => r.StartedAt));
        Assert.Empty(await store.ListAsync(new HistoryFilter { Client = "nobody" }, TestPaths.Timeout()));
        Assert.Equal(6, (await store.ListAsync(new HistoryFilter { Client = first.Client, Scenario = first.Scenario, PayloadBytes = first.PayloadBytes }, TestPaths.Timeout())).Count);

        var cells = await store.CellsAsync(new HistoryFilter { Client = first.Client, Scenario = first.Scenario, PayloadBytes = first.PayloadBytes, Last = 3 }, cancellationToken: TestPaths.Timeout());
        Assert.All(cells, c => Assert.Equal((first.Client, first.Scenario, first.PayloadBytes), (c.Cell.Client, c.Cell.Scenario, c.Cell.PayloadBytes)));
        Assert.All(cells.GroupBy(c => c.Cell), g => Assert.Equal([start.AddHours(3), start.AddHours(4), start.AddHours(5)], g.Select(c => c.StartedAt)));
        Assert.DoesNotContain(cells, c => c.Cell.Scenario != ScenarioKind.Produce && first.Scenario == ScenarioKind.Produce);
    }

    [Fact]
    public async Task TheGate_PassesAnAaHistory_AndCatchesAFifteenPercentSlowdown()
    {
        var store = await ResultStore.OpenAsync(NewStore(), cancellationToken: TestPaths.Timeout());
        for (int i = 0; i < 10; i++) await store.AppendAsync(StoredResults.Json(StoredResults.Variant(i)), new StoreMetadata("main", null, null), TestPaths.Timeout());

        var same = await HistoryGateQuery.JudgeAsync(store, StoredResults.Variant(10), new HistoryScope(10), TestPaths.Timeout());
        var slower = await HistoryGateQuery.JudgeAsync(store, StoredResults.Variant(10, factor: 1.15), new HistoryScope(10), TestPaths.Timeout());
        var fewer = await HistoryGateQuery.JudgeAsync(store, StoredResults.Variant(10), new HistoryScope(10, Label: "nothing-stored-with-it"), TestPaths.Timeout());

        Assert.All(same, j => Assert.True(j.Judged && j.HistoryResults == 10 && !j.IsSlowerBeyond(5), j.ToString()));
        Assert.All(slower, j => Assert.True(j.IsSlowerBeyond(5), j.ToString()));
        Assert.All(fewer, j => Assert.False(j.Judged));
    }
}
