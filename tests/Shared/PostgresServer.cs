using System.Net;
using System.Net.Sockets;

namespace KafkaPerf.Tests.Postgres;

/// <summary>
/// A PostgreSQL server of the tests' own, started as the broker is: Debian's binaries (eng/install-prerequisites.sh
/// --tests installs them), a data folder in the temporary folder, trust authentication on 127.0.0.1 and a free port;
/// stopped and deleted on dispose. As root, the server runs as the <c>postgres</c> user (it refuses root).
/// </summary>
public sealed class PostgresServer : IDisposable
{
    private readonly string _folder;
    private readonly string _bin;
    private readonly bool _asPostgres;

    public PostgresServer()
    {
        _bin = Directory.Exists("/usr/lib/postgresql")
            ? Directory.GetDirectories("/usr/lib/postgresql").Select(d => Path.Combine(d, "bin")).Where(d => File.Exists(Path.Combine(d, "initdb"))).Order().LastOrDefault() ?? string.Empty
            : string.Empty;
        if (_bin.Length == 0) throw new InvalidOperationException("PostgreSQL's binaries are not in /usr/lib/postgresql/*/bin: eng/install-prerequisites.sh --tests installs Debian's postgresql.");
        _asPostgres = Environment.UserName == "root";
        _folder = Path.Combine(Path.GetTempPath(), "kafkaperf-postgres-" + Guid.NewGuid().ToString("N")[..8]);
        Directory.CreateDirectory(_folder);
        if (_asPostgres) Run(TimeSpan.FromSeconds(10), "chown", "postgres", _folder);
        Port = FreePort();
        var data = Path.Combine(_folder, "data");
        Pg(TimeSpan.FromSeconds(120), "initdb", "-D", data, "-A", "trust", "-U", "kafkaperf", "--no-sync");
        Pg(TimeSpan.FromSeconds(60), "pg_ctl", "-D", data, "-l", Path.Combine(_folder, "log"), "-w", "-t", "50",
            "-o", $"-p {Port} -k {_folder} -c listen_addresses=127.0.0.1 -c fsync=off", "start");
        ConnectionString = $"Host=127.0.0.1;Port={Port};Username=kafkaperf;Database=postgres";
    }

    public int Port { get; }

    /// <summary>How to reach it: no password (trust on the loopback address).</summary>
    public string ConnectionString { get; }

    /// <summary>A connection string file, as a user gives one with --store postgres:FILE.</summary>
    public string WriteConnectionFile(string database = "postgres")
    {
        var file = Path.Combine(_folder, $"store-{Guid.NewGuid():N}.conn");
        File.WriteAllText(file, ConnectionString.Replace("Database=postgres", $"Database={database}", StringComparison.Ordinal));
        return file;
    }

    /// <summary>A new, empty database on the server: each test its own store.</summary>
    public string CreateDatabase()
    {
        var name = "store_" + Guid.NewGuid().ToString("N")[..12];
        Pg(TimeSpan.FromSeconds(30), "createdb", "-h", "127.0.0.1", "-p", Port.ToString(System.Globalization.CultureInfo.InvariantCulture), "-U", "kafkaperf", name);
        return name;
    }

    public void Dispose()
    {
        try
        {
            Pg(TimeSpan.FromSeconds(30), "pg_ctl", "-D", Path.Combine(_folder, "data"), "-m", "immediate", "-w", "stop");
        }
        catch (InvalidOperationException)
        {
            // Already stopped; the folder goes anyway.
        }
        Directory.Delete(_folder, recursive: true);
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    private void Pg(TimeSpan timeout, string tool, params string[] args)
    {
        var path = Path.Combine(_bin, tool);
        if (_asPostgres) Run(timeout, "runuser", ["-u", "postgres", "--", path, .. args]);
        else Run(timeout, path, args);
    }

    private static void Run(TimeSpan timeout, string file, params string[] args)
    {
        var (exit, stdout, stderr) = Shared.ExternalProcess.Run(file, timeout, args);
        if (exit != 0) throw new InvalidOperationException($"{file} {string.Join(' ', args)} exited with {exit}: {stdout}{stderr}");
    }
}
