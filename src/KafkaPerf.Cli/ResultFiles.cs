using KafkaPerf.Cli.Commands;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Running;

namespace KafkaPerf.Cli;

/// <summary>
/// The end of <c>run</c> and <c>find-rate</c>: the tables on standard output, every format written under the checkpoints'
/// base name (the temporary folder when the output folder cannot be written: nothing measured is lost), and the exit code
/// the result deserves.
/// </summary>
internal static class ResultFiles
{
    /// <summary>Shows and writes the result.</summary>
    /// <param name="result">The result.</param>
    /// <param name="outputs">The formats and the folder.</param>
    /// <param name="checkpoints">The checkpoint files of the plan, closed here.</param>
    /// <param name="stem">The base name when no run started.</param>
    /// <param name="cancelledExitCode">130 after Ctrl+C, 143 after SIGTERM.</param>
    /// <returns>The exit code.</returns>
    public static int Write(BenchmarkResult result, Outputs outputs, CheckpointFiles checkpoints, string stem, int cancelledExitCode)
    {
        // The tables go out first: if the files cannot be written, what was measured is at least on the screen.
        DefaultExporters.Markdown.Export(result, Console.Out);
        var composite = new CompositeExporter(outputs.Exporters);
        // Every format under the checkpoints' base name (replacing them), or under a new one when no run started.
        var place = checkpoints.Close();
        IReadOnlyList<string> written;
        try
        {
            written = place is { } p ? composite.ExportToFolder(result, p.Folder, p.BaseName) : composite.ExportToFolderUnique(result, outputs.Folder, stem);
            checkpoints.RemoveUnrequested();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Nothing measured is lost: the files go to the temporary folder instead, and the tables are on the screen.
            var fallback = CheckpointFiles.FallbackFolder;
            var folder = place?.Folder ?? outputs.Folder;
            try
            {
                written = composite.ExportToFolderUnique(result, fallback, place?.BaseName ?? stem);
                Console.Error.WriteLine($"kafkaperf: the results could not be written to '{folder}' ({ex.Message.TrimEnd('.')}); they were saved in '{fallback}' instead.");
                foreach (var path in written) Console.Error.WriteLine($"wrote {path}");
            }
            catch (Exception second) when (second is IOException or UnauthorizedAccessException)
            {
                Console.Error.WriteLine($"kafkaperf: the results could not be written to '{folder}' ({ex.Message.TrimEnd('.')}) nor to '{fallback}' ({second.Message.TrimEnd('.')}); the tables above are all that was kept.");
            }
            return result.AbortReason is not null ? ExitCodes.BrokerFailed : result.Cancelled ? cancelledExitCode : ExitCodes.RunsFailed;
        }
        foreach (var path in written) Console.Error.WriteLine($"wrote {path}");

        if (result.AbortReason is { } abort)
        {
            int finished = result.Runs.Count(r => r.Succeeded);
            Console.Error.WriteLine($"kafkaperf: {abort}. The plan stopped; {result.Runs.Count} runs were saved ({finished} finished, {result.Runs.Count - finished} failed).");
            return ExitCodes.BrokerFailed;
        }
        if (result.Cancelled)
        {
            int done = result.Runs.Count(r => r.Error != BenchmarkRunner.CancelledRunError);
            Console.Error.WriteLine(done == result.Runs.Count
                ? $"kafkaperf: cancelled; the {done} runs done were saved."
                : $"kafkaperf: cancelled; the {done} runs done were saved, and the run cut short is marked as cancelled.");
            return cancelledExitCode;
        }
        // Files that had to go to the temporary folder are a failure too: a CI job would look for them in --output.
        return result.FailedRuns > 0 || checkpoints.FailedOver ? ExitCodes.RunsFailed : ExitCodes.Success;
    }

    /// <summary>Checks, before anything runs, that the output folder can be written: a file is created there and removed.</summary>
    /// <param name="folder">The folder.</param>
    /// <param name="created">The outermost folder this call created, the folder itself or a missing parent of it
    /// (they go again if nothing is written); <see langword="null"/> when the folder was there.</param>
    /// <returns><see langword="null"/> when it can; otherwise the line to say.</returns>
    public static string? CheckWritable(string folder, out string? created)
    {
        created = null;
        for (var missing = Path.GetFullPath(folder); missing is not null && !Directory.Exists(missing); missing = Path.GetDirectoryName(missing)) created = missing;
        try
        {
            Directory.CreateDirectory(folder);
            var probe = Path.Combine(folder, $".kafkaperf-write-check-{Guid.NewGuid():N}");
            using (new FileStream(probe, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1, FileOptions.DeleteOnClose))
            {
            }
            return null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            RemoveIfEmpty(folder, created);
            return $"Cannot write to the output folder '{folder}' ({ex.Message.TrimEnd('.')}): choose another with --output.";
        }
    }

    /// <summary>The folders this run created and never wrote to go again, up to the outermost one it created: bad input
    /// leaves nothing behind.</summary>
    public static void RemoveIfEmpty(string folder, string? created)
    {
        if (created is null) return;
        try
        {
            for (var empty = Path.GetFullPath(folder); empty is not null && empty.StartsWith(created, StringComparison.Ordinal); empty = Path.GetDirectoryName(empty))
            {
                if (!Directory.Exists(empty) || Directory.EnumerateFileSystemEntries(empty).Any()) break;
                Directory.Delete(empty);
                if (empty == created) break;
            }
        }
        catch (IOException)
        {
            // Someone else wrote into it meanwhile: it stays.
        }
    }
}
