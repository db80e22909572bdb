using System.Diagnostics;
using System.Globalization;
using KafkaPerf.Adapters.Store;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace KafkaPerf.Benchmarks;

/// <summary>
/// What keeping results costs (<c>store-cost [COUNT] [--result FILE] [--postgres FILE] [--keep]</c>): COUNT distinct copies of one
/// realistic result (by default the 32-run, 8-cell result of the exporter tests; each copy starts one minute after the
/// one before, so every document differs) appended one by one to a fresh SQLite file in a temporary folder, and, when a
/// file with a PostgreSQL connection string is given, to that database. Prints the time of each append (median and
/// p95, the open excluded), the bytes each stored result takes, the document's own size, and the time of a
/// <see cref="ResultStore.CellsAsync"/> query over the whole store and of one gate query (<see cref="HistoryGateQuery"/>,
/// the last 10 results of each of the candidate's cells). <c>--keep</c> leaves the SQLite file in place for a look.
/// </summary>
internal static class StoreCost
{
    private const string DefaultResult = "tests/KafkaPerf.Core.Tests/Reporting/Expected/result.json";

    public static async Task<int> RunAsync(int count, string? resultPath, string? postgresFile, bool keep = false)
    {
        resultPath ??= Find(DefaultResult) ?? throw new FileNotFoundException($"{DefaultResult} was not found above the current folder: give a result's JSON file.");
        var template = ResultJson.Parse(await File.ReadAllTextAsync(resultPath), resultPath);
        int documentBytes = System.Text.Encoding.UTF8.GetByteCount(ResultJson.Write(template));
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{count} copies of {Path.GetFileName(resultPath)} ({template.Runs.Count} runs, {template.Cells.Count} cells, {documentBytes:N0} B of JSON); {Environment.ProcessorCount} cores, .NET {Environment.Version}."));
        Console.WriteLine();
        Console.WriteLine("| store | results | JSON document | stored per result | append median | append p95 | open | whole-store CellsAsync | gate query (last 10) |");
        Console.WriteLine("|---|---:|---:|---:|---:|---:|---:|---:|---:|");

        var folder = Directory.CreateTempSubdirectory("kafkaperf-store-cost-");
        try
        {
            var file = Path.Combine(folder.FullName, "results.db");
            await MeasureAsync("SQLite (WAL)", StoreLocation.Parse(file), template, count, documentBytes, async () =>
            {
                // Fold the write-ahead log into the file first: its size is then the whole store's.
                await using (var connection = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = file, Pooling = false }.ToString()))
                {
                    await connection.OpenAsync();
                    await using var checkpoint = connection.CreateCommand();
                    checkpoint.CommandText = "PRAGMA wal_checkpoint(TRUNCATE)";
                    await checkpoint.ExecuteNonQueryAsync();
                }
                long wal = File.Exists(file + "-wal") ? new FileInfo(file + "-wal").Length : 0;
                return new FileInfo(file).Length + wal;
            });
        }
        finally
        {
            if (keep) Console.WriteLine($"(kept {folder.FullName})");
            else folder.Delete(recursive: true);
        }

        if (postgresFile is not null)
        {
            var location = StoreLocation.Parse("postgres:" + postgresFile);
            await MeasureAsync("PostgreSQL", location, template, count, documentBytes, async () =>
            {
                await using var connection = new NpgsqlConnection(location.ConnectionString);
                await connection.OpenAsync();
                await using var size = new NpgsqlCommand(
                    "SELECT pg_total_relation_size('results') + pg_total_relation_size('cells') + pg_total_relation_size('kafkaperf_schema')", connection);
                return Convert.ToInt64(await size.ExecuteScalarAsync(), CultureInfo.InvariantCulture);
            });
        }
        return 0;
    }

    private static async Task MeasureAsync(string name, StoreLocation location, BenchmarkResult template, int count, int documentBytes, Func<Task<long>> storeBytes)
    {
        var open = Stopwatch.StartNew();
        var store = await ResultStore.OpenAsync(location, TimeSpan.FromSeconds(60));
        open.Stop();
        var start = template.StartedAtUtc;
        var length = template.FinishedAtUtc - template.StartedAtUtc;
        var times = new double[count];
        for (int i = 0; i < count; i++)
        {
            // The document is written before the clock starts: what is timed is the append (its parse, the insert, the cells, the commit).
            var copy = template with { StartedAtUtc = start.AddMinutes(i), FinishedAtUtc = start.AddMinutes(i) + length };
            var json = ResultJson.Write(copy);
            var metadata = new StoreMetadata("store-cost", "0123456789abcdef0123456789abcdef01234567", "main");
            long before = Stopwatch.GetTimestamp();
            var outcome = await store.AppendAsync(json, metadata);
            times[i] = Stopwatch.GetElapsedTime(before).TotalMilliseconds;
            if (outcome.AlreadyStored) throw new InvalidOperationException($"copy {i} was already stored: the copies must differ.");
        }
        // Each query twice: the first call in a process also pays for compiling its code, the second is what a warm one costs.
        var candidate = template with { StartedAtUtc = start.AddMinutes(count + 1), FinishedAtUtc = start.AddMinutes(count + 1) + length };
        var (query, cells) = (new double[2], 0);
        var (gate, judged) = (new double[2], 0);
        for (int round = 0; round < 2; round++)
        {
            long before = Stopwatch.GetTimestamp();
            cells = (await store.CellsAsync(new HistoryFilter())).Count;
            query[round] = Stopwatch.GetElapsedTime(before).TotalMilliseconds;
            before = Stopwatch.GetTimestamp();
            judged = (await HistoryGateQuery.JudgeAsync(store, candidate, new HistoryScope())).Count(j => j.Judged);
            gate[round] = Stopwatch.GetElapsedTime(before).TotalMilliseconds;
        }
        long bytes = await storeBytes();
        Array.Sort(times);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"| {name} | {count} | {documentBytes / 1024.0:0.0} KB | {bytes / (double)count / 1024.0:0.0} KB | {Percentile(times, 0.5):0.0} ms | {Percentile(times, 0.95):0.0} ms | {open.Elapsed.TotalMilliseconds:0} ms "
            + $"| {query[0]:0} ms, again {query[1]:0} ms ({cells} cells) | {gate[0]:0} ms, again {gate[1]:0} ms ({judged} cells judged) |"));
    }

    private static double Percentile(double[] sorted, double p)
    {
        double rank = p * (sorted.Length - 1);
        int low = (int)Math.Floor(rank);
        int high = Math.Min(low + 1, sorted.Length - 1);
        return sorted[low] + ((rank - low) * (sorted[high] - sorted[low]));
    }

    private static string? Find(string relative)
    {
        foreach (var origin in new[] { Directory.GetCurrentDirectory(), AppContext.BaseDirectory })
        {
            for (var dir = new DirectoryInfo(origin); dir is not null; dir = dir.Parent)
            {
                var candidate = Path.Combine(dir.FullName, relative);
                if (File.Exists(candidate)) return candidate;
            }
        }
        return null;
    }
}
