using System.Text;
using System.Text.Json;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting.Exporters;

/// <summary>
/// The runs of a plan still running, appended beside its checkpoint JSON: <c>{baseName}.runs.jsonl</c>, one JSON object per
/// line, each holding the runs one checkpoint added (and the rest of the result when it changed). The JSON, marked
/// <c>inProgress</c>, is written once when the first run starts; the lines carry on from it, so that a checkpoint costs what
/// its run added, not every run again. <see cref="ResultJson.Read"/> reads the two as one result, which is what a killed
/// process leaves; the final export replaces both with the usual files.
/// </summary>
/// <remarks>A line is written whole and flushed to the disk before the next run starts: a process killed while writing one
/// leaves at most a last line cut short, which is not read (it held the run that was not saved yet).</remarks>
public static class CheckpointLog
{
    /// <summary>What follows the base name.</summary>
    public const string Suffix = ".runs.jsonl";

    private static readonly UTF8Encoding Utf8NoBom = new(encoderShouldEmitUTF8Identifier: false);

    // One object per line: the result's own options, without indentation.
    private static readonly JsonSerializerOptions LineOptions = new(ResultJson.Options) { WriteIndented = false };

    /// <summary>The lines file beside a result's JSON.</summary>
    /// <param name="jsonPath">The JSON file, <c>{baseName}.json</c>.</param>
    /// <returns><c>{baseName}.runs.jsonl</c> in the same folder.</returns>
    public static string PathFor(string jsonPath)
    {
        ArgumentNullException.ThrowIfNull(jsonPath);
        return Path.ChangeExtension(jsonPath, null) + Suffix;
    }

    /// <summary>The rest of a result as a line would hold it, to tell whether it changed since the last line said it (the
    /// time it was taken left out: every line carries its own).</summary>
    /// <param name="rest">The result's other parts (no runs, cells or comparisons).</param>
    /// <returns>The text.</returns>
    public static string RestText(BenchmarkResult rest)
    {
        ArgumentNullException.ThrowIfNull(rest);
        return JsonSerializer.Serialize(rest with { FinishedAtUtc = rest.StartedAtUtc }, LineOptions);
    }

    /// <summary>Appends one line, handed to the operating system before this returns (a killed process loses none of
    /// it), and flushed to the disk when <paramref name="toDisk"/> says so; creates the file when it is missing.</summary>
    /// <param name="path">The lines file.</param>
    /// <param name="added">The runs added.</param>
    /// <param name="finishedAtUtc">When the checkpoint was taken.</param>
    /// <param name="restText">The rest of the result (<see cref="RestText"/>) when it changed since the last line; else
    /// <see langword="null"/>.</param>
    /// <param name="toDisk">Whether to wait until the disk holds it (against a crash of the machine itself).</param>
    public static void Append(string path, IReadOnlyList<RunRecord> added, DateTimeOffset finishedAtUtc, string? restText, bool toDisk = true)
    {
        ArgumentNullException.ThrowIfNull(added);
        // The line is made whole in memory first: a write cut short can then leave only a last line without its end.
        var line = new StringBuilder(JsonSerializer.Serialize(new Line(finishedAtUtc, added), LineOptions));
        if (restText is not null) line.Insert(line.Length - 1, ",\"rest\":").Insert(line.Length - 1, restText);
        line.Append('\n');
        using var stream = new FileStream(path, FileMode.Append, FileAccess.Write, FileShare.Read);
        using var writer = new StreamWriter(stream, Utf8NoBom);
        writer.Write(line);
        writer.Flush();
        stream.Flush(flushToDisk: toDisk);
    }

    /// <summary>A checkpoint's JSON and the lines after it as one result: its runs, then every line's, with the rest of the
    /// last line that had one, summed up as the runner sums a result up.</summary>
    /// <param name="checkpoint">The result the JSON holds.</param>
    /// <param name="path">The lines file.</param>
    /// <returns>The result; the checkpoint itself when no line can be read.</returns>
    public static BenchmarkResult Fold(BenchmarkResult checkpoint, string path)
    {
        ArgumentNullException.ThrowIfNull(checkpoint);
        var runs = new List<RunRecord>(checkpoint.Runs);
        var rest = checkpoint;
        var finished = checkpoint.FinishedAtUtc;
        bool any = false;
        foreach (var text in File.ReadLines(path, Utf8NoBom))
        {
            Line? line;
            try
            {
                line = JsonSerializer.Deserialize<Line>(text, LineOptions);
            }
            catch (JsonException)
            {
                // The last line, cut short by a process that was killed while writing it.
                break;
            }
            if (line is null) break;
            any = true;
            runs.AddRange(line.Runs);
            finished = line.FinishedAtUtc;
            if (line.Rest is { } changed) rest = changed;
        }
        return any ? ResultSummarizer.Complete(rest with { FinishedAtUtc = finished }, runs) : checkpoint;
    }

    /// <summary>One line: when it was taken, the runs it added, and the rest of the result when that changed.</summary>
    private sealed record Line(DateTimeOffset FinishedAtUtc, IReadOnlyList<RunRecord> Runs)
    {
        public BenchmarkResult? Rest { get; init; }
    }
}
