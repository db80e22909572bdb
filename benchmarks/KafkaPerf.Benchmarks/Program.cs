using System.Globalization;
using BenchmarkDotNet.Running;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Benchmarks;

public static class Program
{
    /// <summary>
    /// <c>rss N</c> runs one N-message roundtrip with the in-memory client and prints the process's peak RSS,
    /// to show that memory does not grow with the message count; <c>confluent-paths [ROUNDS] [MESSAGES]</c> compares
    /// the confluent adapter with plain Confluent.Kafka code on an embedded broker; <c>plugin-load PATH...</c> and
    /// <c>version-memory one|same2|two BOOTSTRAP [VERSION_FOLDER]</c> measure what a plugin adds to start-up and a second
    /// Confluent.Kafka version to memory, one JSON line per process (<see cref="PluginCosts"/>);
    /// <c>calibrate-history [TRIALS] [POOLED_TRIALS]</c> measures the gate against history (<see cref="HistoryCalibration"/>);
    /// <c>store-cost [COUNT] [--result FILE] [--postgres FILE] [--keep]</c> what storing a result costs (<see cref="StoreCost"/>);
    /// <c>librdkafka create-topics BOOTSTRAP [COUNT]</c> and <c>librdkafka client-start BOOTSTRAP</c> what librdkafka costs
    /// around a run (<see cref="LibrdkafkaProbes"/>); anything else goes to BenchmarkDotNet.
    /// </summary>
    public static int Main(string[] args)
    {
        if (args is ["librdkafka", "create-topics", var topicsBootstrap, ..])
            return LibrdkafkaProbes.CreateTopicsAsync(topicsBootstrap, args.Length > 3 ? int.Parse(args[3], CultureInfo.InvariantCulture) : 12).GetAwaiter().GetResult();
        if (args is ["librdkafka", "client-start", var startBootstrap])
            return LibrdkafkaProbes.ClientStartAsync(startBootstrap).GetAwaiter().GetResult();
        if (args is ["confluent-paths", ..])
        {
            int rounds = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 5;
            int messages = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 1_000_000;
            return ConfluentPaths.RunAsync(rounds, messages).GetAwaiter().GetResult();
        }
        if (args is ["plugin-load", _, ..])
            return PluginCosts.Load(args[1..]);
        if (args is ["version-memory", var setup, var bootstrap, ..])
            return PluginCosts.MemoryAsync(setup, bootstrap, args.Length > 3 ? args[3] : null).GetAwaiter().GetResult();
        if (args is ["calibrate-inmemory", ..])
        {
            return Calibration.RunInMemory(
                args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 50,
                args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 20);
        }
        if (args is ["calibrate-history", ..])
        {
            int trials = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 2_000;
            return HistoryCalibration.Run(trials, args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : trials);
        }
        if (args is ["store-cost", ..])
        {
            string? Option(string name) => Array.IndexOf(args, name) is var i and >= 0 && i + 1 < args.Length ? args[i + 1] : null;
            int results = args.Length > 1 && !args[1].StartsWith("--", StringComparison.Ordinal) ? int.Parse(args[1], CultureInfo.InvariantCulture) : 1_000;
            return StoreCost.RunAsync(results, Option("--result"), Option("--postgres"), args.Contains("--keep")).GetAwaiter().GetResult();
        }
        if (args is ["calibrate", ..])
            return Calibration.Run(args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 2_000);
        if (args is ["rss", var count])
        {
            long messages = long.Parse(count, CultureInfo.InvariantCulture);
            var client = new InMemoryClient(new InMemoryClientOptions());
            client.CreateTopicAsync(new TopicSpec("rss"), default).AsTask().GetAwaiter().GetResult();
            var m = Scenario.Roundtrip.Run(new ScenarioContext
            {
                Client = client, Topic = "rss", MessageCount = messages, Payload = new byte[100], Settings = ClientSettings.ClientDefaults,
            }, CancellationToken.None);
            var peak = File.ReadLines("/proc/self/status").First(l => l.StartsWith("VmHWM", StringComparison.Ordinal));
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"roundtrip {messages:N0} messages: {(m.Succeeded ? "ok" : m.Error)}, {messages / m.ElapsedSeconds:N0} msg/s, p99 {m.LatencyHistogram!.GetValueAtPercentile(99) / 1000.0:0.0} µs, peak RSS {peak.Split(':')[1].Trim()}"));
            return m.Succeeded ? 0 : 1;
        }
        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
        return 0;
    }
}
