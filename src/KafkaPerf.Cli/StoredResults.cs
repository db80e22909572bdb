using KafkaPerf.Adapters.Store;
using KafkaPerf.Cli.Commands;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;

namespace KafkaPerf.Cli;

/// <summary><c>--store</c> on <c>run</c> and <c>find-rate</c>: the store opened before the plan starts, with the commit and
/// branch read then, and the result appended after its files are written, so a store that fails loses nothing.</summary>
internal sealed class StoredResults
{
    private readonly StoreRequest _request;
    private readonly ResultStore _store;
    private readonly StoreMetadata _metadata;

    private StoredResults(StoreRequest request, ResultStore store, StoreMetadata metadata)
    {
        _request = request;
        _store = store;
        _metadata = metadata;
    }

    /// <summary>Opens the store and reads the commit and branch of the current folder.</summary>
    /// <exception cref="ResultStoreException">The store cannot be had; one line.</exception>
    public static async Task<StoredResults> OpenAsync(StoreRequest request, CancellationToken cancellationToken)
    {
        var store = await request.OpenAsync(cancellationToken);
        var (commit, branch) = GitInfo.Read(Environment.CurrentDirectory);
        return new StoredResults(request, store, new StoreMetadata(request.Label, commit, branch));
    }

    /// <summary>Appends a finished result; a cancelled or aborted one is not kept (a gate would judge against half a plan).</summary>
    /// <param name="result">The result, its files written.</param>
    /// <param name="exitCode">The exit code so far.</param>
    /// <param name="folder">Where its files are, for the line that says how to add them later.</param>
    /// <returns>The exit code: <see cref="ExitCodes.StoreFailed"/> when the store did not take a result that was otherwise fine.</returns>
    public async Task<int> AppendAsync(BenchmarkResult result, int exitCode, string folder)
    {
        if (result.Cancelled || result.AbortReason is not null)
        {
            Console.Error.WriteLine($"kafkaperf: the result was not kept in the store {_request.Location}: the plan did not finish.");
            return exitCode;
        }
        try
        {
            // Not on the command's token: after the last run, storing is bounded by --store-timeout alone.
            var outcome = await _store.AppendAsync(ResultJson.Write(result), _metadata, CancellationToken.None);
            Console.Error.WriteLine(outcome.AlreadyStored
                ? $"kafkaperf: the store {_request.Location} holds this result already, as result {outcome.Id}."
                : $"stored as result {outcome.Id} in {_request.Location}{(_metadata.Label is { } label ? $" (label '{label}')" : string.Empty)}");
            return exitCode;
        }
        catch (ResultStoreException ex)
        {
            CliErrors.Fail(ExitCodes.StoreFailed, $"{ex.Message} The result's files are in '{folder}': `dotnet kafkaperf history import {folder}` with the same --store adds them later.", ex);
            return exitCode == ExitCodes.Success ? ExitCodes.StoreFailed : exitCode;
        }
    }
}
