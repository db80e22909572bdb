using KafkaPerf.Clients;
using KafkaPerf.Payloads;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Plans;

/// <summary>Builds a <see cref="BenchmarkPlan"/> fluently; <see cref="Build"/> validates and freezes it.</summary>
/// <remarks>Every common knob takes a list: more than one value sweeps it, and the plan runs the product of all sweeps.</remarks>
public sealed partial class BenchmarkPlanBuilder
{
    private readonly List<string> _clients = [];
    private readonly List<string> _references = [];
    private readonly List<string> _warnings = [];
    private readonly List<ScenarioKind> _scenarios = [];
    private readonly List<long> _messageCounts = [];
    private readonly List<int> _payloadSizes = [];
    private readonly Dictionary<string, Dictionary<string, string>> _overrides = new(StringComparer.OrdinalIgnoreCase);
    private AcksMode[] _acks = [];
    private int[] _lingerMs = [];
    private int[] _batchSize = [];
    private int[] _maxInFlight = [];
    private int[] _sendBuffer = [];
    private int[] _receiveBuffer = [];
    private int[] _fetchMinBytes = [];
    private int[] _partitions = [];
    private int[] _producers = [];
    private int[] _consumers = [];
    private readonly List<double> _rates = [];
    private bool _messageCountsGiven;
    private bool _intervalSet;
    private bool _loadWarmupSet;
    private CompressionCodec[] _compression = [];
    private BenchmarkPlan _options = new()
    {
        Clients = [], Scenarios = [], MessageCounts = [], PayloadSizes = [], SettingsVariants = [],
    };

    /// <summary>The clients to compare; the first is the baseline.</summary>
    /// <param name="names">Registered client names.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Clients(params string[] names) { _clients.AddRange(names); return this; }

    /// <summary>Adds reference tools (e.g. <c>kcat</c>, <c>kafka-tools</c>): they run beside the clients in produce and
    /// consume cells, after them in each round, and are compared with the baseline.</summary>
    /// <param name="names">Registered reference names.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder References(params string[] names) { _references.AddRange(names); return this; }

    /// <summary>Adds a caveat the result should carry (e.g. a reference left out because its tool is missing).</summary>
    /// <param name="message">One line.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Warning(string message) { _warnings.Add(message); return this; }

    /// <summary>The scenarios to run.</summary>
    /// <param name="kinds">Scenarios.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Scenarios(params ScenarioKind[] kinds) { _scenarios.AddRange(kinds); return this; }

    /// <summary>Messages per run.</summary>
    /// <param name="counts">Message counts.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder MessageCounts(params long[] counts) { _messageCounts.AddRange(counts); _messageCountsGiven = true; return this; }

    /// <summary>Messages per run that stand as a default (the CLI's), which a rate's duration replaces without complaint.</summary>
    /// <param name="counts">Message counts.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder DefaultMessageCounts(params long[] counts) { _messageCounts.AddRange(counts); return this; }

    /// <summary>Payload lengths in bytes.</summary>
    /// <param name="sizes">Payload sizes.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder PayloadSizes(params int[] sizes) { _payloadSizes.AddRange(sizes); return this; }

    /// <summary>Sets every knob of the seed profile (one value each); later calls may sweep single knobs.</summary>
    /// <param name="settings">The settings to start from.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Settings(ClientSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        _acks = settings.Acks is { } a ? [a] : [];
        _lingerMs = settings.LingerMs is { } l ? [l] : [];
        _batchSize = settings.BatchSizeBytes is { } b ? [b] : [];
        _maxInFlight = settings.MaxInFlight is { } m ? [m] : [];
        _sendBuffer = settings.SendBufferBytes is { } s ? [s] : [];
        _receiveBuffer = settings.ReceiveBufferBytes is { } r ? [r] : [];
        _fetchMinBytes = settings.FetchMinBytes is { } f ? [f] : [];
        _compression = settings.Compression is { } c ? [c] : [];
        _partitions = settings.Partitions is { } p ? [p] : [];
        CopyWorkload(settings);
        CopyGroup(settings);
        return this;
    }

    /// <summary>Producer acks; several values sweep them.</summary>
    /// <param name="values">Values.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Acks(params AcksMode[] values) { _acks = values; return this; }

    /// <summary>linger.ms; several values sweep it.</summary>
    /// <param name="values">Values.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder LingerMs(params int[] values) { _lingerMs = values; return this; }

    /// <summary>batch.size in bytes; several values sweep it.</summary>
    /// <param name="values">Values.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder BatchSizeBytes(params int[] values) { _batchSize = values; return this; }

    /// <summary>Max in-flight requests; several values sweep it.</summary>
    /// <param name="values">Values.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder MaxInFlight(params int[] values) { _maxInFlight = values; return this; }

    /// <summary>Socket send buffer in bytes; several values sweep it.</summary>
    /// <param name="values">Values.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder SendBufferBytes(params int[] values) { _sendBuffer = values; return this; }

    /// <summary>Socket receive buffer in bytes; several values sweep it.</summary>
    /// <param name="values">Values.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder ReceiveBufferBytes(params int[] values) { _receiveBuffer = values; return this; }

    /// <summary>fetch.min.bytes; several values sweep it.</summary>
    /// <param name="values">Values.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder FetchMinBytes(params int[] values) { _fetchMinBytes = values; return this; }

    /// <summary>Partitions per topic; several values sweep them (each run's topic gets the variant's count).</summary>
    /// <param name="values">Values, at least 1 each.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Partitions(params int[] values) { _partitions = values; return this; }

    /// <summary>Producer instances per client, each on its own thread, sharing the run's records and rate; several
    /// values sweep them.</summary>
    /// <param name="values">Values, at least 1 each.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Producers(params int[] values) { _producers = values; return this; }

    /// <summary>Consumers per client in one group (the topic gets at least as many partitions); several values sweep them.</summary>
    /// <param name="values">Values, at least 1 each.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Consumers(params int[] values) { _consumers = values; return this; }

    /// <summary>Sends at these rates (records per second per client, over all its producers) instead of bursts; each rate
    /// is a cell. Give how long with <see cref="Duration"/>, or how many records with <see cref="MessageCounts"/>.</summary>
    /// <param name="recordsPerSecond">Positive rates.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Rates(params double[] recordsPerSecond) { _rates.AddRange(recordsPerSecond); return this; }

    /// <summary>How long the measured part of each rate run lasts.</summary>
    /// <param name="duration">Positive.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Duration(TimeSpan duration) { _options = _options with { Duration = duration }; return this; }

    /// <summary>A warm-up at the same rate before each rate run's measured part, excluded from every figure.</summary>
    /// <param name="warmup">Zero or more.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder LoadWarmup(TimeSpan warmup) { _options = _options with { LoadWarmup = warmup }; _loadWarmupSet = true; return this; }

    /// <summary>The length of one interval of a load run's time series (1 s by default).</summary>
    /// <param name="interval">At least 10 ms.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Interval(TimeSpan interval) { _options = _options with { Interval = interval }; _intervalSet = true; return this; }

    /// <summary>The most records per second a plan accepts per client.</summary>
    public const double MaxRate = 100_000_000;

    /// <summary>The most producers or consumers per client.</summary>
    public const int MaxProducers = 64;

    /// <summary>The shortest interval of a time series.</summary>
    public static readonly TimeSpan MinInterval = TimeSpan.FromMilliseconds(10);

    /// <summary>Compression codecs; several values sweep them.</summary>
    /// <param name="values">Values.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Compression(params CompressionCodec[] values) { _compression = values; return this; }

    /// <summary>Adds a <c>key=value</c> setting for one client only, passed through unchanged.</summary>
    /// <param name="client">The client name.</param>
    /// <param name="key">The client's own setting key.</param>
    /// <param name="value">Its value.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Override(string client, string key, string value)
    {
        if (!_overrides.TryGetValue(client, out var map))
            _overrides[client] = map = new Dictionary<string, string>(StringComparer.Ordinal);
        map[key] = value;
        return this;
    }

    /// <summary>The largest payload a plan accepts, in bytes (100 MB): one payload per size is held in memory.</summary>
    public const int MaxPayloadBytes = 100_000_000;

    /// <summary>The most repetitions per cell a plan accepts.</summary>
    public const int MaxRepeat = 10_000;

    /// <summary>Measured repetitions per client and cell.</summary>
    /// <param name="repeat">From 1 to <see cref="MaxRepeat"/>.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Repeat(int repeat) { _options = _options with { Repeat = repeat }; return this; }

    /// <summary>Warms the cluster up before the first run (see <see cref="BenchmarkPlan.ClusterWarmup"/>).</summary>
    /// <param name="warmup">Zero (the default) or more.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder ClusterWarmup(TimeSpan warmup) { _options = _options with { ClusterWarmup = warmup }; return this; }

    /// <summary>Whether to run one excluded warm-up per client and cell.</summary>
    /// <param name="warmup">On by default.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Warmup(bool warmup) { _options = _options with { Warmup = warmup }; return this; }

    /// <summary>How clients take turns, and the seed of payloads and shuffles.</summary>
    /// <param name="order">Balanced (default) or shuffled.</param>
    /// <param name="seed">Recorded in the result.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Order(RunOrderKind order, int seed = 42) { _options = _options with { Order = order, Seed = seed }; return this; }

    /// <summary>What payload bytes look like.</summary>
    /// <param name="kind">Random by default.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Payload(PayloadKind kind) { _options = _options with { Payload = kind, PayloadFile = null }; return this; }

    /// <summary>Payloads made of a file's bytes, repeated or cut to each payload size.</summary>
    /// <param name="path">The file; it must exist and hold at least one byte.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder PayloadFile(string path) { _options = _options with { Payload = PayloadKind.File, PayloadFile = path }; return this; }

    /// <summary>Topic prefix, partitions, and whether to keep topics after their run.</summary>
    /// <param name="prefix">Topic prefix.</param>
    /// <param name="partitions">Partitions per topic.</param>
    /// <param name="keep">Keep topics.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Topics(string prefix = BenchmarkPlan.DefaultTopicPrefix, int partitions = 1, bool keep = false)
    {
        _options = _options with { TopicPrefix = prefix, Partitions = partitions, KeepTopics = keep };
        return this;
    }

    /// <summary>Replication of each run's topic.</summary>
    /// <param name="replicationFactor">Replicas per partition; <see langword="null"/>: min(3, the cluster's brokers).</param>
    /// <param name="minInSyncReplicas">The topic's <c>min.insync.replicas</c>; <see langword="null"/>: the broker's default.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Replication(int? replicationFactor, int? minInSyncReplicas = null)
    {
        _options = _options with { ReplicationFactor = replicationFactor, MinInSyncReplicas = minInSyncReplicas };
        return this;
    }

    /// <summary>Consumer options.</summary>
    /// <param name="usePrefetch">Prefetch on a thread of the client's own, where the client has it.</param>
    /// <param name="checkPayload">Compare every consumed payload with the one sent.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Consume(bool usePrefetch = false, bool checkPayload = false)
    {
        _options = _options with { UsePrefetch = usePrefetch, CheckPayload = checkPayload };
        return this;
    }

    /// <summary>How long a consume may go without progress before it fails.</summary>
    /// <param name="timeout">Positive.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder StallTimeout(TimeSpan timeout) { _options = _options with { StallTimeout = timeout }; return this; }

    /// <summary>Tolerance band of the on-par verdict.</summary>
    /// <param name="tolerance">A fraction in [0, 1): 0.05 is ±5 %.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Tolerance(double tolerance) { _options = _options with { Tolerance = tolerance }; return this; }

    /// <summary>Whether rate runs record where each interval's time went (the clients' own statistics, collections); on
    /// by default.</summary>
    /// <param name="on">On or off.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Breakdown(bool on) { _options = _options with { Breakdown = on }; return this; }

    /// <summary>Checks the plan without building it.</summary>
    /// <returns>Every finding; empty when the plan is fine.</returns>
    public IReadOnlyList<ValidationError> Validate()
    {
        var errors = new List<ValidationError>();
        void Error(string message) => errors.Add(new ValidationError(ValidationSeverity.Error, message));

        if (_clients.Count == 0) Error("No client given: name at least one (e.g. --clients confluent,java).");
        foreach (var duplicate in _clients.GroupBy(c => c, StringComparer.OrdinalIgnoreCase).Where(g => g.Count() > 1))
            Error($"Client '{duplicate.Key}' is listed twice: list each client once.");
        foreach (var duplicate in _references.GroupBy(c => c, StringComparer.OrdinalIgnoreCase).Where(g => g.Count() > 1))
            Error($"Reference '{duplicate.Key}' is listed twice: list each reference once.");
        foreach (var both in _references.Where(r => _clients.Contains(r, StringComparer.OrdinalIgnoreCase)).Distinct(StringComparer.OrdinalIgnoreCase))
            Error($"'{both}' is listed as a client and as a reference: name it once.");
        if (_references.Count > 0 && _scenarios.Count > 0 && !_scenarios.Any(BenchmarkPlan.ReferencesRun))
            errors.Add(new ValidationError(ValidationSeverity.Warning, "References run produce and consume cells only, and this plan has neither: they do not run."));
        if (_scenarios.Count == 0) Error("No scenario given: choose produce, consume and/or roundtrip.");
        if (_messageCounts.Count == 0 && _rates.Count == 0) Error("No message count given: give at least one (e.g. --messages 10000).");
        foreach (var count in _messageCounts.Where(c => c <= 0 || c > int.MaxValue))
            Error($"Message count {count} is out of range: use a whole number from 1 to {int.MaxValue}.");
        if (_payloadSizes.Count == 0) Error("No payload size given: give at least one (e.g. --sizes 1000).");
        foreach (var size in _payloadSizes.Where(s => s <= 0))
            Error($"Payload size {size} is not positive: use a size in bytes of at least 1.");
        foreach (var size in _payloadSizes.Where(s => s > MaxPayloadBytes))
            Error($"Payload size {size} is too large: use at most {MaxPayloadBytes} bytes (brokers refuse records over 1 MB unless configured for more).");
        if (_options.Repeat < 1) Error($"Repeat {_options.Repeat} is below 1: run each cell at least once.");
        if (_options.Repeat > MaxRepeat) Error($"Repeat {_options.Repeat} is too large: use at most {MaxRepeat} repetitions per cell.");
        if (_options.Partitions < 1) Error($"Partitions {_options.Partitions} is below 1: use at least one partition.");
        if (_options.ReplicationFactor is < 1 or > short.MaxValue)
            Error($"Replication factor {_options.ReplicationFactor} is out of range: use at least 1 (and no more than the cluster's brokers).");
        if (_options.MinInSyncReplicas is < 1)
            Error($"min.insync.replicas {_options.MinInSyncReplicas} is below 1: use at least 1.");
        if (_options is { ReplicationFactor: { } rf, MinInSyncReplicas: { } minIsr } && minIsr > rf)
            Error($"min.insync.replicas {minIsr} is more than the replication factor {rf}: no write with acks=all could succeed; use at most {rf}.");
        if (!TopicNaming.IsValid(_options.TopicPrefix))
            Error($"Topic prefix '{_options.TopicPrefix}' is not valid: use letters, digits, '.', '_' and '-' only.");
        if (_options.StallTimeout <= TimeSpan.Zero) Error("The stall timeout must be positive: give e.g. --stall-timeout 30s.");
        if (_options.Tolerance is < 0 or >= 1 || double.IsNaN(_options.Tolerance))
            Error($"Tolerance {_options.Tolerance} is out of range: use a fraction from 0 up to 1 (0.05 = ±5 %).");
        CheckNonNegative(_lingerMs, "linger.ms", errors);
        CheckPositive(_batchSize, "batch.size", errors);
        CheckPositive(_maxInFlight, "max.in.flight", errors);
        CheckPositive(_sendBuffer, "send buffer", errors);
        CheckPositive(_receiveBuffer, "receive buffer", errors);
        CheckNonNegative(_fetchMinBytes, "fetch.min.bytes", errors);
        CheckPositive(_partitions, "partitions", errors);
        CheckRange(_producers, "producers", errors);
        CheckRange(_consumers, "consumers", errors);
        ValidateWorkload(errors);
        ValidateGroupSettings(message => errors.Add(new ValidationError(ValidationSeverity.Error, message)));
        ValidateLoad(errors);
        // Checked on the plan as it would be built, once everything it is built from is valid.
        if (errors.All(e => e.Severity != ValidationSeverity.Error))
        {
            var composed = Compose();
            foreach (var fault in FaultChecks.PlanErrors(composed)) Error(fault);
            foreach (var problem in GroupEventChecks.PlanErrors(composed)) Error(problem);
        }
        if (_options.Payload == PayloadKind.File)
        {
            var file = _options.PayloadFile;
            if (string.IsNullOrWhiteSpace(file)) Error("A file payload needs a file: write --payload file:PATH.");
            else if (!File.Exists(file)) Error($"The payload file '{file}' does not exist: give an existing file, e.g. --payload file:./sample.json.");
            else if (new FileInfo(file).Length == 0) Error($"The payload file '{file}' is empty: give a file with at least one byte.");
        }
        foreach (var client in _overrides.Keys.Where(k => !_clients.Contains(k, StringComparer.OrdinalIgnoreCase) && !_references.Contains(k, StringComparer.OrdinalIgnoreCase)))
            Error($"A setting is given for client '{client}', which is not in the plan: name it in --clients or --references, or fix the name in -X {client}:key=value.");
        foreach (var (client, settings) in _overrides)
        {
            foreach (var key in settings.Keys)
            {
                if (KnobOf(key) is { } knob && IsSet(knob))
                    errors.Add(new ValidationError(ValidationSeverity.Warning,
                        $"-X {client}:{key} replaces the common setting {knob} for '{client}': its runs are labelled with {knob} values it did not run with."));
            }
        }
        return errors;
    }

    /// <summary>Validates and freezes the plan.</summary>
    /// <returns>The plan.</returns>
    /// <exception cref="PlanValidationException">The plan has at least one error; the message lists them.</exception>
    public BenchmarkPlan Build()
    {
        var findings = Validate();
        if (findings.Any(f => f.Severity == ValidationSeverity.Error))
            throw new PlanValidationException(findings);

        return Compose() with
        {
            Warnings = [.. _warnings, .. findings.Where(f => f.Severity == ValidationSeverity.Warning).Select(f => f.Message)],
        };
    }

    private BenchmarkPlan Compose() =>
        _options with
        {
            Clients = [.. _clients, .. _references],
            References = [.. _references],
            Scenarios = [.. _scenarios.Distinct()],
            MessageCounts = _rates.Count > 0 && _options.Duration is { } duration
                ? [.. _rates.Distinct().Select(rate => BenchmarkPlan.MeasuredRecords(rate, duration)).Distinct()]
                : [.. _messageCounts.Distinct()],
            Rates = [.. _rates.Distinct()],
            PayloadSizes = [.. _payloadSizes.Distinct()],
            SettingsVariants = Variants(),
            ClientOverrides = _overrides.ToDictionary(
                pair => pair.Key, pair => (IReadOnlyDictionary<string, string>)new Dictionary<string, string>(pair.Value), StringComparer.OrdinalIgnoreCase),
        };

    private static void CheckPositive(int[] values, string name, List<ValidationError> errors)
    {
        foreach (var value in values.Where(v => v <= 0))
            errors.Add(new ValidationError(ValidationSeverity.Error, $"{name} {value} is not positive: use a value of at least 1."));
    }

    private static void CheckRange(int[] values, string name, List<ValidationError> errors)
    {
        foreach (var value in values.Where(v => v < 1 || v > MaxProducers))
            errors.Add(new ValidationError(ValidationSeverity.Error, $"{name} {value} is out of range: use 1 to {MaxProducers} per client."));
    }

    /// <summary>The load options: rates, duration, warm-up, interval, and what does not go with them.</summary>
    private void ValidateLoad(List<ValidationError> errors)
    {
        void Error(string message) => errors.Add(new ValidationError(ValidationSeverity.Error, message));
        foreach (var rate in _rates.Where(r => !(r > 0) || double.IsInfinity(r)))
            Error($"Rate {rate} is not a positive number of records per second: give e.g. --rate 10000.");
        foreach (var rate in _rates.Where(r => r > MaxRate))
            Error($"Rate {rate} is above {MaxRate:0} records per second: give a lower rate.");
        if (_options.Duration is { } duration && duration <= TimeSpan.Zero)
            Error("The duration must be positive: give e.g. --duration 60s.");
        if (_options.ClusterWarmup < TimeSpan.Zero) Error("The cluster warm-up must not be negative: give e.g. --cluster-warmup 30s, or 0s for none.");
        if (_options.LoadWarmup < TimeSpan.Zero) Error("The warm-up must not be negative: give e.g. --warmup 5s, or 0s for none.");
        if (_options.Interval < MinInterval) Error($"The interval must be at least {MinInterval.TotalMilliseconds:0} ms: give e.g. --interval 1s.");
        bool loadRuns = _rates.Count > 0 || _producers.Any(p => p > 1) || _consumers.Any(c => c > 1);
        if (_rates.Count == 0)
        {
            if (_options.Duration is not null) Error("A duration applies to runs at a rate: add --rate, or give --messages for a burst.");
            if (_loadWarmupSet && _options.LoadWarmup > TimeSpan.Zero) Error("--warmup applies to runs at a rate (a burst runs an excluded warm-up run instead): add --rate, or leave it out.");
            if (_intervalSet && !loadRuns) Error("--interval applies to load runs (--rate, or several --producers or --consumers): add one, or leave it out.");
            return;
        }
        if (_options.Duration is not null && _messageCountsGiven)
            Error("Give either --duration or --messages with --rate, not both: a rate run lasts one or sends the other.");
        if (_options.Duration is null && _messageCounts.Count == 0)
            Error("A rate needs a duration or a message count: add e.g. --duration 60s.");
        if (_scenarios.Contains(ScenarioKind.Consume))
            Error("A consume reads a filled topic as fast as it can, so a rate means nothing to it: use --scenarios produce and/or roundtrip with --rate (roundtrip measures consumers at the rate).");
        if (_references.Count > 0)
            Error("References (kcat, kafka-tools) send bursts only: leave --references out with --rate.");
        foreach (var rate in _rates.Where(r => r > 0 && !double.IsInfinity(r)))
        {
            long records = _options.Duration is { } d ? BenchmarkPlan.MeasuredRecords(rate, d) : _messageCounts.DefaultIfEmpty(0).Max();
            long warmup = (long)Math.Round(rate * Math.Max(0, _options.LoadWarmup.TotalSeconds));
            if (records + warmup > int.MaxValue)
                Error($"At {rate} records per second the run would send {records + warmup} records, more than {int.MaxValue}: shorten the duration.");
        }
    }

    private static void CheckNonNegative(int[] values, string name, List<ValidationError> errors)
    {
        foreach (var value in values.Where(v => v < 0))
            errors.Add(new ValidationError(ValidationSeverity.Error, $"{name} {value} is negative: use 0 or more."));
    }
}
