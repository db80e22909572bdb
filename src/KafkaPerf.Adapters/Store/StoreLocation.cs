using Npgsql;

namespace KafkaPerf.Adapters.Store;

/// <summary>Which kind of database a results store is.</summary>
public enum StoreKind
{
    /// <summary>SQLite, in one file.</summary>
    Sqlite,

    /// <summary>A PostgreSQL server.</summary>
    Postgres,
}

/// <summary>
/// Where results are kept. <c>--store</c> (or <c>KAFKAPERF_STORE</c>) takes a file path (SQLite, created when missing),
/// <c>postgres</c> (the connection string in the <c>KAFKAPERF_STORE_POSTGRES</c> variable) or <c>postgres:FILE</c> (the
/// connection string in FILE). A connection string itself is refused on the command line: it would hold a password
/// where every process on the machine can read it.
/// </summary>
/// <param name="Kind">The database.</param>
/// <param name="ConnectionString">How to connect; never shown.</param>
/// <param name="Display">How to name the store in messages: the file, or host, port and database without credentials.</param>
public sealed record StoreLocation(StoreKind Kind, string ConnectionString, string Display)
{
    /// <summary>The variable that names the store when <c>--store</c> is not given.</summary>
    public const string StoreVariable = "KAFKAPERF_STORE";

    /// <summary>The variable that holds a PostgreSQL store's connection string.</summary>
    public const string PostgresVariable = "KAFKAPERF_STORE_POSTGRES";

    /// <summary>Reads a store's name.</summary>
    /// <param name="spec">A path, <c>postgres</c> or <c>postgres:FILE</c>.</param>
    /// <param name="environment">Reads a variable (the process's environment, or a test's).</param>
    /// <returns>The location.</returns>
    /// <exception cref="ResultStoreException">The name is empty, holds a connection string, or its file or variable is missing.</exception>
    public static StoreLocation Parse(string spec, Func<string, string?>? environment = null)
    {
        environment ??= Environment.GetEnvironmentVariable;
        if (string.IsNullOrWhiteSpace(spec))
            throw new ResultStoreException("--store is empty: give a file (results.db), postgres (the connection string in KAFKAPERF_STORE_POSTGRES) or postgres:FILE.");
        spec = spec.Trim();
        if (spec.Contains('=', StringComparison.Ordinal) && spec.Contains(';', StringComparison.Ordinal))
            throw new ResultStoreException("--store looks like a connection string, which the command line would show to every process on this machine: put it in a file (--store postgres:FILE) or in KAFKAPERF_STORE_POSTGRES (--store postgres).");
        if (spec.Equals("postgres", StringComparison.OrdinalIgnoreCase))
        {
            var fromVariable = environment(PostgresVariable);
            if (string.IsNullOrWhiteSpace(fromVariable))
                throw new ResultStoreException($"--store postgres reads its connection string from {PostgresVariable}, which is not set: set it, or give postgres:FILE.");
            return Postgres(fromVariable.Trim(), $"the variable {PostgresVariable}");
        }
        if (spec.StartsWith("postgres:", StringComparison.OrdinalIgnoreCase))
        {
            var file = spec["postgres:".Length..];
            string text;
            try
            {
                text = File.ReadAllText(file).Trim();
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException)
            {
                throw new ResultStoreException($"The store's connection string file '{file}' cannot be read ({ex.Message.TrimEnd('.')}): give a file holding one PostgreSQL connection string.", ex);
            }
            if (text.Length == 0) throw new ResultStoreException($"The store's connection string file '{file}' is empty: write one PostgreSQL connection string in it (Host=…;Database=…;Username=…).");
            return Postgres(text, $"the file '{file}'");
        }
        var path = Path.GetFullPath(spec);
        if (Directory.Exists(path)) throw new ResultStoreException($"--store '{spec}' is a folder: give a file, e.g. {Path.Combine(spec, "results.db")}.");
        return new StoreLocation(StoreKind.Sqlite, path, path);
    }

    private static StoreLocation Postgres(string connectionString, string source)
    {
        NpgsqlConnectionStringBuilder builder;
        try
        {
            builder = new NpgsqlConnectionStringBuilder(connectionString);
        }
        catch (ArgumentException ex)
        {
            // The message of a bad connection string may quote it: it stays out of the line.
            throw new ResultStoreException($"The PostgreSQL connection string in {source} is not one Npgsql reads: write it as Host=…;Port=…;Database=…;Username=…;Password=….", ex);
        }
        var display = $"PostgreSQL {builder.Host}:{builder.Port}/{builder.Database ?? builder.Username}";
        return new StoreLocation(StoreKind.Postgres, builder.ConnectionString, display);
    }

    /// <inheritdoc />
    public override string ToString() => Display;
}
