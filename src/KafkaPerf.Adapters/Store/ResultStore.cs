using System.Data.Common;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Reporting.History;
using KafkaPerf.Scenarios;
using Microsoft.Data.Sqlite;
using Npgsql;
using static KafkaPerf.Adapters.Store.StoreSchema;

namespace KafkaPerf.Adapters.Store;

/// <summary>
/// Results kept over time (<c>--store</c>, <c>history</c>, <c>compare --against-history</c>): each result's JSON document as
/// its file holds it, with when it started, the label, commit and branch it was run for, its machine and environment
/// class, and one row per cell with its runs' values. Each append is one transaction, so two runs writing at once both
/// land; the same document stored twice is kept once. Every failure underneath ends in a <see cref="ResultStoreException"/>
/// within the store's timeout.
/// </summary>
public sealed class ResultStore
{
    private readonly StoreLocation _location;
    private readonly TimeSpan _timeout;

    private ResultStore(StoreLocation location, TimeSpan timeout)
    {
        _location = location;
        _timeout = timeout;
    }

    /// <summary>The store.</summary>
    public StoreLocation Location => _location;

    /// <summary>Opens a store, creating it or migrating it to this release's schema.</summary>
    /// <param name="location">Where it is.</param>
    /// <param name="timeout">How long to wait for a connection or a lock.</param>
    /// <param name="cancellationToken">Cancels.</param>
    /// <returns>The store, ready.</returns>
    /// <exception cref="ResultStoreException">It cannot be reached, created, locked or migrated.</exception>
    public static async Task<ResultStore> OpenAsync(StoreLocation location, TimeSpan? timeout = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(location);
        var store = new ResultStore(location, timeout ?? TimeSpan.FromSeconds(30));
        await store.MigrateToAsync(StoreSchema.Current, cancellationToken);
        return store;
    }

    /// <summary>Creates a store at an older schema version: what the migration tests start from.</summary>
    internal static async Task<ResultStore> CreateAtVersionAsync(StoreLocation location, int version, CancellationToken cancellationToken = default)
    {
        var store = new ResultStore(location, TimeSpan.FromSeconds(30));
        await store.MigrateToAsync(version, cancellationToken);
        return store;
    }

    /// <summary>The schema version the store is at.</summary>
    public Task<int> SchemaVersionAsync(CancellationToken cancellationToken = default) => WithConnectionAsync("read", async (connection, ct) =>
    {
        await using var command = Command(connection, null, "SELECT MAX(version) FROM kafkaperf_schema");
        return Convert.ToInt32(await command.ExecuteScalarAsync(ct), CultureInfo.InvariantCulture);
    }, cancellationToken);

    /// <summary>Appends a result.</summary>
    /// <param name="json">The result's JSON, as its file holds it (<see cref="ResultJson.Write"/>).</param>
    /// <param name="metadata">Label, commit and branch.</param>
    /// <param name="cancellationToken">Cancels.</param>
    /// <returns>Its number, and whether it was there already.</returns>
    /// <exception cref="ResultStoreException">The store cannot be written.</exception>
    /// <exception cref="InvalidDataException">The text is not a KafkaPerf result.</exception>
    public async Task<StoreOutcome> AppendAsync(string json, StoreMetadata metadata, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(json);
        ArgumentNullException.ThrowIfNull(metadata);
        var result = ResultJson.Parse(json, "the result");
        var key = KeyOf(json);
        return await WithTransactionAsync("write to", async (connection, transaction, ct) =>
        {
            if (await FindAsync(connection, transaction, key, ct) is { } existing) return new StoreOutcome(existing, AlreadyStored: true);
            long id;
            await using (var insert = Command(connection, transaction,
                "INSERT INTO results (result_key, stored_at, started_at, label, git_commit, git_branch, machine, tool_version, environment_class, clients) "
                + "VALUES (@key, @stored, @started, @label, @commit, @branch, @machine, @tool, @class, @clients) ON CONFLICT (result_key) DO NOTHING RETURNING id"))
            {
                Parameter(insert, "@key", key);
                Parameter(insert, "@stored", Timestamp(DateTimeOffset.UtcNow));
                Parameter(insert, "@started", Timestamp(result.StartedAtUtc));
                Parameter(insert, "@label", metadata.Label);
                Parameter(insert, "@commit", metadata.GitCommit);
                Parameter(insert, "@branch", metadata.GitBranch);
                Parameter(insert, "@machine", result.Environment.MachineName);
                Parameter(insert, "@tool", result.Environment.ToolVersion);
                Parameter(insert, "@class", EnvironmentClass.Of(result.Environment));
                Parameter(insert, "@clients", string.Join(',', result.Plan.Clients));
                var returned = await insert.ExecuteScalarAsync(ct);
                // Another writer stored the same document between the look-up and the insert.
                if (returned is null or DBNull) return new StoreOutcome(await FindAsync(connection, transaction, key, ct) ?? 0, AlreadyStored: true);
                id = Convert.ToInt64(returned, CultureInfo.InvariantCulture);
            }
            await using (var document = Command(connection, transaction, "INSERT INTO documents (result_id, document) VALUES (@id, @document)"))
            {
                Parameter(document, "@id", id);
                Parameter(document, "@document", json);
                await document.ExecuteNonQueryAsync(ct);
            }
            await InsertCellsAsync(connection, transaction, id, result, ct);
            return new StoreOutcome(id, AlreadyStored: false);
        }, cancellationToken);
    }

    /// <summary>A stored result's document, exactly as it was stored.</summary>
    /// <param name="id">Its number.</param>
    /// <param name="cancellationToken">Cancels.</param>
    /// <returns>The JSON, or <see langword="null"/> when there is no such result.</returns>
    public Task<string?> ReadDocumentAsync(long id, CancellationToken cancellationToken = default) => WithConnectionAsync("read", async (connection, ct) =>
    {
        await using var command = Command(connection, null, "SELECT document FROM documents WHERE result_id = @id");
        Parameter(command, "@id", id);
        return await command.ExecuteScalarAsync(ct) as string;
    }, cancellationToken);

    /// <summary>The stored results that match a filter (a cell filter matches a result with at least one such cell), oldest first.</summary>
    /// <param name="filter">The filter.</param>
    /// <param name="cancellationToken">Cancels.</param>
    /// <returns>The results.</returns>
    public Task<IReadOnlyList<StoredResult>> ListAsync(HistoryFilter filter, CancellationToken cancellationToken = default) => WithConnectionAsync("read", async (connection, ct) =>
    {
        ArgumentNullException.ThrowIfNull(filter);
        await using var command = Command(connection, null, string.Empty);
        var where = ResultWhere(command, filter);
        var cellWhere = CellWhere(command, filter);
        if (cellWhere.Count > 0) where.Add($"EXISTS (SELECT 1 FROM cells c WHERE c.result_id = r.id AND {string.Join(" AND ", cellWhere)})");
        command.CommandText = "SELECT r.id, r.stored_at, r.started_at, r.label, r.git_commit, r.git_branch, r.machine, r.environment_class, r.tool_version, r.clients, "
            + "(SELECT COUNT(*) FROM cells c2 WHERE c2.result_id = r.id) FROM results r"
            + (where.Count > 0 ? " WHERE " + string.Join(" AND ", where) : string.Empty)
            + " ORDER BY r.started_at DESC, r.id DESC" + (filter.Last is { } last ? $" LIMIT {last.ToString(CultureInfo.InvariantCulture)}" : string.Empty);
        var rows = new List<StoredResult>();
        await using var reader = await command.ExecuteReaderAsync(ct);
        while (await reader.ReadAsync(ct))
        {
            rows.Add(new StoredResult(reader.GetInt64(0), ParseTimestamp(reader.GetString(1)), ParseTimestamp(reader.GetString(2)),
                new StoreMetadata(Text(reader, 3), Text(reader, 4), Text(reader, 5)), reader.GetString(6), Text(reader, 7) ?? string.Empty, reader.GetString(8),
                (Text(reader, 9) ?? string.Empty).Split(',', StringSplitOptions.RemoveEmptyEntries), Convert.ToInt32(reader.GetValue(10), CultureInfo.InvariantCulture)));
        }
        rows.Reverse();
        return (IReadOnlyList<StoredResult>)rows;
    }, cancellationToken);

    /// <summary>The stored cells that match a filter, oldest first; with <see cref="HistoryFilter.Last"/>, the last so many of each cell.</summary>
    /// <param name="filter">The filter.</param>
    /// <param name="cells">Only these cells, when given.</param>
    /// <param name="cancellationToken">Cancels.</param>
    /// <returns>The cells, grouped by cell in first-seen order, each group oldest first.</returns>
    public Task<IReadOnlyList<StoredCell>> CellsAsync(HistoryFilter filter, IReadOnlyCollection<CellKey>? cells = null, CancellationToken cancellationToken = default) =>
        WithConnectionAsync("read", async (connection, ct) =>
        {
            ArgumentNullException.ThrowIfNull(filter);
            await using var command = Command(connection, null, string.Empty);
            var where = ResultWhere(command, filter);
            where.AddRange(CellWhere(command, filter));
            if (cells is { Count: > 0 })
            {
                var names = new List<string>();
                foreach (var (cell, i) in cells.Select((c, i) => (c, i)))
                {
                    names.Add($"@cell{i}");
                    Parameter(command, $"@cell{i}", cell.Text);
                }
                where.Add($"c.cell_key IN ({string.Join(", ", names)})");
            }
            const string Columns = "c.result_id, r.started_at, r.label, r.git_commit, r.git_branch, c.client, c.scenario, c.message_count, c.payload_bytes, c.variant, c.offered_rate, c.run_values";
            string from = "FROM cells c JOIN results r ON r.id = c.result_id" + (where.Count > 0 ? " WHERE " + string.Join(" AND ", where) : string.Empty);
            // The last N of each cell are chosen by the database (a window over each cell, newest first), not read and dropped here.
            command.CommandText = filter.Last is { } last
                ? $"SELECT * FROM (SELECT {Columns}, ROW_NUMBER() OVER (PARTITION BY c.cell_key ORDER BY r.started_at DESC, r.id DESC) AS recent {from}) picked "
                    + $"WHERE recent <= {last.ToString(CultureInfo.InvariantCulture)} ORDER BY started_at, result_id"
                : $"SELECT {Columns} {from} ORDER BY r.started_at, r.id";
            var rows = new List<StoredCell>();
            await using (var reader = await command.ExecuteReaderAsync(ct))
            {
                while (await reader.ReadAsync(ct))
                {
                    var cell = new CellKey(reader.GetString(5), Enum.Parse<ScenarioKind>(reader.GetString(6), ignoreCase: true), Convert.ToInt64(reader.GetValue(7), CultureInfo.InvariantCulture),
                        Convert.ToInt32(reader.GetValue(8), CultureInfo.InvariantCulture), reader.GetString(9), reader.IsDBNull(10) ? null : reader.GetDouble(10));
                    var values = reader.GetString(11).Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(v => double.Parse(v, CultureInfo.InvariantCulture)).ToArray();
                    rows.Add(new StoredCell(reader.GetInt64(0), ParseTimestamp(reader.GetString(1)), new StoreMetadata(Text(reader, 2), Text(reader, 3), Text(reader, 4)), cell, values));
                }
            }
            return (IReadOnlyList<StoredCell>)[.. rows.GroupBy(r => r.Cell).SelectMany(g => g)];
        }, cancellationToken);

    /// <summary>The key that makes one document one result: its SHA-256.</summary>
    /// <param name="json">The document.</param>
    /// <returns>The key, in hexadecimal.</returns>
    public static string KeyOf(string json) => Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(json)));

    private static List<string> ResultWhere(DbCommand command, HistoryFilter filter)
    {
        var where = new List<string>();
        void Add(string condition, string name, object? value) => Condition(command, where, condition, name, value);
        Add("r.label = @label", "@label", filter.Label);
        Add("r.git_commit LIKE @commit", "@commit", filter.Commit is { } commit ? commit + "%" : null);
        Add("r.git_branch = @branch", "@branch", filter.Branch);
        Add("r.started_at >= @since", "@since", filter.Since is { } since ? Timestamp(since) : null);
        Add("r.started_at < @until", "@until", filter.Until is { } until ? Timestamp(until) : null);
        Add("r.environment_class = @class", "@class", filter.EnvironmentClass);
        return where;
    }

    private static List<string> CellWhere(DbCommand command, HistoryFilter filter)
    {
        var where = new List<string>();
        void Add(string condition, string name, object? value) => Condition(command, where, condition, name, value);
        Add("c.client = @client", "@client", filter.Client);
        Add("c.scenario = @scenario", "@scenario", filter.Scenario?.ToString().ToLowerInvariant());
        Add("c.payload_bytes = @payload", "@payload", filter.PayloadBytes);
        Add("c.offered_rate = @rate", "@rate", filter.Rate);
        return where;
    }

    /// <summary>A condition of a filter that is set, with its parameter.</summary>
    private static void Condition(DbCommand command, List<string> where, string condition, string name, object? value)
    {
        if (value is null) return;
        where.Add(condition);
        Parameter(command, name, value);
    }

    private static async Task<long?> FindAsync(DbConnection connection, DbTransaction transaction, string key, CancellationToken cancellationToken)
    {
        await using var find = Command(connection, transaction, "SELECT id FROM results WHERE result_key = @key");
        Parameter(find, "@key", key);
        return await find.ExecuteScalarAsync(cancellationToken) is { } id and not DBNull ? Convert.ToInt64(id, CultureInfo.InvariantCulture) : null;
    }

    private static string? Text(DbDataReader reader, int column) => reader.IsDBNull(column) ? null : reader.GetString(column);

    private static string Timestamp(DateTimeOffset time) => time.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'", CultureInfo.InvariantCulture);

    private static DateTimeOffset ParseTimestamp(string text) => DateTimeOffset.Parse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal);

    private async Task MigrateToAsync(int version, CancellationToken cancellationToken) =>
        await WithTransactionAsync("create or migrate", async (connection, transaction, ct) =>
        {
            if (_location.Kind == StoreKind.Postgres)
            {
                // One migrating process at a time; the others find the work done.
                await using var lockCommand = Command(connection, transaction, "SELECT pg_advisory_xact_lock(7357001)");
                await lockCommand.ExecuteNonQueryAsync(ct);
            }
            return await MigrateAsync(connection, transaction, _location.Kind, version, ct);
        }, cancellationToken);

    private async Task<T> WithTransactionAsync<T>(string what, Func<DbConnection, DbTransaction, CancellationToken, Task<T>> body, CancellationToken cancellationToken) =>
        await WithConnectionAsync(what, async (connection, ct) =>
        {
            // SQLite: an immediate transaction takes the write lock at once, so two writers queue instead of failing at commit.
            await using var transaction = connection is SqliteConnection sqlite ? sqlite.BeginTransaction(deferred: false) : await connection.BeginTransactionAsync(ct);
            var value = await body(connection, transaction, ct);
            await transaction.CommitAsync(ct);
            return value;
        }, cancellationToken);

    private async Task<T> WithConnectionAsync<T>(string what, Func<DbConnection, CancellationToken, Task<T>> body, CancellationToken cancellationToken)
    {
        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        // Past the timeout and a grace, anything underneath that still waits is cancelled.
        bounded.CancelAfter(_timeout + TimeSpan.FromSeconds(5));
        try
        {
            await using var connection = await ConnectAsync(bounded.Token);
            return await body(connection, bounded.Token);
        }
        catch (OperationCanceledException ex) when (!cancellationToken.IsCancellationRequested)
        {
            throw new ResultStoreException($"The results store {_location} did not answer within {_timeout.TotalSeconds:0} s (to {what} it): check that it is up, or give a longer --store-timeout.", ex);
        }
        catch (SqliteException ex) when (ex.SqliteErrorCode is 5 or 6)
        {
            throw new ResultStoreException($"The results store {_location} stayed locked by another process for {_timeout.TotalSeconds:0} s (to {what} it): let that process end, or give a longer --store-timeout.", ex);
        }
        catch (SqliteException ex)
        {
            throw new ResultStoreException($"The results store {_location} cannot be used (to {what} it: {ex.Message.TrimEnd('.')}): give a writable SQLite file with --store.", ex);
        }
        catch (NpgsqlException ex)
        {
            throw new ResultStoreException($"The results store {_location} cannot be used (to {what} it: {OneLine(ex)}): check the server and the connection string.", ex);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new ResultStoreException($"The results store {_location} cannot be used (to {what} it: {ex.Message.TrimEnd('.')}).", ex);
        }
    }

    private async Task<DbConnection> ConnectAsync(CancellationToken cancellationToken)
    {
        int seconds = (int)Math.Ceiling(_timeout.TotalSeconds);
        if (_location.Kind == StoreKind.Sqlite)
        {
            if (Path.GetDirectoryName(_location.ConnectionString) is { Length: > 0 } folder && !Directory.Exists(folder))
                throw new ResultStoreException($"The results store's folder '{folder}' does not exist: create it, or give another file with --store.");
            // No pooling: a file is let go when its connection closes (a test deletes it, another process locks it).
            var sqlite = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = _location.ConnectionString, Mode = SqliteOpenMode.ReadWriteCreate, Pooling = false, DefaultTimeout = seconds }.ToString());
            await sqlite.OpenAsync(cancellationToken);
            await using var pragma = Command(sqlite, null, $"PRAGMA journal_mode = WAL; PRAGMA busy_timeout = {(seconds * 1000).ToString(CultureInfo.InvariantCulture)}; PRAGMA foreign_keys = ON;");
            await pragma.ExecuteNonQueryAsync(cancellationToken);
            return sqlite;
        }
        var builder = new NpgsqlConnectionStringBuilder(_location.ConnectionString);
        if (!builder.ContainsKey("Timeout") || builder.Timeout == 15) builder.Timeout = Math.Max(1, seconds);
        builder.CommandTimeout = Math.Max(1, seconds);
        var postgres = new NpgsqlConnection(builder.ConnectionString);
        await postgres.OpenAsync(cancellationToken);
        return postgres;
    }

    private static string OneLine(Exception ex) =>
        (ex.InnerException is { } inner && ex.Message.StartsWith("Exception while", StringComparison.Ordinal) ? inner.Message : ex.Message).ReplaceLineEndings(" ").TrimEnd('.');
}
