using System.CommandLine;
using System.Globalization;
using System.Numerics;
using KafkaPerf.Adapters;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Cli.Telemetry;
using KafkaPerf.Cli.Workers;
using KafkaPerf.Clients;
using KafkaPerf.Payloads;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Reporting.Exporters;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;
using KafkaPerf.Scenarios.Load;

namespace KafkaPerf.Cli.Commands;

/// <summary><c>run</c>: the seed benchmark as a matrix, on the embedded broker unless <c>--bootstrap</c> names a cluster.</summary>
internal sealed class RunCommand
{
    /// <summary>The client the main job benchmarks when none is named.</summary>
    public const string DefaultClients = "confluent,java";

    /// <summary>The measured duration of a rate run when neither --duration nor --messages is given.</summary>
    public static readonly TimeSpan DefaultDuration = TimeSpan.FromSeconds(10);

    /// <summary>The warm-up of a rate run when --warmup is not given.</summary>
    public static readonly TimeSpan DefaultLoadWarmup = TimeSpan.FromSeconds(2);

    private static readonly Option<string> Clients = new("--clients") { Description = "Clients to compare, comma-separated; the first is the baseline.", DefaultValueFactory = _ => DefaultClients };
    private static readonly Option<string> Scenarios = new("--scenarios") { Description = "produce, consume, roundtrip (comma-separated; at a --rate the default is produce,roundtrip).", DefaultValueFactory = _ => "produce,consume,roundtrip" };
    // find-rate's own defaults, so that its --help says what it does: one scenario and size, one run per probe.
    private static readonly Option<string> SearchScenarios = new("--scenarios") { Description = "produce, roundtrip (comma-separated).", DefaultValueFactory = _ => "produce" };
    private static readonly Option<string> SearchSizes = new("--sizes") { Description = "Payload sizes in bytes, comma-separated.", DefaultValueFactory = _ => "100" };
    private static readonly Option<int> SearchRepeat = new("--repeat") { Description = "Runs per probe (their response times merged for the goal; each must keep the rate).", DefaultValueFactory = _ => 1 };
    private static readonly Option<string> Sizes = new("--sizes") { Description = "Payload sizes in bytes, comma-separated.", DefaultValueFactory = _ => "100,1000,10000" };
    private static readonly Option<string> Messages = new("--messages") { Description = "Messages per run, comma-separated.", DefaultValueFactory = _ => "10000" };
    private static readonly Option<int> Repeat = new("--repeat") { Description = "Measured runs per client and cell.", DefaultValueFactory = _ => 5 };
    private static readonly Option<string?> Rate = new("--rate") { Description = "Send at these rates (records per second per client, over all its producers; comma-separated, 10k and 1.5M allowed) instead of bursts: latency from when each record was due. Scenarios produce and roundtrip." };
    private static readonly Option<string?> Duration = new("--duration") { Description = $"How long the measured part of each rate run lasts (e.g. 60s, 2m; default {DefaultDuration.TotalSeconds:0}s), instead of --messages." };
    private static readonly Option<string?> LoadWarmup = new("--warmup") { Description = $"A warm-up at the same rate before each rate run's measured part, excluded from every figure (default {DefaultLoadWarmup.TotalSeconds:0}s; 0s for none)." };
    private static readonly Option<string?> ClusterWarmup = new("--cluster-warmup") { Description = "Before the first run, warm the cluster up for this long (e.g. 30s): rounds of produce-then-consume of the first cell's size on topics of their own, the clients in turn, excluded from every figure. A just-started cluster's first cells are otherwise slower than the same cells later (default 0s: none)." };
    private static readonly Option<string?> Interval = new("--interval") { Description = "Length of one interval of a load run's time series (default 1s)." };
    private static readonly Option<string?> Producers = new("--producers") { Description = "Producer instances per client, each on its own thread, sharing the records and the rate; several values sweep them." };
    private static readonly Option<string?> Consumers = new("--consumers") { Description = "Consumers per client in one group (the topic gets at least as many partitions); several values sweep them." };
    private static readonly Option<string?> References = new("--references") { Description = "Reference tools to run beside the clients in produce and consume cells: kcat (librdkafka's CLI), kafka-tools (Kafka's ProducerPerformance/ConsumerPerformance). A missing tool is left out with a warning." };
    private static readonly Option<string?> Bootstrap = new("--bootstrap") { Description = "An existing Kafka cluster (host:port,…); without it an embedded broker starts." };
    private static readonly Option<string?> Broker = new("--broker") { Description = "Where the broker comes from when --bootstrap names none: embedded (the default: KafkaPerf starts Apache Kafka as a child JVM) or testcontainers[:IMAGE] (a Kafka container through Testcontainers; apache/kafka:4.3.1 by default)." };
    private static readonly Option<string?> KafkaHome = new("--kafka-home") { Description = "An unpacked Apache Kafka distribution whose libs/ the embedded broker and the java clients use (as KAFKAPERF_KAFKA_HOME)." };
    private static readonly Option<int> BrokerHeap = new("--broker-heap") { Description = "Java heap of each embedded broker, in MB.", DefaultValueFactory = _ => EmbeddedKafkaBrokerOptions.DefaultHeapMegabytes };
    private static readonly Option<int> Brokers = new("--brokers") { Description = $"Brokers of the embedded cluster (1 to {EmbeddedKafkaBrokerOptions.MaxBrokers}), each a JVM on loopback; the first 3 are controllers too.", DefaultValueFactory = _ => 1 };
    private static readonly Option<int?> ReplicationFactor = new("--replication-factor") { Description = "Replicas of each run's topic (default: the cluster's brokers, at most 3)." };
    private static readonly Option<int?> MinInSyncReplicas = new("--min-insync-replicas") { Description = "min.insync.replicas of each run's topic (default: the broker's, 1)." };
    private static readonly Option<string?> Acks = new("--acks") { Description = "Producer acks to sweep: 0, 1, all (comma-separated)." };
    private static readonly Option<string?> LingerMs = new("--linger-ms") { Description = "linger.ms values to sweep." };
    private static readonly Option<string?> BatchSize = new("--batch-size") { Description = "batch.size values (bytes) to sweep." };
    private static readonly Option<string?> MaxInFlight = new("--max-in-flight") { Description = "Max in-flight requests per connection to sweep." };
    private static readonly Option<string?> Compression = new("--compression") { Description = "Codecs to sweep: none, gzip, snappy, lz4, zstd." };
    private static readonly Option<string?> SendBuffer = new("--send-buffer") { Description = "Socket send buffer sizes (bytes) to sweep." };
    private static readonly Option<string?> ReceiveBuffer = new("--receive-buffer") { Description = "Socket receive buffer sizes (bytes) to sweep." };
    private static readonly Option<string?> Partitions = new("--partitions") { Description = "Partitions per topic to sweep (default 1)." };
    private static readonly Option<string?> FetchMinBytes = new("--fetch-min-bytes") { Description = "Consumer fetch.min.bytes values to sweep." };
    private static readonly Option<string[]> Overrides = new("-X") { Description = "A client's own setting, client:key=value (repeatable), applied after the common ones." };
    private static readonly Option<string> TopicPrefix = new("--topic-prefix") { Description = "Prefix of every run's topic.", DefaultValueFactory = _ => BenchmarkPlan.DefaultTopicPrefix };
    private static readonly Option<bool> KeepTopics = new("--keep-topics") { Description = "Keep each run's topic instead of deleting it." };
    private static readonly Option<string> Output = new("--output") { Description = "Folder for result files.", DefaultValueFactory = _ => "kafkaperf-results" };
    private static readonly Option<string> Format = new("--format") { Description = "csv, json, md, html (comma-separated); html is a self-contained report with charts, each also written as an .svg file.", DefaultValueFactory = _ => "csv,json,md,html" };
    private static readonly Option<string> Payload = new("--payload") { Description = "What payloads look like: random (incompressible), access-log (web-server log lines, compressible) or file:PATH.", DefaultValueFactory = _ => "random" };
    private static readonly Option<bool> UsePrefetch = new("--use-prefetch") { Description = "Consumers that can prefetch on a thread of their own (java, java-batched, java-records) do so; the result records it." };
    private static readonly Option<string[]> Otel = new("--otel") { Description = "Export KafkaPerf's metrics and spans: otlp (to the collector the OTEL_EXPORTER_OTLP_* variables name) and/or console (metrics on standard error); repeatable or comma-separated." };
    private static readonly Option<bool> Quiet = new("--quiet") { Description = "No progress lines, only the tables." };
    private static readonly Option<string?> StallTimeout = new("--stall-timeout") { Description = "Any wait that sees no progress for this long - no acknowledgement, no record, no answer from the broker - fails its run and says what stalled (default 30s); after a failed run, a --bootstrap cluster that does not answer for this long stops the plan." };
    private static readonly Option<string?> Workers = new("--workers") { Description = "Run every run on the workers of this group (each started with 'dotnet kafkaperf worker --group GROUP --bootstrap …' on a machine that reaches the cluster), sharing its records, rate and producers." };
    private static readonly Option<int?> Expect = new("--expect") { Description = "How many workers of --workers GROUP run the plan (default 1)." };
    private static readonly Option<int?> Processes = new("--processes") { Description = "Run every run in this many worker processes on this machine, started by the tool, sharing its records, rate and producers as --workers does." };
    private static readonly Option<string?> JoinTimeout = new("--join-timeout") { Description = "How long the plan waits for its workers to join and start their clients (default 60s)." };
    private static readonly Option<string> Slo = new("--slo") { Description = "The latency goal on response time, e.g. p99<20ms; several: p99<20ms,p99.9<50ms (units ns, us, ms, s).", Required = true };
    private static readonly Option<string> StartRate = new("--start-rate") { Description = "The first rate probed (msg/s; 10k and 1.5M allowed); rates then double until one fails, or halve until one holds.", DefaultValueFactory = _ => "1000" };
    private static readonly Option<string> MaxRate = new("--max-rate") { Description = "No rate above this is probed (msg/s).", DefaultValueFactory = _ => "10M" };
    private static readonly Option<double> Precision = new("--precision") { Description = "Stop when the first failing rate is within this many percent above the last that held.", DefaultValueFactory = _ => 5 };
    private static readonly Option<int> MaxProbes = new("--max-probes") { Description = "The most probes per client and cell.", DefaultValueFactory = _ => 16 };

    private readonly ClientRegistry _registry;
    private readonly EmbeddedKafkaBrokerOptions _brokerDefaults;
    private readonly IServiceProvider _services;
    private readonly Shutdown _shutdown;

    public RunCommand(ClientRegistry registry, EmbeddedKafkaBrokerOptions brokerDefaults, IServiceProvider services, Shutdown shutdown)
    {
        _registry = registry;
        _brokerDefaults = brokerDefaults;
        _services = services;
        _shutdown = shutdown;
    }

    public Command Build()
    {
        var command = new Command("run", "Run a benchmark matrix and print the comparison tables.")
        {
            Clients, References, Scenarios, Sizes, Messages, Repeat, Rate, Duration, LoadWarmup, ClusterWarmup, Interval, Producers, Consumers, Bootstrap, Broker, KafkaHome, BrokerHeap, Brokers, ReplicationFactor, MinInSyncReplicas,
            Acks, LingerMs, BatchSize, MaxInFlight, Compression, SendBuffer, ReceiveBuffer, FetchMinBytes, Partitions, Overrides,
            TopicPrefix, KeepTopics, Payload, UsePrefetch, Output, Format, Otel, Quiet, StallTimeout, Workers, Expect, Processes, JoinTimeout,
        };
        foreach (var option in SecurityOptions.All) command.Options.Add(option);
        command.SetAction((parse, ct) => ExecuteAsync(parse, findRate: false, _shutdown.Token));
        return command;
    }

    /// <summary><c>find-rate</c>: the highest rate at which each client holds a latency goal, with run's options.</summary>
    public Command BuildFindRate()
    {
        var command = new Command("find-rate", "Find, per client and cell, the highest rate that holds a latency goal on response time (--slo p99<20ms).")
        {
            Slo, StartRate, MaxRate, Precision, MaxProbes,
            Clients, SearchScenarios, SearchSizes, SearchRepeat, Duration, LoadWarmup, ClusterWarmup, Interval, Producers, Consumers, Bootstrap, Broker, KafkaHome, BrokerHeap, Brokers, ReplicationFactor, MinInSyncReplicas,
            Acks, LingerMs, BatchSize, MaxInFlight, Compression, SendBuffer, ReceiveBuffer, FetchMinBytes, Partitions, Overrides,
            TopicPrefix, KeepTopics, Payload, UsePrefetch, Output, Format, Otel, Quiet, StallTimeout,
        };
        foreach (var option in SecurityOptions.All) command.Options.Add(option);
        command.SetAction((parse, ct) => ExecuteAsync(parse, findRate: true, _shutdown.Token));
        return command;
    }

    private async Task<int> ExecuteAsync(ParseResult parse, bool findRate, CancellationToken cancellationToken)
    {
        if (parse.GetValue(KafkaHome) is { } kafkaHome)
        {
            // One place for every part that reads Kafka's jars (the broker, the java clients' class path): the variable.
            try
            {
                KafkaJars.Locate(kafkaHome);
            }
            catch (PrerequisiteException ex)
            {
                return BadInput(ex.Message.Replace($"{KafkaJars.KafkaHomeVariable} is", "--kafka-home is", StringComparison.Ordinal)
                    .Replace($"or unset it", "or leave --kafka-home out", StringComparison.Ordinal), ex);
            }
            Environment.SetEnvironmentVariable(KafkaJars.KafkaHomeVariable, Path.GetFullPath(kafkaHome));
        }
        BenchmarkPlan plan;
        List<IResultExporter> exporters;
        OtelTargets otel;
        RateSearchOptions? search = null;
        KafkaSecurity security;
        Distribution? distribution;
        var brokerOptions = _brokerDefaults with { HeapMegabytes = parse.GetValue(BrokerHeap), Brokers = parse.GetValue(Brokers) };
        try
        {
            if (findRate) search = SearchOptions(parse);
            plan = BuildPlan(parse, _registry, search);
            otel = OtelTargetsParser.Parse(parse.GetValue(Otel));
            exporters = [.. List(parse.GetValue(Format)).Select(f => DefaultExporters.TryGet(f, out var e)
                ? e : throw new PlanValidationException($"Unknown format '{f}': use csv, json, md and/or html."))];
            if (exporters.Count == 0) throw new PlanValidationException("--format is empty: name at least one of csv, json, md and html.");
            if (string.IsNullOrWhiteSpace(parse.GetValue(Output)))
                throw new PlanValidationException("--output is empty: name a folder for the results, e.g. --output kafkaperf-results.");
            if (brokerOptions.HeapMegabytes < EmbeddedKafkaBrokerOptions.MinimumHeapMegabytes)
                throw new PlanValidationException(
                    $"Broker heap {brokerOptions.HeapMegabytes} MB is too small: use --broker-heap {EmbeddedKafkaBrokerOptions.MinimumHeapMegabytes} or more.");
            if (brokerOptions.Brokers is < 1 or > EmbeddedKafkaBrokerOptions.MaxBrokers)
                throw new PlanValidationException(
                    $"--brokers {brokerOptions.Brokers} is out of range: the embedded cluster has 1 to {EmbeddedKafkaBrokerOptions.MaxBrokers} brokers (3 is a replicated cluster).");
            if (parse.GetValue(Bootstrap) is { } servers && !IsBootstrapList(servers))
                throw new PlanValidationException($"--bootstrap '{servers}' is not host:port[,host:port…]: give the address of a broker, e.g. --bootstrap localhost:9092.");
            bool embedded = parse.GetValue(Bootstrap) is null && (parse.GetValue(Broker) is not { } b || b.Trim().Equals("embedded", StringComparison.OrdinalIgnoreCase));
            security = SecurityOptions.Read(parse, embedded);
            if (security.IsSecured && parse.GetValue(Bootstrap) is null && !embedded)
                throw new PlanValidationException($"--security {KafkaSecurity.CliName(security.Protocol)} is for the embedded cluster or a --bootstrap cluster: a Testcontainers broker listens in plain TCP.");
            brokerOptions = brokerOptions with { Security = embedded ? security : KafkaSecurity.Plaintext };
            if (embedded) brokerOptions.Validate();
            distribution = ReadDistribution(parse);
        }
        catch (ArgumentException ex) when (ex is not ArgumentOutOfRangeException && ex.ParamName == nameof(EmbeddedKafkaBrokerOptions.Security))
        {
            return BadInput($"{ex.Message.Split(" (Parameter")[0]} Change the credentials (--sasl-credentials or {SecurityOptions.UsernameVariable}/{SecurityOptions.PasswordVariable}).", ex);
        }
        catch (PlanValidationException ex)
        {
            return BadInput(ex.Message, ex);
        }

        // The base name of the result files; a broker that dies leaves a copy of its log beside them.
        var stem = "kafkaperf-" + DateTimeOffset.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
        brokerOptions = brokerOptions with
        {
            CrashLogPath = Path.GetFullPath(Path.Combine(parse.GetValue(Output)!, $"{stem}-broker-{Environment.ProcessId}.log")),
        };
        var bootstrap = parse.GetValue(Bootstrap);
        BrokerSource source = BrokerSource.Embedded(brokerOptions);
        if (bootstrap is not null)
        {
            if (parse.GetValue(Broker) is not null)
                return BadInput("--broker and --bootstrap both say where the broker is: give one (--bootstrap names an existing cluster).");
            source = BrokerSource.Cluster(bootstrap, security);
        }
        else if (parse.GetValue(Broker) is { } brokerText && !BrokerSource.TryParse(brokerText, brokerOptions, out source))
        {
            return BadInput($"--broker '{brokerText}' is not embedded, testcontainers or testcontainers:IMAGE: e.g. --broker testcontainers:apache/kafka:4.3.1.");
        }
        if (source is not BrokerSource.EmbeddedBroker && parse.GetResult(BrokerHeap) is { Implicit: false })
            Console.Error.WriteLine("kafkaperf: --broker-heap is not used: it sizes the embedded broker, and this run's broker is not one.");
        if (source is not BrokerSource.EmbeddedBroker && parse.GetResult(Brokers) is { Implicit: false })
            return BadInput("--brokers sizes the embedded cluster, and this run's broker is not one: leave --brokers out, or --bootstrap and --broker.");
        // Names and prerequisites are checked before a broker starts; the real address comes after.
        var findings = new BenchmarkRunner(_registry, new ClientConnection(bootstrap ?? "embedded")).Validate(plan);
        if (findings.Count > 0) return BadInput(string.Join(Environment.NewLine, findings.Select(f => f.Message)));
        bool needsBroker = plan.Clients.Any(c => _registry.Get(c).RequiresBroker);
        if (needsBroker && source is BrokerSource.EmbeddedBroker embeddedSource && DiskShortfall(plan, embeddedSource.Options) is { } shortfall)
            return BadInput(shortfall);
        if (distribution is not null && !needsBroker)
            return BadInput("--workers and --processes meet on the Kafka cluster: a plan whose clients need no broker (memory) runs in this process; leave them out.");

        var output = parse.GetValue(Output)!;
        bool createdOutput = !Directory.Exists(output);
        try
        {
            Directory.CreateDirectory(output);
            // Checked now, not after an hour of runs: a file can be created there and removed again.
            var probe = Path.Combine(output, $".kafkaperf-write-check-{Guid.NewGuid():N}");
            using (new FileStream(probe, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1, FileOptions.DeleteOnClose))
            {
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            RemoveIfEmpty(output, createdOutput);
            return BadInput($"Cannot write to the output folder '{output}' ({ex.Message.TrimEnd('.')}): choose another with --output.", ex);
        }

        bool quiet = parse.GetValue(Quiet);
        var log = quiet ? null : Console.Error;
        ConnectedBroker? broker = null;
        Coordinator? coordinator = null;
        LocalWorkers? localWorkers = null;
        // Disposed after the broker on every way out, Ctrl+C included: what is pending is exported then.
        using var telemetry = TelemetrySetup.Start(_services, otel, LiveProgress.Lines);
        try
        {
            ClientConnection connection;
            try
            {
                if (needsBroker)
                {
                    broker = await ConnectedBroker.ConnectAsync(source, log, cancellationToken);
                    connection = broker.Connection;
                    // The cluster's size is known now: a replication it cannot hold is said before any run.
                    if (new BenchmarkRunner(_registry, connection).Validate(plan) is { Count: > 0 } late)
                    {
                        // The finally below stops the broker.
                        RemoveIfEmpty(output, createdOutput);
                        return BadInput(string.Join(Environment.NewLine, late.Select(f => f.Message)));
                    }
                }
                else
                {
                    if (bootstrap is not null) log?.WriteLine("kafkaperf: --bootstrap is not used: no client of this plan needs a broker.");
                    else if (source is BrokerSource.ContainerBroker) log?.WriteLine("kafkaperf: --broker is not used: no client of this plan needs a broker.");
                    connection = ClientConnection.None;
                }
            }
            catch (PrerequisiteException ex)
            {
                RemoveIfEmpty(output, createdOutput);
                return BadInput(ex.Message, ex);
            }
            catch (BrokerStartException ex)
            {
                RemoveIfEmpty(output, createdOutput);
                return CliErrors.Fail(ExitCodes.BrokerFailed, ex.Message, ex);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                RemoveIfEmpty(output, createdOutput);
                return CancelledExitCode();
            }

            if (distribution is { } d)
            {
                // Workers meet on the cluster under test: the plan goes to them, and every run is theirs.
                try
                {
                    var group = d.Group ?? $"local-{Environment.ProcessId}-{Guid.NewGuid():N}"[..24];
                    coordinator = await Task.Run(() => Coordinator.Open(connection.BootstrapServers!, connection.Security, group, ownsTopic: d.Group is null, log), cancellationToken);
                    if (d.Processes is { } processes) localWorkers = LocalWorkers.Start(processes, connection.BootstrapServers!, connection.Security, group, log);
                    await coordinator.JoinAsync(PlanArguments(parse), d.Processes ?? d.Expect, d.JoinTimeout, plan.StallTimeout, cancellationToken);
                }
                catch (Exception ex) when (ex is WorkersUnavailableException or TimeoutException or Confluent.Kafka.KafkaException)
                {
                    RemoveIfEmpty(output, createdOutput);
                    return CliErrors.Fail(ExitCodes.BrokerFailed, ex.Message, ex);
                }
                catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
                {
                    RemoveIfEmpty(output, createdOutput);
                    return CancelledExitCode();
                }
            }

            // The last emergency action: a broker that is stopped (SIGSTOP) would outlive the process.
            using var killBroker = broker is { } started ? _shutdown.OnImmediateEnd(() =>
            {
                started.KillNow();
                return null;
            }) : null;
            var checkpoints = new CheckpointFiles(output, stem, [.. exporters.Select(e => e.Format)], Console.Error);
            // A process that must end at once (a second Ctrl+C) still leaves every finished run in the files.
            using var emergency = _shutdown.OnImmediateEnd(() => checkpoints.WriteInterrupted() is { } saved
                ? $"The runs done are saved in {saved}{(exporters.Any(e => e.Format == "csv") ? " and its .csv" : string.Empty)}, the run in progress marked cancelled; no report was written."
                : "No run had finished: nothing was saved.");
            var runner = new BenchmarkRunner(_registry, connection) { Checkpoints = search is null ? checkpoints : null, Remote = coordinator };
            BenchmarkResult result;
            try
            {
                // A live bar on a terminal; plain lines in a pipe or a CI log; nothing with --quiet.
                result = search is not null ? await RateFinder.RunAsync(plan, search, runner, connection, log, checkpoints, cancellationToken)
                    : quiet ? await runner.RunAsync(plan, NullProgress.Instance, cancellationToken)
                    : LiveProgress.IsSupported ? await LiveProgress.RunAsync(plan, progress => runner.RunAsync(plan, progress, cancellationToken))
                    : await runner.RunAsync(plan, new ConsoleProgress(Console.Error), cancellationToken);
            }
            catch (PrerequisiteException ex)
            {
                RemoveIfEmpty(output, createdOutput);
                return BadInput(ex.Message, ex);
            }

            // The tables go out first: if the files cannot be written, what was measured is at least on the screen.
            DefaultExporters.Markdown.Export(result, Console.Out);
            var composite = new CompositeExporter(exporters);
            // Every format under the checkpoints' base name (replacing them), or under a new one when no run started.
            var place = checkpoints.Close();
            IReadOnlyList<string> written;
            try
            {
                written = place is { } p ? composite.ExportToFolder(result, p.Folder, p.BaseName) : composite.ExportToFolderUnique(result, output, stem);
                checkpoints.RemoveUnrequested();
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Nothing measured is lost: the files go to the temporary folder instead, and the tables are on the screen.
                var fallback = CheckpointFiles.FallbackFolder;
                var folder = place?.Folder ?? output;
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
                return result.AbortReason is not null ? ExitCodes.BrokerFailed : result.Cancelled ? CancelledExitCode() : ExitCodes.RunsFailed;
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
                return CancelledExitCode();
            }
            // Files that had to go to the temporary folder are a failure too: a CI job would look for them in --output.
            return result.FailedRuns > 0 || checkpoints.FailedOver ? ExitCodes.RunsFailed : ExitCodes.Success;
        }
        finally
        {
            if (coordinator is not null)
            {
                if (coordinator.Overhead() is { } overhead) log?.WriteLine($"kafkaperf: {overhead}.");
                await coordinator.DisposeAsync();
            }
            localWorkers?.Dispose();
            if (broker is not null) await broker.DisposeAsync();
        }
    }

    /// <summary>Where the runs run when not here: a worker group, or local worker processes.</summary>
    private sealed record Distribution(string? Group, int Expect, int? Processes, TimeSpan JoinTimeout);

    private static Distribution? ReadDistribution(ParseResult parse)
    {
        var group = parse.GetValue(Workers);
        var expect = parse.GetValue(Expect);
        var processes = parse.GetValue(Processes);
        if (group is null && processes is null)
        {
            if (expect is not null) throw new PlanValidationException("--expect counts the workers of --workers GROUP: give --workers too, or leave --expect out.");
            if (parse.GetValue(JoinTimeout) is not null) throw new PlanValidationException("--join-timeout is for --workers or --processes: give one of them, or leave it out.");
            return null;
        }
        if (group is not null && processes is not null)
            throw new PlanValidationException("--workers and --processes both say where the runs run: --workers GROUP for workers started by hand, --processes P for P started by the tool.");
        if (parse.GetValue(ClusterWarmup) is not null)
            throw new PlanValidationException("--cluster-warmup runs this process's clients, and with --workers or --processes the workers run them: leave it out (a short plan before the real one warms the cluster up).");
        if (processes is not null && expect is not null)
            throw new PlanValidationException("--expect is for --workers: with --processes P the tool starts P workers and waits for them.");
        if (group is not null && Adapters.Workers.WorkerBus.CheckGroupName(group) is { } bad) throw new PlanValidationException($"--workers: {bad}.");
        if (expect is < 1 or > 1000) throw new PlanValidationException($"--expect {expect} is out of range: give 1 to 1000 workers.");
        if (processes is < 1 or > 64) throw new PlanValidationException($"--processes {processes} is out of range: give 1 to 64 processes.");
        var join = parse.GetValue(JoinTimeout) is { } text ? LoadOptions.Duration(text, "--join-timeout") : TimeSpan.FromSeconds(60);
        return new Distribution(group, expect ?? 1, processes, join);
    }

    /// <summary>130 after Ctrl+C, 143 after SIGTERM.</summary>
    private int CancelledExitCode() => _shutdown.SignalExitCode is > 0 and var code ? code : ExitCodes.Cancelled;

    /// <summary>The search's options from <c>find-rate</c>'s own.</summary>
    private static RateSearchOptions SearchOptions(ParseResult parse)
    {
        var goals = LatencyGoal.ParseList(parse.GetValue(Slo)!);
        double start = LoadOptions.Rates(parse.GetValue(StartRate)!) is [var s] ? s : throw new PlanValidationException("--start-rate takes one rate, e.g. --start-rate 1000.");
        double max = LoadOptions.Rates(parse.GetValue(MaxRate)!) is [var m] ? m : throw new PlanValidationException("--max-rate takes one rate, e.g. --max-rate 1M.");
        if (!(start > 0) || !(max > 0)) throw new PlanValidationException("--start-rate and --max-rate must be positive rates, e.g. --start-rate 1000 --max-rate 1M.");
        if (max < start) throw new PlanValidationException($"--max-rate {max:0.###} is below --start-rate {start:0.###}: give a larger maximum.");
        double precision = parse.GetValue(Precision);
        if (!(precision > 0 && precision <= 100)) throw new PlanValidationException($"--precision {precision:0.###} is out of range: give a percentage above 0, e.g. 5.");
        int probes = parse.GetValue(MaxProbes);
        if (probes is < 2 or > 100) throw new PlanValidationException($"--max-probes {probes} is out of range: give 2 to 100.");
        return new RateSearchOptions { Goals = goals, StartRate = start, MaxRate = max, Precision = precision / 100, MaxProbes = probes };
    }

    /// <summary>The plan of a <c>run</c> command line (a worker reads its coordinator's).</summary>
    /// <param name="arguments">The arguments after <c>run</c>.</param>
    /// <returns>The plan.</returns>
    /// <exception cref="PlanValidationException">The arguments are not a plan.</exception>
    public BenchmarkPlan ParsePlan(IReadOnlyList<string> arguments)
    {
        var parse = Build().Parse(arguments);
        if (parse.Errors.Count > 0) throw new PlanValidationException(string.Join(" ", parse.Errors.Select(e => e.Message)));
        return BuildPlan(parse, _registry, null);
    }

    /// <summary>What the workers get of this command line: the plan's options (theirs, not the coordinator's, decide
    /// the cluster, the security and the output).</summary>
    private static string[] PlanArguments(ParseResult parse)
    {
        var skip = new HashSet<string>(StringComparer.Ordinal) { Workers.Name, Expect.Name, Processes.Name, JoinTimeout.Name, Output.Name, Format.Name, Otel.Name };
        var arguments = new List<string>();
        bool skipping = false;
        foreach (var token in parse.Tokens)
        {
            if (token.Type == System.CommandLine.Parsing.TokenType.Command) continue;
            if (token.Type == System.CommandLine.Parsing.TokenType.Option)
            {
                skipping = skip.Contains(token.Value) || SecurityOptions.All.Any(o => o.Name == token.Value);
                if (!skipping) arguments.Add(token.Value);
            }
            else if (!skipping)
            {
                arguments.Add(token.Value);
            }
        }
        return [.. arguments];
    }

    private static BenchmarkPlan BuildPlan(ParseResult parse, ClientRegistry registry, RateSearchOptions? search)
    {
        bool findRate = search is not null;
        bool rate = findRate || parse.GetValue(Rate) is not null;
        // At a rate the default scenarios are those a rate means something to, and a run lasts a duration; a search
        // probes produce at 100 B once per rate unless told otherwise.
        var scenarios = findRate ? parse.GetValue(SearchScenarios) : rate && IsDefault(parse, Scenarios) ? "produce,roundtrip" : parse.GetValue(Scenarios);
        var sizes = findRate ? parse.GetValue(SearchSizes)! : parse.GetValue(Sizes)!;
        int repeat = findRate ? parse.GetValue(SearchRepeat) : parse.GetValue(Repeat);
        long[] messages = findRate ? [] : [.. NumberList(parse.GetValue(Messages)!, "message count").Select(s => ParseNumber<long>(s, "message count"))];
        var builder = new BenchmarkPlanBuilder()
            .Clients(List(parse.GetValue(Clients)))
            .Scenarios([.. List(scenarios).Select(ParseScenario)])
            .PayloadSizes([.. NumberList(sizes, "payload size").Select(s => ParseNumber<int>(s, "payload size"))])
            .Repeat(repeat)
            .Topics(parse.GetValue(TopicPrefix)!, keep: parse.GetValue(KeepTopics))
            .Consume(usePrefetch: parse.GetValue(UsePrefetch));
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
        if (parse.GetValue(Partitions) is { } partitions) builder.Partitions(Numbers(partitions, "partitions"));
        builder.Replication(parse.GetValue(ReplicationFactor), parse.GetValue(MinInSyncReplicas));
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

    private static int BadInput(string message, Exception? exception = null) => CliErrors.BadInput(message, exception);

    /// <summary>Why the embedded broker's disk cannot hold the plan's largest run, or null. A run's topic holds at least
    /// its records' payloads (warm-up records at a rate included) once per replica, and every node of the embedded
    /// cluster keeps its data on the one disk of the temporary folder; a run that fills it would fail hours into a plan.</summary>
    private static string? DiskShortfall(BenchmarkPlan plan, EmbeddedKafkaBrokerOptions options)
    {
        int replicas = plan.ReplicationFactorFor(options.Brokers);
        var largest = plan.Cells()
            .Select(cell => (Cell: cell, Bytes: (cell.MessageCount + ((cell.Rate ?? 0) * plan.LoadWarmup.TotalSeconds)) * cell.PayloadBytes * replicas))
            .MaxBy(c => c.Bytes);
        if (largest.Cell is null) return null;
        string root = options.DataRoot ?? Path.GetTempPath();
        long free;
        try
        {
            free = new DriveInfo(Path.GetFullPath(root)).AvailableFreeSpace;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException)
        {
            return null; // The broker's own start says what is wrong with the folder.
        }
        if (largest.Bytes <= free) return null;
        string Size(double bytes) => bytes >= 1e9 ? string.Create(CultureInfo.InvariantCulture, $"{bytes / 1e9:0.#} GB") : string.Create(CultureInfo.InvariantCulture, $"{bytes / 1e6:0.#} MB");
        return $"A run of {largest.Cell.MessageCount.ToString("N0", CultureInfo.InvariantCulture)} records of {largest.Cell.PayloadBytes.ToString(CultureInfo.InvariantCulture)} B"
            + (largest.Cell.Rate is null ? string.Empty : " (plus its warm-up's)")
            + (replicas > 1 ? $" × {replicas.ToString(CultureInfo.InvariantCulture)} replicas" : string.Empty)
            + $" writes at least {Size(largest.Bytes)} to the embedded broker's disk, which has {Size(free)} free under {root.TrimEnd('/')}: "
            + (largest.Cell.Rate is null ? "use fewer --messages or smaller --sizes" : "use a lower --rate, a shorter --duration or smaller --sizes")
            + ", point TMPDIR at a larger disk, or benchmark your cluster with --bootstrap.";
    }

    /// <summary>Whether an option kept its default (neither typed nor configured).</summary>
    private static bool IsDefault(ParseResult parse, Option option) => parse.GetResult(option) is null or { Implicit: true };

    private static bool IsBootstrapList(string value) =>
        List(value) is { Length: > 0 } servers && servers.All(server =>
            server.LastIndexOf(':') is var colon and > 0
            && int.TryParse(server.AsSpan(colon + 1), NumberStyles.None, CultureInfo.InvariantCulture, out var port) && port is > 0 and < 65536);

    /// <summary>A folder this run created and never wrote to goes again: bad input leaves nothing behind.</summary>
    private static void RemoveIfEmpty(string folder, bool created)
    {
        try
        {
            if (created && Directory.Exists(folder) && !Directory.EnumerateFileSystemEntries(folder).Any()) Directory.Delete(folder);
        }
        catch (IOException)
        {
            // Someone else wrote into it meanwhile: it stays.
        }
    }

    private static string[] List(string? value) =>
        (value ?? string.Empty).Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static int[] Numbers(string value, string what) => [.. NumberList(value, what).Select(s => ParseNumber<int>(s, what))];

    private static ScenarioKind ParseScenario(string value) =>
        Enum.TryParse<ScenarioKind>(value, ignoreCase: true, out var kind) && Enum.IsDefined(kind) && !value.Any(char.IsDigit)
            ? kind
            : throw new PlanValidationException($"Unknown scenario '{value}': use produce, consume and/or roundtrip.");

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
