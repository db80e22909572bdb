using System.Text;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Cli;

/// <summary>
/// The results as they are made. When the first run starts, a base name no earlier result has is taken in the output
/// folder and the JSON written there, marked <c>inProgress</c>; after every run the CSV gets the new rows and the runs go
/// to <c>{baseName}.runs.jsonl</c> (<see cref="CheckpointLog"/>), both appended and flushed to disk, so that a process that
/// is killed loses at most the run in progress (<see cref="ResultJson.Read"/> reads the JSON and its lines as one result)
/// and a checkpoint costs what its run added. The final export then writes every format under the same base name and the
/// lines go. A folder that can no longer be written (removed, read-only, full) is left for the temporary folder, once,
/// with one line saying so.
/// </summary>
/// <remarks>Called from the runner between runs, and from a signal handler when the process must end at once.</remarks>
internal sealed class CheckpointFiles : IResultSink
{
    private static readonly UTF8Encoding Utf8NoBom = new(encoderShouldEmitUTF8Identifier: false);

    /// <summary>Files whose presence means a base name is taken (besides its JSON).</summary>
    private static readonly string[] TakenBy = [".csv", ".md", ".html", "-intervals.csv", CheckpointLog.Suffix];
    private readonly Lock _lock = new();
    private readonly string _stem;
    private readonly bool _keepCsv;
    private readonly bool _keepJson;
    private readonly TextWriter _errors;
    private readonly string _fallback;
    // The result so far in two parts, so that a checkpoint never copies the runs: the rest as the last checkpoint gave it,
    // and every run (those the JSON holds, then those in the lines).
    private BenchmarkResult? _rest;
    private readonly List<RunRecord> _runs = [];
    private int _runsSaved;
    private string? _restWritten;
    private RunDescriptor? _running;
    private int _rowsWritten;
    private bool _failedOver;
    private bool _closed;
    private long _flushedToDisk;

    /// <summary>How often a checkpoint waits for the disk. Every checkpoint is handed to the operating system before the
    /// next run starts, so a killed process (even SIGKILL) loses nothing but the run in progress; only a crash of the
    /// machine itself could lose the checkpoints of the last 2 s. Waiting for the disk after every run of a plan of many
    /// short runs cost more as the files grew (docs/BENCHMARKS.md, bookkeeping per run with 2 000 runs).</summary>
    private static readonly TimeSpan DiskFlushEvery = TimeSpan.FromSeconds(2);

    /// <summary>Prepares checkpoints; nothing is written before the first run starts.</summary>
    /// <param name="folder">The output folder.</param>
    /// <param name="stem">The preferred base name, e.g. <c>kafkaperf-20261123-231400</c>.</param>
    /// <param name="formats">The formats asked for: the CSV is checkpointed when csv is among them; the JSON always is,
    /// and is removed at a normal end when json is not among them.</param>
    /// <param name="errors">Where the one line about a folder that cannot be written goes.</param>
    /// <param name="fallbackFolder">Where the files go when the folder cannot be written; <see cref="FallbackFolder"/>
    /// when <see langword="null"/>.</param>
    public CheckpointFiles(string folder, string stem, IReadOnlyCollection<string> formats, TextWriter errors, string? fallbackFolder = null)
    {
        Folder = folder;
        _fallback = fallbackFolder ?? FallbackFolder;
        _stem = stem;
        _keepCsv = formats.Contains("csv");
        _keepJson = formats.Contains("json");
        _errors = errors;
    }

    /// <summary>Where the files are (the temporary folder after a failover).</summary>
    public string Folder { get; private set; }

    /// <summary>The base name taken, once the first run has started; <see langword="null"/> before.</summary>
    public string? BaseName { get; private set; }

    /// <summary>Whether the output folder could not be written and the files went to the temporary folder.</summary>
    public bool FailedOver => _failedOver;

    /// <summary>The temporary folder results go to when the output folder cannot be written.</summary>
    public static string FallbackFolder => Path.Combine(Path.GetTempPath(), "kafkaperf-results");

    private string JsonPath => Path.Combine(Folder, BaseName + ".json");

    private string CsvPath => Path.Combine(Folder, BaseName + ".csv");

    private string LinesPath => Path.Combine(Folder, BaseName + CheckpointLog.Suffix);

    /// <inheritdoc />
    public void OnRunStarting(RunDescriptor run, Func<BenchmarkResult> soFar)
    {
        lock (_lock)
        {
            if (_closed) return;
            _running = run;
            if (BaseName is not null) return;
            var whole = soFar();
            _runs.AddRange(whole.Runs.Skip(_runs.Count));
            _rest = whole;
            Write(whole);
        }
    }

    /// <inheritdoc />
    public void OnRunCompleted(ResultIncrement increment)
    {
        ArgumentNullException.ThrowIfNull(increment);
        lock (_lock)
        {
            if (_closed) return;
            _running = null;
            _rest = increment.Rest;
            _runs.AddRange(increment.Added);
            Write(null);
        }
    }

    /// <summary>For a process that must end now (a second Ctrl+C, a plan that did not stop in time): the last checkpoint
    /// again, as one JSON, with the run in progress marked cancelled and the result no longer in progress. Later calls do
    /// nothing.</summary>
    /// <returns>The JSON file written, or <see langword="null"/> when no run had started.</returns>
    public string? WriteInterrupted()
    {
        lock (_lock)
        {
            if (_closed || _rest is null) return null;
            // Summed up as the last checkpoint was: the run cut short is listed, not counted.
            var result = ResultSummarizer.Complete(_rest, [.. _runs]);
            if (_running is { } running)
            {
                _runs.Add(BenchmarkRunner.Unfinished(running, BenchmarkRunner.CancelledRunError));
                result = result with { Runs = [.. _runs] };
            }
            Write(result with { Cancelled = true, InProgress = false, FinishedAtUtc = DateTimeOffset.UtcNow });
            _closed = true;
            return BaseName is null ? null : JsonPath;
        }
    }

    /// <summary>Stops taking checkpoints: the final export writes the files now. Returns where that goes.</summary>
    /// <returns>The folder and base name of the checkpoint files, or <see langword="null"/> when none were written.</returns>
    public (string Folder, string BaseName)? Close()
    {
        lock (_lock)
        {
            _closed = true;
            return BaseName is null ? null : (Folder, BaseName);
        }
    }

    /// <summary>After the final export: removes the checkpoint's lines (the JSON written now holds every run), and the JSON
    /// when JSON was not asked for.</summary>
    public void RemoveUnrequested()
    {
        if (BaseName is null) return;
        try
        {
            File.Delete(LinesPath);
            if (!_keepJson) File.Delete(JsonPath);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // It says the same as the other files; left as it is.
        }
    }

    /// <summary>A checkpoint: <paramref name="whole"/> as the JSON when given (the first checkpoint, an interrupted
    /// plan), else a line of what was added since the last one.</summary>
    private void Write(BenchmarkResult? whole)
    {
        try
        {
            WriteIn(whole);
        }
        catch (Exception ex) when (!_failedOver && ex is IOException or UnauthorizedAccessException)
        {
            // The folder went away, became read-only or is full: the files go on in the temporary folder, all rows again.
            var from = Folder;
            _failedOver = true;
            Folder = _fallback;
            BaseName = null;
            _rowsWritten = 0;
            try
            {
                WriteIn(whole);
                _errors.WriteLine($"kafkaperf: the results can no longer be written to '{from}' ({ex.Message.TrimEnd('.')}); they are saved in '{Folder}' as {BaseName}.* from now on.");
            }
            catch (Exception second) when (second is IOException or UnauthorizedAccessException)
            {
                _errors.WriteLine($"kafkaperf: the results can no longer be written to '{from}' ({ex.Message.TrimEnd('.')}) nor to '{Folder}' ({second.Message.TrimEnd('.')}); only the tables at the end will show them.");
                _closed = true;
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            _errors.WriteLine($"kafkaperf: the results can no longer be written to '{Folder}' ({ex.Message.TrimEnd('.')}); only the tables at the end will show them.");
            _closed = true;
        }
    }

    private void WriteIn(BenchmarkResult? whole)
    {
        bool toDisk = whole is not null || System.Diagnostics.Stopwatch.GetElapsedTime(_flushedToDisk) >= DiskFlushEvery;
        if (toDisk) _flushedToDisk = System.Diagnostics.Stopwatch.GetTimestamp();
        if (BaseName is null)
        {
            // The first checkpoint here: every run so far, summed up once.
            Reserve(whole ?? ResultSummarizer.Complete(_rest!, [.. _runs]));
            _runsSaved = _runs.Count;
            _restWritten = CheckpointLog.RestText(_rest!);
        }
        else if (whole is not null)
        {
            ResultExporterBase.WriteAtomically(JsonPath, writer => DefaultExporters.Json.Export(whole, writer));
            // The JSON holds every run now; it is no longer in progress, so its lines would not be read anyway.
            File.Delete(LinesPath);
        }
        else
        {
            // What the run added, and the rest of the result only when it is not what the JSON or the last line said.
            var restText = CheckpointLog.RestText(_rest!);
            CheckpointLog.Append(LinesPath, _runs[_runsSaved..], _rest!.FinishedAtUtc, restText == _restWritten ? null : restText, toDisk);
            _runsSaved = _runs.Count;
            _restWritten = restText;
        }
        AppendCsv(toDisk);
    }

    /// <summary>Appends the CSV rows of the runs not written yet.</summary>
    private void AppendCsv(bool toDisk)
    {
        if (!_keepCsv) return;
        // Appended, so that a row once written stays even if a later write is cut short.
        bool header = !File.Exists(CsvPath);
        using var stream = new FileStream(CsvPath, header ? FileMode.CreateNew : FileMode.Append, FileAccess.Write, FileShare.Read);
        using var writer = new StreamWriter(stream, Utf8NoBom) { NewLine = "\n" };
        if (header) CsvExporter.WriteHeader(writer);
        for (int i = _rowsWritten; i < _runs.Count; i++) CsvExporter.WriteRow(_runs[i], writer);
        writer.Flush();
        stream.Flush(flushToDisk: toDisk);
        _rowsWritten = _runs.Count;
    }

    /// <summary>Takes the first base name under which neither a result file nor a checkpoint exists, by creating its JSON
    /// (a rename that fails when the name is taken, even by another process at the same moment).</summary>
    private void Reserve(BenchmarkResult result)
    {
        Directory.CreateDirectory(Folder);
        for (int attempt = 1; ; attempt++)
        {
            var name = attempt == 1 ? _stem : $"{_stem}-{attempt}";
            if (TakenBy.Any(suffix => File.Exists(Path.Combine(Folder, name + suffix)))) continue;
            try
            {
                ResultExporterBase.WriteAtomically(Path.Combine(Folder, name + ".json"), writer => DefaultExporters.Json.Export(result, writer), overwrite: false);
                BaseName = name;
                return;
            }
            catch (IOException) when (attempt < 1000 && File.Exists(Path.Combine(Folder, name + ".json")))
            {
                // Taken: the next name.
            }
        }
    }
}
