namespace KafkaPerf.Cli.Tests;

/// <summary>Workload options (--keys, --key-size, --headers, --idempotence) with values that cannot run: one line,
/// exit 2, before anything starts.</summary>
public partial class CliTests
{
    [Theory]
    [InlineData(new[] { "--keys", "zipf:0:1.1" }, "'zipf:0:1.1': the number of keys must be a whole number from 1 to 1,000,000")]
    [InlineData(new[] { "--keys", "zipf:100:-1" }, "'zipf:100:-1': the skew must be a number above 0")]
    [InlineData(new[] { "--keys", "zipf:100" }, "'zipf:100' is not a key distribution: use unique, none, fixed, random:N")]
    [InlineData(new[] { "--keys", "random:many" }, "'random:many': the number of keys must be a whole number")]
    [InlineData(new[] { "--keys", "sorted" }, "'sorted' is not a key distribution")]
    [InlineData(new[] { "--key-size", "4" }, "--key-size 4 cannot hold the keys of unique: they need at least 8 bytes (the record's id)")]
    [InlineData(new[] { "--keys", "random:1000", "--key-size", "2" }, "--key-size 2 cannot hold the keys of random:1000: they need at least 3 bytes")]
    [InlineData(new[] { "--key-size", "0" }, "Key size 0 is not positive")]
    [InlineData(new[] { "--keys", "none", "--sizes", "4" }, "Payload size 4 is too small for --keys none: when keys repeat or are absent, a record's id travels in the first 8 bytes")]
    [InlineData(new[] { "--headers", "5" }, "'5' is not a header count and size: use N:BYTES")]
    [InlineData(new[] { "--headers", "2000:1" }, "'2000:1' is not a header count and size")]
    [InlineData(new[] { "--headers", "20:60000" }, "--headers 20:60000 adds about 1,200,100 bytes to every record")]
    [InlineData(new[] { "--idempotence", "maybe" }, "Unknown --idempotence value 'maybe': use on, off or both")]
    [InlineData(new[] { "--idempotence", "on", "--acks", "1" }, "Idempotence needs acks=all, and --acks gives 1")]
    [InlineData(new[] { "--transactions", "0" }, "--transactions 0 is below 1: give the records per transaction")]
    [InlineData(new[] { "--transactions", "100", "--abort-ratio", "1.5" }, "--abort-ratio 1.5 is out of range")]
    [InlineData(new[] { "--transactions", "100", "--abort-ratio", "some" }, "The abort ratio 'some' is not a number")]
    [InlineData(new[] { "--abort-ratio", "0.1" }, "--abort-ratio needs transactions to abort: give --transactions N too.")]
    [InlineData(new[] { "--transactions", "100", "--acks", "1" }, "--transactions needs acks=all")]
    [InlineData(new[] { "--transactions", "100", "--idempotence", "off" }, "--transactions needs idempotence")]
    [InlineData(new[] { "--transactions", "100", "--producers", "2" }, "--transactions runs one producer per client")]
    [InlineData(new[] { "--transactions", "100", "--scenarios", "produce,roundtrip" }, "roundtrip with transactions is not built yet")]
    [InlineData(new[] { "--clients", "inmemory", "--transactions", "100" }, "'inmemory' has no transactions (--transactions)")]
    [InlineData(new[] { "--backlog", "1GB" }, "--backlog needs a rate: the producers send at --rate for --duration")]
    [InlineData(new[] { "--rate", "1000", "--duration", "2s", "--backlog", "1XB" }, "'1XB' is not a size: write bytes with a unit")]
    [InlineData(new[] { "--rate", "1000", "--duration", "2s", "--backlog", "1GB" }, "--backlog 1GB is not less than the 400KB the smallest cell sends")]
    [InlineData(new[] { "--rate", "1000", "--duration", "2s", "--scenarios", "produce,roundtrip", "--backlog", "10KB" }, "--backlog is a roundtrip's")]
    [InlineData(new[] { "--group", "shared" }, "Unknown group 'shared': use classic, share (acknowledged implicitly), share:explicit")]
    [InlineData(new[] { "--group", "share", "--scenarios", "produce" }, "--group share is a consumer's: give --scenarios consume or roundtrip")]
    [InlineData(new[] { "--group", "share", "--transactions", "100", "--scenarios", "consume" }, "--group share does not go with --transactions yet")]
    [InlineData(new[] { "--clients", "inmemory", "--group", "share:explicit" }, "'inmemory' has no share-group consumer (--group share)")]
    [InlineData(new[] { "--group", "share", "--brokers", "3", "--replication-factor", "3", "--rate", "1000", "--duration", "5s", "--fault", "kill:leader@2s" }, "--group share does not go with --fault yet.")]
    [InlineData(new[] { "--group", "share", "--scenarios", "consume", "--processes", "2" }, "Workers (--processes, --workers) do not run transactions, a backlog or share groups yet")]
    [InlineData(new[] { "--transactions", "100", "--scenarios", "produce", "--processes", "2" }, "Workers (--processes, --workers) do not run transactions, a backlog or share groups yet")]
    public async Task Run_WorkloadThatCannotRun_OneLineExit2AndNothingStarted(string[] args, string expected)
    {
        var output = Path.Combine(Path.GetTempPath(), "kafkaperf-cli-" + Guid.NewGuid().ToString("N"));

        string[] clients = args.Contains("--clients") ? [] : ["--clients", "confluent"];
        var (exit, _, err) = await RunAsync(["run", .. clients, "--output", output, .. args]);

        Assert.Equal(2, exit);
        Assert.Contains(expected, err, StringComparison.Ordinal);
        Assert.Single(err.TrimEnd().Split('\n'));
        Assert.False(Directory.Exists(output));
    }
}
