using KafkaPerf.Adapters;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Plugins;
using KafkaPerf.Adapters.Librdkafka;
using KafkaPerf.Adapters.References;
using KafkaPerf.Adapters.Store;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Payloads;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf;

/// <summary>
/// The fluent way into KafkaPerf from code: where to run, then what, then <see cref="KafkaBenchmarkBuilder.RunAsync"/>,
/// which returns the same result model the CLI writes.
/// </summary>
/// <example>
/// <code>
/// var result = await KafkaBenchmark.OnEmbeddedBroker()
///     .Clients("confluent", "java")
///     .Produce(messages: 100_000, payloadBytes: 1_000)
///     .Repeat(10)
///     .RunAsync(ct);
/// </code>
/// </example>
public static class KafkaBenchmark
{
    /// <summary>Runs on a Kafka broker KafkaPerf starts for the run and stops after it (the CLI's default).</summary>
    /// <param name="options">Heap, Kafka distribution, Java; defaults when omitted.</param>
    public static KafkaBenchmarkBuilder OnEmbeddedBroker(EmbeddedKafkaBrokerOptions? options = null) => new(BrokerSource.Embedded(options));

    /// <summary>Runs on an existing cluster.</summary>
    /// <param name="bootstrapServers"><c>host:port,…</c>.</param>
    public static KafkaBenchmarkBuilder OnCluster(string bootstrapServers) => new(BrokerSource.Cluster(bootstrapServers));

    /// <summary>Runs on a Kafka broker in a container that Testcontainers starts for the run and removes after it.</summary>
    /// <param name="image">The image; <c>apache/kafka:4.3.1</c> when omitted.</param>
    public static KafkaBenchmarkBuilder InContainer(string? image = null) => new(BrokerSource.Container(image));

    /// <summary>Runs on the broker of <paramref name="source"/>.</summary>
    /// <param name="source">Embedded, a container or an existing cluster.</param>
    public static KafkaBenchmarkBuilder On(BrokerSource source)
    {
        ArgumentNullException.ThrowIfNull(source);
        return new(source);
    }
}

/// <summary>What to run; every option of <c>dotnet kafkaperf run</c> is reachable, the rarer ones through <see cref="Plan"/>.</summary>
public sealed class KafkaBenchmarkBuilder
{
    private readonly BrokerSource _source;
    private readonly BenchmarkPlanBuilder _plan = new();
    private readonly List<ScenarioKind> _scenarios = [];
    private readonly List<long> _messages = [];
    private readonly List<int> _sizes = [];
    private readonly List<double> _rates = [];
    private TimeSpan? _duration;
    private readonly Dictionary<string, IBenchClientFactory> _factories = new(StringComparer.OrdinalIgnoreCase);
    private readonly List<PluginClient> _plugins = [];
    private IBenchmarkProgress? _progress;
    private (string Spec, string? Label)? _store;

    internal KafkaBenchmarkBuilder(BrokerSource source)
    {
        _source = source;
        foreach (var factory in new IBenchClientFactory[]
        {
            new JavaClientFactory(false), new JavaClientFactory(true), new JavaClientFactory(JavaStyle.Records), new InMemoryClientFactory(new InMemoryClientOptions()),
            new KcatReferenceFactory(), new KafkaToolsReferenceFactory(), new LibrdkafkaClientFactory(),
        }.Concat(ConfluentClientFactory.AllStyles()))
        {
            _factories[factory.Name] = factory;
        }
    }

    /// <summary>The clients to compare, by name (<c>confluent</c> and its variants <c>confluent-sync</c>, <c>confluent-async</c>, <c>confluent-records</c>, <c>java</c>, <c>java-batched</c>, <c>java-records</c>, <c>inmemory</c>, the reference <c>librdkafka</c> (librdkafka's C API without Confluent.Kafka's producer and consumer), or one added with <see cref="Client"/>); the first is the baseline.</summary>
    public KafkaBenchmarkBuilder Clients(params string[] names)
    {
        _plan.Clients(names);
        return this;
    }

    /// <summary>Reference tools to run beside the clients in produce and consume cells (<c>kcat</c>, <c>kafka-tools</c>); a
    /// missing tool fails validation here (the CLI leaves it out with a warning instead).</summary>
    public KafkaBenchmarkBuilder References(params string[] names)
    {
        _plan.References(names);
        return this;
    }

    /// <summary>Adds a client of your own (or replaces a built-in one with other options, e.g. a Java heap).</summary>
    public KafkaBenchmarkBuilder Client(IBenchClientFactory factory)
    {
        ArgumentNullException.ThrowIfNull(factory);
        _factories[factory.Name] = factory;
        return this;
    }

    /// <summary>Adds the clients of a plugin: an assembly built against KafkaPerf.Core, or the folder it was published to,
    /// loaded in a context of its own (see samples/CustomClient). A client version (<c>confluent@2.15.1</c>) needs no
    /// plugin: name it in <see cref="Clients"/>, and it is restored once from the NuGet sources.</summary>
    /// <param name="path">The plugin.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="PluginException">It cannot be used, or a client's name is taken; one line.</exception>
    public KafkaBenchmarkBuilder Plugin(string path)
    {
        var clients = ClientPlugins.Load(path);
        var taken = clients.FirstOrDefault(c => _factories.ContainsKey(c.Factory.Name) || _plugins.Any(p => p.Factory.Name.Equals(c.Factory.Name, StringComparison.OrdinalIgnoreCase)));
        if (taken is not null) throw new PluginException($"The plugin client '{taken.Factory.Name}' from '{taken.Origin}' has the name of a client already added: rename it (its factory's Name).");
        _plugins.AddRange(clients);
        return this;
    }

    /// <summary>Adds produce runs of this many messages and payload size. Each call adds to the matrix, which runs every
    /// scenario with every message count and every size given.</summary>
    public KafkaBenchmarkBuilder Produce(long messages, int payloadBytes) => Add(ScenarioKind.Produce, messages, payloadBytes);

    /// <summary>Adds consume runs (the topic is filled first, untimed).</summary>
    public KafkaBenchmarkBuilder Consume(long messages, int payloadBytes) => Add(ScenarioKind.Consume, messages, payloadBytes);

    /// <summary>Adds produce→consume roundtrip runs.</summary>
    public KafkaBenchmarkBuilder Roundtrip(long messages, int payloadBytes) => Add(ScenarioKind.Roundtrip, messages, payloadBytes);

    /// <summary>Adds produce runs at a rate: records sent on a uniform schedule for <paramref name="duration"/> after the
    /// plan's warm-up (<see cref="BenchmarkPlanBuilder.LoadWarmup"/>, none by default), with response time measured from
    /// when each was due. A plan is either at rates or bursts, not both; every rate and size given is run.</summary>
    public KafkaBenchmarkBuilder ProduceAtRate(double recordsPerSecond, TimeSpan duration, int payloadBytes) => AddRate(ScenarioKind.Produce, recordsPerSecond, duration, payloadBytes);

    /// <summary>Adds produce→consume roundtrip runs at a rate (see <see cref="ProduceAtRate"/>).</summary>
    public KafkaBenchmarkBuilder RoundtripAtRate(double recordsPerSecond, TimeSpan duration, int payloadBytes) => AddRate(ScenarioKind.Roundtrip, recordsPerSecond, duration, payloadBytes);

    /// <summary>Producer instances per client, each on its own thread, sharing the records and the rate.</summary>
    public KafkaBenchmarkBuilder Producers(params int[] producers)
    {
        _plan.Producers(producers);
        return this;
    }

    /// <summary>Consumers per client in one group (the topic gets at least as many partitions).</summary>
    public KafkaBenchmarkBuilder Consumers(params int[] consumers)
    {
        _plan.Consumers(consumers);
        return this;
    }

    /// <summary>Measured repetitions per client and cell (after one excluded warm-up).</summary>
    public KafkaBenchmarkBuilder Repeat(int repeat)
    {
        _plan.Repeat(repeat);
        return this;
    }

    /// <summary>The common client settings (e.g. <see cref="ClientSettings.SeedProfile"/>).</summary>
    public KafkaBenchmarkBuilder Settings(ClientSettings settings)
    {
        _plan.Settings(settings);
        return this;
    }

    /// <summary>A client's own <c>key=value</c> setting (the CLI's <c>-X client:key=value</c>).</summary>
    public KafkaBenchmarkBuilder Override(string client, string key, string value)
    {
        _plan.Override(client, key, value);
        return this;
    }

    /// <summary>What payloads look like.</summary>
    public KafkaBenchmarkBuilder Payload(PayloadKind kind)
    {
        _plan.Payload(kind);
        return this;
    }

    /// <summary>Replicas of each run's topic (by default the cluster's brokers, at most 3) and its <c>min.insync.replicas</c>
    /// (by default the broker's); a cluster too small for them fails before any run.</summary>
    public KafkaBenchmarkBuilder Replication(int? replicationFactor, int? minInSyncReplicas = null)
    {
        _plan.Replication(replicationFactor, minInSyncReplicas);
        return this;
    }

    /// <summary>Faults fired in every measured run at a rate (as <c>--fault</c> spells them: <c>kill:leader@10s</c>,
    /// <c>restart:leader@10s+5s</c>, <c>pause:leader@10s+5s</c>, <c>stop:node:2@10s</c>, <c>move-leader@10s</c>,
    /// <c>exec@10s:COMMAND</c>), and the latency goal recovery is measured against; docs/failover.md.</summary>
    public KafkaBenchmarkBuilder Faults(IEnumerable<string> faults, string? recoveryGoal = null)
    {
        _plan.Faults(faults, recoveryGoal);
        return this;
    }

    /// <summary>Consumers that can prefetch on a thread of their own do so.</summary>
    public KafkaBenchmarkBuilder UsePrefetch()
    {
        _plan.Consume(usePrefetch: true);
        return this;
    }

    /// <summary>Where progress goes (nothing by default).</summary>
    public KafkaBenchmarkBuilder Progress(IBenchmarkProgress progress)
    {
        _progress = progress;
        return this;
    }

    /// <summary>Keeps the result in a results store as well (as <c>--store</c> does): a SQLite file, <c>postgres</c> (the
    /// connection string in <c>KAFKAPERF_STORE_POSTGRES</c>) or <c>postgres:FILE</c>. The store is opened (created,
    /// migrated) before anything starts; the commit and branch of the current folder's repository are kept beside it.</summary>
    /// <param name="store">The store.</param>
    /// <param name="label">A label kept with the result (a branch, a setting under test).</param>
    public KafkaBenchmarkBuilder Store(string store, string? label = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(store);
        _store = (store, label);
        return this;
    }

    /// <summary>Any other option of the plan: sweeps (<c>Acks</c>, <c>LingerMs</c>, …), topics, order, tolerance, stall timeout.</summary>
    public KafkaBenchmarkBuilder Plan(Action<BenchmarkPlanBuilder> configure)
    {
        ArgumentNullException.ThrowIfNull(configure);
        configure(_plan);
        return this;
    }

    /// <summary>Validates the plan, starts the broker if it is the embedded one and a client needs it, runs every cell and
    /// stops the broker.</summary>
    /// <param name="cancellationToken">Stops the runs; the result then holds those done so far.</param>
    /// <returns>The result: the model the CLI exports (CSV, JSON, Markdown through <c>DefaultExporters</c>).</returns>
    /// <exception cref="PlanValidationException">The plan is not valid or a client cannot run here; one line per problem, as the CLI prints them.</exception>
    /// <exception cref="PrerequisiteException">Java, Kafka's jars or librdkafka are missing, no Docker engine answers or the
    /// image cannot be had (a container), or the cluster does not answer.</exception>
    /// <exception cref="BrokerStartException">The embedded broker or the container did not start.</exception>
    /// <exception cref="PluginException">A client version cannot be restored or loaded.</exception>
    /// <exception cref="ResultStoreException">The store given with <see cref="Store"/> cannot be opened or written (its result is lost to the store only).</exception>
    public async Task<BenchmarkResult> RunAsync(CancellationToken cancellationToken = default)
    {
        ResultStore? store = null;
        StoreMetadata? metadata = null;
        if (_store is { } wanted)
        {
            store = await ResultStore.OpenAsync(StoreLocation.Parse(wanted.Spec), cancellationToken: cancellationToken).ConfigureAwait(false);
            var (commit, branch) = GitInfo.Read(Environment.CurrentDirectory);
            metadata = new StoreMetadata(wanted.Label, commit, branch);
        }
        var result = await RunPlanAsync(cancellationToken).ConfigureAwait(false);
        if (store is not null && !result.Cancelled && result.AbortReason is null)
            await store.AppendAsync(ResultJson.Write(result), metadata!, CancellationToken.None).ConfigureAwait(false);
        return result;
    }

    private async Task<BenchmarkResult> RunPlanAsync(CancellationToken cancellationToken)
    {
        if (_scenarios.Count > 0)
        {
            _plan.Scenarios([.. _scenarios.Distinct()]).PayloadSizes([.. _sizes.Distinct()]);
            if (_messages.Count > 0) _plan.MessageCounts([.. _messages.Distinct()]);
            if (_rates.Count > 0) _plan.Rates([.. _rates.Distinct()]).Duration(_duration!.Value);
        }
        var plan = _plan.Build();
        var registry = new ClientRegistry(_factories.Values).With(_plugins.Select(p => (p.Factory, p.Origin)));
        registry = await ClientVersions.AddToAsync(registry, plan.Clients, log: null, cancellationToken).ConfigureAwait(false);
        var session = new BenchmarkSession(plan, registry, _source);
        await using (session.ConfigureAwait(false))
        {
            return await session.RunAsync(_progress, cancellationToken).ConfigureAwait(false);
        }
    }

    private KafkaBenchmarkBuilder AddRate(ScenarioKind scenario, double recordsPerSecond, TimeSpan duration, int payloadBytes)
    {
        if (_duration is { } known && known != duration)
            throw new ArgumentException($"Every rate of one plan lasts the same: {known} was given before, {duration} now.", nameof(duration));
        _scenarios.Add(scenario);
        _rates.Add(recordsPerSecond);
        _sizes.Add(payloadBytes);
        _duration = duration;
        return this;
    }

    private KafkaBenchmarkBuilder Add(ScenarioKind scenario, long messages, int payloadBytes)
    {
        _scenarios.Add(scenario);
        _messages.Add(messages);
        _sizes.Add(payloadBytes);
        return this;
    }
}
