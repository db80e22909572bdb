using System.CommandLine;
using KafkaPerf.Adapters.Store;
using KafkaPerf.Plans;

namespace KafkaPerf.Cli.Commands;

/// <summary>Where results are kept over time: <c>--store</c> on <c>run</c>, <c>find-rate</c>, <c>history</c> and <c>compare</c>.</summary>
internal static class StoreOptions
{
    public static readonly Option<string?> Store = new("--store")
    {
        Description = "Keep every result in a store as well as in its files: a SQLite file (created when missing), postgres (the connection string in KAFKAPERF_STORE_POSTGRES) or postgres:FILE (the connection string in FILE, never on the command line). Default: the KAFKAPERF_STORE variable.",
    };

    public static readonly Option<string?> Label = new("--label") { Description = "A label kept with the stored result (a branch, a pull request, a setting under test); history and the gate filter on it." };

    public static readonly Option<string> Timeout = new("--store-timeout") { Description = "How long to wait for the store (a server, or a file another process holds locked) before giving up in one line.", DefaultValueFactory = _ => "30s" };

    /// <summary>The options of a command that writes results.</summary>
    public static Option[] ForRun => [Store, Label, Timeout];

    /// <summary>The options of a command that reads the store.</summary>
    public static Option[] ForRead => [Store, Timeout];

    /// <summary>The store asked for, by <c>--store</c> or <c>KAFKAPERF_STORE</c>, or <see langword="null"/> when none.</summary>
    /// <exception cref="PlanValidationException">A bad store name or timeout; one line.</exception>
    public static StoreRequest? Read(ParseResult parse)
    {
        var spec = parse.GetValue(Store) ?? Environment.GetEnvironmentVariable(StoreLocation.StoreVariable);
        var label = parse.GetValue(Label);
        if (spec is null)
        {
            if (label is not null) throw new PlanValidationException("--label is kept with a stored result: give --store (or set KAFKAPERF_STORE) too.");
            return null;
        }
        var timeout = LoadOptions.Duration(parse.GetValue(Timeout)!, "--store-timeout");
        if (timeout <= TimeSpan.Zero) throw new PlanValidationException("--store-timeout must be positive, e.g. --store-timeout 30s.");
        try
        {
            return new StoreRequest(StoreLocation.Parse(spec), string.IsNullOrWhiteSpace(label) ? null : label.Trim(), timeout);
        }
        catch (ResultStoreException ex)
        {
            throw new PlanValidationException(parse.GetValue(Store) is null ? ex.Message.Replace("--store", StoreLocation.StoreVariable, StringComparison.Ordinal) : ex.Message, ex);
        }
    }

    /// <summary>The store a reading command needs: it fails in one line without one.</summary>
    /// <exception cref="PlanValidationException">No store was named.</exception>
    public static StoreRequest Require(ParseResult parse, string command) =>
        Read(parse) ?? throw new PlanValidationException($"{command} reads a results store: give --store FILE (or postgres, postgres:FILE), or set KAFKAPERF_STORE.");
}

/// <summary>A store to keep results in, and how.</summary>
/// <param name="Location">Where.</param>
/// <param name="Label">The label kept with each result.</param>
/// <param name="Timeout">How long to wait for it.</param>
internal sealed record StoreRequest(StoreLocation Location, string? Label, TimeSpan Timeout)
{
    /// <summary>Opens (creates, migrates) the store.</summary>
    public Task<ResultStore> OpenAsync(CancellationToken cancellationToken) => ResultStore.OpenAsync(Location, Timeout, cancellationToken);
}
