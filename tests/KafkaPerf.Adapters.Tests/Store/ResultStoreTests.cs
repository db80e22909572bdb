using System.Data.Common;
using System.Diagnostics;
using KafkaPerf.Adapters.Store;
using KafkaPerf.Reporting.History;
using KafkaPerf.Tests.Postgres;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace KafkaPerf.Adapters.Tests.Store;

/// <summary>The store in one SQLite file, the default.</summary>
public sealed class SqliteResultStoreTests : ResultStoreContract, IDisposable
{
    private readonly DirectoryInfo _folder = Directory.CreateTempSubdirectory("kafkaperf-store-");

    public void Dispose() => _folder.Delete(recursive: true);

    protected override StoreLocation NewStore() => StoreLocation.Parse(Path.Combine(_folder.FullName, Guid.NewGuid().ToString("N")[..8] + ".db"));

    protected override DbConnection Connect(StoreLocation location) => new SqliteConnection($"Data Source={location.ConnectionString};Pooling=False");

    [Fact]
    public async Task AFileLockedByAnotherProcess_EndsInOneLineWithinTheTimeout()
    {
        var location = NewStore();
        await ResultStore.OpenAsync(location, cancellationToken: TestPaths.Timeout());
        var store = await ResultStore.OpenAsync(location, TimeSpan.FromSeconds(1), TestPaths.Timeout());
        await using var holder = Connect(location);
        await holder.OpenAsync(TestPaths.Timeout());
        await using var exclusive = holder.CreateCommand();
        exclusive.CommandText = "BEGIN EXCLUSIVE";
        await exclusive.ExecuteNonQueryAsync(TestPaths.Timeout());

        var watch = Stopwatch.StartNew();
        var error = await Assert.ThrowsAsync<ResultStoreException>(() => store.AppendAsync(StoredResults.Json(StoredResults.Template), new StoreMetadata(null, null, null), TestPaths.Timeout()));

        Assert.InRange(watch.Elapsed, TimeSpan.FromSeconds(0.5), TimeSpan.FromSeconds(15));
        Assert.Equal($"The results store {location.Display} stayed locked by another process for 1 s (to write to it): let that process end, or give a longer --store-timeout.", error.Message);
    }

    [Fact]
    public async Task AFolderThatDoesNotExist_IsSaidInOneLine()
    {
        var location = StoreLocation.Parse(Path.Combine(_folder.FullName, "missing", "results.db"));

        var error = await Assert.ThrowsAsync<ResultStoreException>(() => ResultStore.OpenAsync(location, cancellationToken: TestPaths.Timeout()));

        Assert.StartsWith("The results store's folder '", error.Message, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(_folder.FullName, "missing")));
    }

    [Theory]
    [InlineData("Host=db;Password=secret;Database=k", "--store looks like a connection string")]
    [InlineData("postgres", "--store postgres reads its connection string from KAFKAPERF_STORE_POSTGRES, which is not set")]
    [InlineData("postgres:/nonexistent/conn", "The store's connection string file '/nonexistent/conn' cannot be read")]
    [InlineData(" ", "--store is empty")]
    public void BadStoreNames_AreRefusedInOneLine_WithoutTheSecret(string spec, string start)
    {
        var error = Assert.Throws<ResultStoreException>(() => StoreLocation.Parse(spec, _ => null));

        Assert.StartsWith(start, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("secret", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void APostgresStore_IsNamedWithoutItsPassword()
    {
        var location = StoreLocation.Parse("postgres", name => name == StoreLocation.PostgresVariable ? "Host=db.example;Port=5433;Database=perf;Username=ci;Password=hunter2" : null);

        Assert.Equal(StoreKind.Postgres, location.Kind);
        Assert.Equal("PostgreSQL db.example:5433/perf", location.Display);
        Assert.DoesNotContain("hunter2", location.ToString(), StringComparison.Ordinal);
    }
}

/// <summary>The store on a real PostgreSQL server, started for these tests.</summary>
public sealed class PostgresResultStoreTests(PostgresServer server) : ResultStoreContract, IClassFixture<PostgresServer>
{
    protected override StoreLocation NewStore() => StoreLocation.Parse("postgres:" + server.WriteConnectionFile(server.CreateDatabase()));

    protected override DbConnection Connect(StoreLocation location) => new NpgsqlConnection(location.ConnectionString);

    [Fact]
    public async Task AServerThatDoesNotAnswer_EndsInOneLineWithinTheTimeout()
    {
        var location = StoreLocation.Parse("postgres", _ => "Host=127.0.0.1;Port=1;Username=nobody;Password=hunter2;Database=none");
        var watch = Stopwatch.StartNew();

        var error = await Assert.ThrowsAsync<ResultStoreException>(() => ResultStore.OpenAsync(location, TimeSpan.FromSeconds(2), TestPaths.Timeout()));

        Assert.InRange(watch.Elapsed, TimeSpan.Zero, TimeSpan.FromSeconds(15));
        Assert.StartsWith("The results store PostgreSQL 127.0.0.1:1/none cannot be used (to create or migrate it: ", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("hunter2", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error.Message);
    }

    [Fact]
    public async Task FourOpenersMigratingAFreshStoreAtOnce_AllSucceed()
    {
        var location = NewStore();

        await Task.WhenAll(Enumerable.Range(0, 4).Select(_ => Task.Run(() => ResultStore.OpenAsync(location, cancellationToken: TestPaths.Timeout()))));

        var store = await ResultStore.OpenAsync(location, cancellationToken: TestPaths.Timeout());
        Assert.Equal(2, await store.SchemaVersionAsync(TestPaths.Timeout()));
        Assert.Empty(await store.ListAsync(new HistoryFilter(), TestPaths.Timeout()));
    }
}
