using KafkaPerf;
using KafkaPerf.Clients;
using KafkaPerf.Reporting.Exporters;

// confluent against the Apache Kafka Java client in this process, on a broker KafkaPerf starts and stops.
// The Java client hosts a JVM: the process must start with DOTNET_EnableAlternateStackCheck=1.
if (Environment.GetEnvironmentVariable("DOTNET_EnableAlternateStackCheck") != "1")
{
    Console.Error.WriteLine("Run with DOTNET_EnableAlternateStackCheck=1 set (export DOTNET_EnableAlternateStackCheck=1): the java client hosts a JVM.");
    return 2;
}

using var cancel = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) => { e.Cancel = true; cancel.Cancel(); };

var result = await KafkaBenchmark.OnEmbeddedBroker()
    .Clients("confluent", "java")
    .Produce(messages: 10_000, payloadBytes: 1_000)
    .Consume(messages: 10_000, payloadBytes: 1_000)
    .Settings(ClientSettings.SeedProfile)
    .Repeat(args.Length > 0 ? int.Parse(args[0], System.Globalization.CultureInfo.InvariantCulture) : 5)
    .RunAsync(cancel.Token);

DefaultExporters.Markdown.Export(result, Console.Out);
return result.FailedRuns == 0 ? 0 : 1;
