using System.CommandLine;
using System.Globalization;
using System.Numerics;
using KafkaPerf.Clients;
using KafkaPerf.Payloads;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Cli.Commands;

/// <summary>
/// The options of <c>run</c> and <c>find-rate</c> that make the plan (what runs: clients, cells, sweeps, topics, loads),
/// read in one place into a validated <see cref="BenchmarkPlan"/>; or <c>--plan FILE</c>, a saved plan.
/// </summary>
internal static class PlanOptions
{
    /// <summary>The clients the main job benchmarks when none is named.</summary>
    public const string DefaultClients = "confluent,java";

    /// <summary>The measured duration of a rate run when neither --duration nor --messages is given.</summary>
    public static readonly TimeSpan DefaultDuration = TimeSpan.FromSeconds(10);

    /// <summary>The warm-up of a rate run when --warmup is not given.</summary>
    public static readonly TimeSpan DefaultLoadWarmup = TimeSpan.FromSeconds(2);

    public static readonly Option<string?> PlanFile = new("--plan") { Description = "Run a saved plan: a plan document or any result's .json file (every result embeds the plan it ran), instead of the plan's options." };
    public static readonly Option<string> Clients = new("--clients") { Description = "Clients to compare, comma-separated; the first is the baseline.", DefaultValueFactory = _ => DefaultClients };
    public static readonly Option<string> Scenarios = new("--scenarios") { Description = "produce, consume, roundtrip (comma-separated; at a --rate the default is produce,roundtrip).", DefaultValueFactory = _ => "produce,consume,roundtrip" };
    // find-rate's own defaults, so that its --help says what it does: one scenario and size, one run per probe.
    public static readonly Option<string> SearchScenarios = new("--scenarios") { Description = "produce, roundtrip (comma-separated).", DefaultValueFactory = _ => "produce" };
    public static readonly Option<string> SearchSizes = new("--sizes") { Description = "Payload sizes in bytes, comma-separated.", DefaultValueFactory = _ => "100" };
    public static readonly Option<int> SearchRepeat = new("--repeat") { Description = "Runs per probe (their response times merged for the goal; each must keep the rate).", DefaultValueFactory = _ => 1 };
    public static readonly Option<string> Sizes = new("--sizes") { Description = "Payload sizes in bytes, comma-separated.", DefaultValueFactory = _ => "100,1000,10000" };
    public static readonly Option<string> Messages = new("--messages") { Description = "Messages per run, comma-separated.", DefaultValueFactory = _ => "10000" };
    public static readonly Option<int> Repeat = new("--repeat") { Description = "Measured runs per client and cell.", DefaultValueFactory = _ => 5 };
    public static readonly Option<string?> Rate = new("--rate") { Description = "Send at these rates (records per second per client, over all its producers; comma-separated, 10k and 1.5M allowed) instead of bursts: latency from when each record was due. Scenarios produce and roundtrip." };
    public static readonly Option<string?> Duration = new("--duration") { Description = $"How long the measured part of each rate run lasts (e.g. 60s, 2m; default {DefaultDuration.TotalSeconds:0}s), instead of --messages." };
    public static readonly Option<string?> LoadWarmup = new("--warmup") { Description = $"A warm-up at the same rate before each rate run's measured part, excluded from every figure (default {DefaultLoadWarmup.TotalSeconds:0}s; 0s for none)." };
    public static readonly Option<string?> ClusterWarmup = new("--cluster-warmup") { Description = "Before the first run, warm the cluster up for this long (e.g. 30s): rounds of produce-then-consume of the first cell's size on topics of their own, the clients in turn, excluded from every figure. A just-started cluster's first cells are otherwise slower than the same cells later. Default: 30s before a rate plan or a search on a broker the tool starts (90s for several brokers), none otherwise; 0s for none." };
    public static readonly Option<string?> Interval = new("--interval") { Description = "Length of one interval of a load run's time series (default 1s)." };
    public static readonly Option<string?> Producers = new("--producers") { Description = "Producer instances per client, each on its own thread, sharing the records and the rate; several values sweep them." };
    public static readonly Option<string?> Consumers = new("--consumers") { Description = "Consumers per client in one group (a classic group's topic gets at least as many partitions; a share group's keeps --partitions); several values sweep them." };
    public static readonly Option<string?> References = new("--references") { Description = "Reference tools to run beside the clients in produce and consume cells: kcat (librdkafka's CLI), kafka-tools (Kafka's ProducerPerformance/ConsumerPerformance). A missing tool is left out with a warning." };
    public static readonly Option<int?> ReplicationFactor = new("--replication-factor") { Description = "Replicas of each run's topic (default: the cluster's brokers, at most 3)." };
    public static readonly Option<int?> MinInSyncReplicas = new("--min-insync-replicas") { Description = "min.insync.replicas of each run's topic (default: the broker's, 1)." };
    public static readonly Option<string?> Acks = new("--acks") { Description = "Producer acks to sweep: 0, 1, all (comma-separated)." };
    public static readonly Option<string?> LingerMs = new("--linger-ms") { Description = "linger.ms values to sweep." };
    public static readonly Option<string?> BatchSize = new("--batch-size") { Description = "batch.size values (bytes) to sweep." };
    public static readonly Option<string?> MaxInFlight = new("--max-in-flight") { Description = "Max in-flight requests per connection to sweep." };
    public static readonly Option<string?> Compression = new("--compression") { Description = "Codecs to sweep: none, gzip, snappy, lz4, zstd." };
    public static readonly Option<string?> SendBuffer = new("--send-buffer") { Description = "Socket send buffer sizes (bytes) to sweep." };
    public static readonly Option<string?> ReceiveBuffer = new("--receive-buffer") { Description = "Socket receive buffer sizes (bytes) to sweep." };
    public static readonly Option<string?> Idempotence = new("--idempotence") { Description = "Producer idempotence to sweep on every client: on, off (default off on every built-in client; the Java client's own default, on, is pinned off for parity). On needs --acks all." };
    public static readonly Option<string?> Keys = new("--keys") { Description = "How records are keyed, to sweep: unique (each record its own key, the default), none, fixed (one key), random:N (N keys, equally likely), zipf:N:S (N keys, skew S, e.g. zipf:1000:1.1). Except for unique, a record's id travels in its value's first 8 bytes and librdkafka partitions keys as the Java client does (murmur2). See docs/workloads.md." };
    public static readonly Option<string?> KeySize = new("--key-size") { Description = "Bytes per key to sweep (default 8)." };
    public static readonly Option<string?> Headers = new("--headers") { Description = "Headers on every record, N:BYTES (N headers of BYTES bytes each, e.g. 5:32; 0 for none), to sweep." };
    public static readonly Option<string?> Transactions = new("--transactions") { Description = "Records per transaction, to sweep (e.g. 100,1000,10000): the producer is transactional and commits every N records; consumers read committed records only. Needs --acks all; produce and consume (the default scenarios then leave roundtrip out). See docs/workloads.md." };
    public static readonly Option<string?> AbortRatio = new("--abort-ratio") { Description = "With --transactions: the share of transactions aborted instead of committed (e.g. 0.1), to sweep." };
    public static readonly Option<string?> Backlog = new("--backlog") { Description = "A consumer backlog to sweep (e.g. 1GB, 200MB): in a roundtrip at a --rate the consumers start only once this much is acknowledged and unread, then catch up while the producers go on; the result says when, and how fast they drained it. The default scenarios are then roundtrip only." };
    public static readonly Option<string?> Group = new("--group") { Description = "The group the consumers join, to sweep: classic (the default), share (a KIP-932 share group, records acknowledged implicitly by the next poll) or share:explicit (each record accepted explicitly). The default scenarios are then consume and roundtrip (roundtrip at a --rate)." };
    public static readonly Option<string?> GroupProtocol = new("--group-protocol") { Description = "The consumer group's rebalance protocol, to sweep: classic (each client's default) or consumer (KIP-848, assigned on the broker). See docs/rebalances.md." };
    public static readonly Option<string?> Assignor = new("--assignor") { Description = "A classic group's assignor, to sweep: range, roundrobin, cooperative-sticky (consumer-protocol cells run without one)." };
    public static readonly Option<string?> StaticMembership = new("--static-membership") { Description = "Static membership to sweep: on (each member a group.instance.id of its own, kept when it restarts), off (default)." };
    public static readonly Option<string?> Partitions = new("--partitions") { Description = "Partitions per topic to sweep (default 1)." };
    public static readonly Option<string[]> Network = new("--network") { Description = "Shape the links to and between the embedded nodes through a proxy in front of each, which the nodes advertise: comma-joined rtt=5ms (half each way), jitter=0.2ms, rate=1gbit, client-rtt= and broker-rtt= (client links and inter-broker links apart). Several specs sweep like the client knobs: separate them with ';' (rtt=1ms;rtt=5ms) or repeat the option. The link's real round trip is measured before the first run of each and recorded beside the asked one. Without it, clients reach the nodes directly on loopback. Embedded broker or cluster only. See docs/network.md." };
    public static readonly Option<string?> FetchMinBytes = new("--fetch-min-bytes") { Description = "Consumer fetch.min.bytes values to sweep." };
    public static readonly Option<string[]> Overrides = new("-X") { Description = "A client's own setting, client:key=value (repeatable), applied after the common ones." };
    public static readonly Option<string> TopicPrefix = new("--topic-prefix") { Description = "Prefix of every run's topic.", DefaultValueFactory = _ => BenchmarkPlan.DefaultTopicPrefix };
    public static readonly Option<bool> KeepTopics = new("--keep-topics") { Description = "Keep each run's topic instead of deleting it." };
    public static readonly Option<string> Payload = new("--payload") { Description = "What payloads look like: random (incompressible), access-log (web-server log lines, compressible) or file:PATH.", DefaultValueFactory = _ => "random" };
    public static readonly Option<bool> NoBreakdown = new("--no-breakdown") { Description = "Leave out where the time went (the clients' own statistics - librdkafka's every second, the Java client's metrics -, the embedded broker's request metrics and the collections of .NET, of the client's JVM and of the broker), for the bare client; recorded by default, per interval in runs with a time series and over the timed section of a burst." };
    public static readonly Option<bool> UsePrefetch = new("--use-prefetch") { Description = "Consumers that can prefetch on a thread of their own (java, java-batched, java-records) do so; the result records it." };
    public static readonly Option<string?> StallTimeout = new("--stall-timeout") { Description = "Any wait that sees no progress for this long - no acknowledgement, no record, no answer from the broker - fails its run and says what stalled (default 30s); after a failed run, a --bootstrap cluster that does not answer for this long stops the plan." };

    public static readonly Option<string[]> Fault = new("--fault") { Description = "A fault fired in every measured run at a rate, from its measured part's start (repeatable): kill:leader@10s, restart:leader@10s+5s, pause:leader@10s+5s, stop:leader@10s, move-leader@10s, exec@10s:COMMAND; through the shaping proxies: partition:leader@10s+20s, isolate:leader@10s+20s, slow:leader@10s+20s:rtt=200ms; node:N or controller in place of leader; the cluster is healed before the next run (docs/failover.md). Group events, in a roundtrip: join:consumer@10s, leave:consumer@10s, crash:consumer@10s, restart:consumer@10s+2s, roll:consumers@10s, busy:consumer@10s+3s (docs/rebalances.md)." };
    public static readonly Option<string?> RecoverySlo = new("--slo") { Description = "With --fault: a latency goal on response time (e.g. p99<20ms; p50, p99, p99.9 or max) - each fault's result says when every interval met it again." };

    /// <summary>The fault options of <c>run</c>, after the replication.</summary>
    public static Option[] Faults => [Fault, RecoverySlo];

    /// <summary>The plan options of <c>run</c>, in --help's order (the broker's and the outputs' come between them).</summary>
    public static Option[] RunHead => [PlanFile, Clients, References, Scenarios, Sizes, Messages, Repeat, Rate, Duration, LoadWarmup, ClusterWarmup, Interval, Producers, Consumers];

    /// <summary>The plan options of <c>find-rate</c> before the broker's.</summary>
    public static Option[] FindRateHead => [PlanFile, Clients, SearchScenarios, SearchSizes, SearchRepeat, Duration, LoadWarmup, ClusterWarmup, Interval, Producers, Consumers];

    /// <summary>The replication options, after the broker's.</summary>
    public static Option[] Replication => [ReplicationFactor, MinInSyncReplicas];

    /// <summary>The sweeps and topics, after the replication.</summary>
    public static Option[] Sweeps => [Acks, LingerMs, BatchSize, MaxInFlight, Compression, SendBuffer, ReceiveBuffer, FetchMinBytes, Idempotence, Keys, KeySize, Headers, Transactions, AbortRatio, Backlog, Group, GroupProtocol, Assignor, StaticMembership, Partitions, Network, Overrides, TopicPrefix, KeepTopics, Payload, UsePrefetch, NoBreakdown];

    private static IEnumerable<Option> All(bool findRate) => [.. findRate ? FindRateHead : RunHead, .. Replication, .. findRate ? [] : Faults, .. Sweeps, StallTimeout];

    /// <summary>Reads the plan: <c>--plan FILE</c>, or the plan's options.</summary>
    /// <param name="parse">The command line.</param>
    /// <param name="registry">The clients (a missing reference tool is left out with a warning).</param>
    /// <param name="search">find-rate's search; <see langword="null"/> for <c>run</c>.</param>
    /// <returns>The validated plan.</returns>
    /// <exception cref="PlanValidationException">Bad input; one line.</exception>
    public static BenchmarkPlan Read(ParseResult parse, ClientRegistry registry, RateSearchOptions? search)
    {
        if (parse.GetValue(PlanFile) is { } file)
        {
            var typed = All(search is not null).Where(o => o != PlanFile && parse.GetResult(o) is { Implicit: false }).Select(o => o.Name).ToList();
            if (typed.Count > 0)
                throw new PlanValidationException($"--plan runs the plan saved in '{file}', and {string.Join(", ", typed)} would change it: leave {(typed.Count == 1 ? "it" : "them")} out, or leave --plan out.");
            var plan = PlanDocument.Read(file);
            if (search is not null && !plan.IsRate)
                throw new PlanValidationException($"The plan in '{file}' sends bursts, and find-rate probes rates: give a plan made at a --rate, or run it with run --plan.");
            if (search is not null) plan = plan with { Rates = [search.StartRate], MessageCounts = [BenchmarkPlan.MeasuredRecords(search.StartRate, plan.Duration ?? DefaultDuration)] };
            return plan;
        }
        return Build(parse, registry, search);
    }

    private static BenchmarkPlan Build(ParseResult parse, ClientRegistry registry, RateSearchOptions? search)
    {
        bool findRate = search is not null;
        bool rate = findRate || parse.GetValue(Rate) is not null;
        // At a rate the default scenarios are those a rate means something to, and a run lasts a duration; a search
        // probes produce at 100 B once per rate unless told otherwise.
        var scenarios = findRate ? parse.GetValue(SearchScenarios) : rate && IsDefault(parse, Scenarios) ? "produce,roundtrip" : parse.GetValue(Scenarios);
        // Roundtrip does not take transactions yet: left out of the default scenarios rather than refused.
        if (!findRate && parse.GetValue(Transactions) is not null && IsDefault(parse, Scenarios)) scenarios = rate ? "produce" : "produce,consume";
        // A backlog is a roundtrip's: the only scenario by default.
        if (!findRate && parse.GetValue(Backlog) is not null && IsDefault(parse, Scenarios)) scenarios = "roundtrip";
        // A group is the consumers': consume and roundtrip by default (roundtrip alone at a rate).
        else if (!findRate && parse.GetValue(Group) is not null && IsDefault(parse, Scenarios)) scenarios = rate ? "roundtrip" : "consume,roundtrip";
        // A membership event acts on consumers reading while records flow: roundtrip alone by default.
        else if (!findRate && (parse.GetValue(Fault) ?? []).Any(GroupEventSpec.IsGroupEventText) && IsDefault(parse, Scenarios)) scenarios = "roundtrip";
        var sizes = findRate ? parse.GetValue(SearchSizes)! : parse.GetValue(Sizes)!;
        int repeat = findRate ? parse.GetValue(SearchRepeat) : parse.GetValue(Repeat);
        long[] messages = findRate ? [] : [.. NumberList(parse.GetValue(Messages)!, "message count").Select(s => ParseNumber<long>(s, "message count"))];
        var builder = new BenchmarkPlanBuilder()
            .Clients(List(parse.GetValue(Clients)))
            .Scenarios([.. List(scenarios).Select(ParseScenario)])
            .PayloadSizes([.. NumberList(sizes, "payload size").Select(s => ParseNumber<int>(s, "payload size"))])
            .Repeat(repeat)
            .Topics(parse.GetValue(TopicPrefix)!, keep: parse.GetValue(KeepTopics))
            .Consume(usePrefetch: parse.GetValue(UsePrefetch))
            .Breakdown(!parse.GetValue(NoBreakdown));
        var payload = parse.GetValue(Payload)!.Trim();
        if (payload.StartsWith("file:", StringComparison.OrdinalIgnoreCase)) builder.PayloadFile(payload[5..]);
        else builder.Payload(payload.ToLowerInvariant() switch
        {
            "random" => PayloadKind.Random,
            "access-log" => PayloadKind.AccessLog,
            _ => throw new PlanValidationException($"Unknown payload '{payload}': use random, access-log or file:PATH."),
        });
        if (parse.GetValue(Acks) is { } acks) builder.Acks([.. List(acks).Select(ParseAcks)]);
        if (parse.GetValue(LingerMs) is { } linger) builder.LingerMs(Numbers(linger, "linger.ms"));
        if (parse.GetValue(BatchSize) is { } batch) builder.BatchSizeBytes(Numbers(batch, "batch size"));
        if (parse.GetValue(MaxInFlight) is { } inFlight) builder.MaxInFlight(Numbers(inFlight, "max in-flight"));
        if (parse.GetValue(Compression) is { } codecs) builder.Compression([.. List(codecs).Select(ParseCodec)]);
        if (parse.GetValue(SendBuffer) is { } send) builder.SendBufferBytes(Numbers(send, "send buffer"));
        if (parse.GetValue(ReceiveBuffer) is { } receive) builder.ReceiveBufferBytes(Numbers(receive, "receive buffer"));
        if (parse.GetValue(FetchMinBytes) is { } fetch) builder.FetchMinBytes(Numbers(fetch, "fetch.min.bytes"));
        if (parse.GetValue(Idempotence) is { } idempotence) builder.Idempotence([.. List(idempotence).Select(v => ParseOnOff(v, "--idempotence"))]);
        if (parse.GetValue(Keys) is { } keys) builder.Keys([.. List(keys).Select(k => Parsed(() => KeySpec.Parse(k)))]);
        if (parse.GetValue(KeySize) is { } keySize) builder.KeySizeBytes(Numbers(keySize, "key size"));
        if (parse.GetValue(Headers) is { } headers) builder.Headers([.. List(headers).Select(h => Parsed(() => HeaderSpec.Parse(h)))]);
        if (parse.GetValue(Transactions) is { } transactions) builder.Transactions(Numbers(transactions, "transactions"));
        if (parse.GetValue(AbortRatio) is { } abort) builder.AbortRatio([.. List(abort).Select(ParseRatio)]);
        if (parse.GetValue(Backlog) is { } backlog) builder.Backlog([.. List(backlog).Select(b => Parsed(() => ByteSize.Parse(b)))]);
        if (parse.GetValue(Group) is { } group) builder.Group([.. List(group).Select(g => Parsed(() => ConsumerGroupKinds.Parse(g)))]);
        if (parse.GetValue(GroupProtocol) is { } protocol) builder.GroupProtocol([.. List(protocol).Select(p => Parsed(() => GroupSettingsText.ParseProtocol(p)))]);
        if (parse.GetValue(Assignor) is { } assignor) builder.Assignor([.. List(assignor).Select(a => Parsed(() => GroupSettingsText.ParseAssignor(a)))]);
        if (parse.GetValue(StaticMembership) is { } staticMembers) builder.StaticMembership([.. List(staticMembers).Select(v => ParseOnOff(v, "--static-membership"))]);
        if (parse.GetValue(Partitions) is { } partitions) builder.Partitions(Numbers(partitions, "partitions"));
        if (parse.GetValue(Network) is { Length: > 0 } networks)
            builder.Network([.. networks.SelectMany(n => Parsed(() => NetworkSpec.ParseList(n))).Distinct()]);
        builder.Replication(parse.GetValue(ReplicationFactor), parse.GetValue(MinInSyncReplicas));
        if (!findRate) builder.Faults(parse.GetValue(Fault) ?? [], parse.GetValue(RecoverySlo));
        if (findRate) builder.Rates(search!.StartRate);
        else if (IsDefault(parse, Messages)) builder.DefaultMessageCounts(messages);
        else builder.MessageCounts(messages);
        if (!findRate && parse.GetValue(Rate) is { } rates) builder.Rates(LoadOptions.Rates(rates));
        if (parse.GetValue(Duration) is { } duration) builder.Duration(LoadOptions.Duration(duration, "--duration"));
        else if (findRate || (rate && IsDefault(parse, Messages))) builder.Duration(DefaultDuration);
        if (parse.GetValue(LoadWarmup) is { } warmup) builder.LoadWarmup(LoadOptions.Duration(warmup, "--warmup"));
        else if (rate) builder.LoadWarmup(DefaultLoadWarmup);
        if (parse.GetValue(ClusterWarmup) is { } clusterWarmup) builder.ClusterWarmup(LoadOptions.Duration(clusterWarmup, "--cluster-warmup"));
        if (parse.GetValue(Interval) is { } interval) builder.Interval(LoadOptions.Duration(interval, "--interval"));
        if (parse.GetValue(StallTimeout) is { } stall) builder.StallTimeout(LoadOptions.Duration(stall, "--stall-timeout"));
        if (parse.GetValue(Producers) is { } producers) builder.Producers(Numbers(producers, "producers"));
        if (parse.GetValue(Consumers) is { } consumers) builder.Consumers(Numbers(consumers, "consumers"));
        foreach (var reference in findRate ? [] : List(parse.GetValue(References)))
        {
            // A reference whose tool is missing is left out with a warning; the clients and the other references still run.
            if (registry.TryGet(reference, out var factory) && factory.IsReference && factory.CheckAvailability() is { } missing)
                builder.Warning($"Reference '{reference}' was left out: {missing}");
            else
            {
                builder.References(reference);
            }
        }
        foreach (var entry in parse.GetValue(Overrides) ?? [])
        {
            var (client, key, value) = ParseOverride(entry);
            builder.Override(client, key, value);
        }
        return builder.Build();
    }

    /// <summary>Whether an option kept its default (neither typed nor configured).</summary>
    public static bool IsDefault(ParseResult parse, Option option) => parse.GetResult(option) is null or { Implicit: true };

    /// <summary>The items of a comma-separated option.</summary>
    public static string[] List(string? value) =>
        (value ?? string.Empty).Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static int[] Numbers(string value, string what) => [.. NumberList(value, what).Select(s => ParseNumber<int>(s, what))];

    internal static ScenarioKind ParseScenario(string value) =>
        Enum.TryParse<ScenarioKind>(value, ignoreCase: true, out var kind) && Enum.IsDefined(kind) && !value.Any(char.IsDigit)
            ? kind
            : throw new PlanValidationException($"Unknown scenario '{value}': use produce, consume and/or roundtrip.");

    private static double ParseRatio(string value) =>
        double.TryParse(value, NumberStyles.AllowDecimalPoint | NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var ratio) ? ratio
            : throw new PlanValidationException($"The abort ratio '{value}' is not a number: give the share of transactions to abort, e.g. --abort-ratio 0.1.");

    private static bool ParseOnOff(string value, string option) => value.ToLowerInvariant() switch
    {
        "on" or "true" => true,
        "off" or "false" => false,
        _ => throw new PlanValidationException($"Unknown {option} value '{value}': use on, off or both ({option} on,off)."),
    };

    private static T Parsed<T>(Func<T> parse)
    {
        try
        {
            return parse();
        }
        catch (FormatException ex)
        {
            throw new PlanValidationException(ex.Message);
        }
    }

    private static AcksMode ParseAcks(string value) => value.ToLowerInvariant() switch
    {
        "0" or "none" => AcksMode.None,
        "1" or "leader" => AcksMode.Leader,
        "all" or "-1" => AcksMode.All,
        _ => throw new PlanValidationException($"Unknown acks '{value}': use 0, 1 and/or all."),
    };

    private static CompressionCodec ParseCodec(string value) =>
        Enum.TryParse<CompressionCodec>(value, ignoreCase: true, out var codec) && Enum.IsDefined(codec) && !int.TryParse(value, out _)
            ? codec
            : throw new PlanValidationException($"Unknown compression '{value}': use none, gzip, snappy, lz4 and/or zstd.");

    private static (string Client, string Key, string Value) ParseOverride(string entry)
    {
        int colon = entry.IndexOf(':', StringComparison.Ordinal);
        int equals = entry.IndexOf('=', StringComparison.Ordinal);
        if (colon <= 0 || equals <= colon + 1)
            throw new PlanValidationException($"The setting '{entry}' is not client:key=value: write e.g. -X confluent:queue.buffering.max.ms=5.");
        return (entry[..colon], entry[(colon + 1)..equals], entry[(equals + 1)..]);
    }

    private static T ParseNumber<T>(string value, string what) where T : IBinaryInteger<T>, IMinMaxValue<T>
    {
        var digits = value.Replace("_", string.Empty, StringComparison.Ordinal);
        if (T.TryParse(digits, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var number)) return number;
        if (digits.Length > 0 && digits.TrimStart('-').All(char.IsAsciiDigit))
            throw new PlanValidationException($"The {what} '{value}' is too large: use at most {T.MaxValue}.");
        throw new PlanValidationException($"The {what} '{value}' is not a whole number: write digits only (1000000 or 1_000_000).");
    }

    /// <summary>Values of a list option; a list such as "1,000" (a thousands separator, not two values) is refused.</summary>
    private static string[] NumberList(string value, string what)
    {
        var items = List(value);
        if (items.Skip(1).Any(item => item.Length == 3 && item.All(char.IsAsciiDigit) && item[0] == '0'))
            throw new PlanValidationException($"The {what} list '{value}' looks like a number with a thousands separator: write 1000 or 1_000 (commas separate values).");
        return items;
    }
}
