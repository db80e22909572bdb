using System.Globalization;
using KafkaPerf.Clients;

namespace KafkaPerf.Plans;

/// <summary>The workload knobs: keys, key size, headers and idempotence, each swept like the client knobs.</summary>
public sealed partial class BenchmarkPlanBuilder
{
    /// <summary>The largest record a broker takes by default (<c>message.max.bytes</c>, 1 MB and its overhead).</summary>
    private const int BrokerRecordLimit = 1_048_588;

    private KeySpec[] _keys = [];
    private int[] _keySize = [];
    private HeaderSpec[] _headers = [];
    private bool[] _idempotence = [];
    private int[] _transactions = [];
    private double[] _abortRatio = [];
    private long[] _backlog = [];
    private ConsumerGroupKind[] _group = [];
    private NetworkSpec[] _network = [];

    /// <summary>How records are keyed (<see cref="KeySpec"/>); several values sweep them. Unique keys when unset.</summary>
    /// <param name="values">Distributions.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Keys(params KeySpec[] values) { _keys = values; return this; }

    /// <summary>Key sizes in bytes; several values sweep them.</summary>
    /// <param name="values">Sizes.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder KeySizeBytes(params int[] values) { _keySize = values; return this; }

    /// <summary>Headers on every record; several values sweep them.</summary>
    /// <param name="values">Header counts and sizes.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Headers(params HeaderSpec[] values) { _headers = values; return this; }

    /// <summary>Producer idempotence; <c>true, false</c> sweeps it on every client.</summary>
    /// <param name="values">Values.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Idempotence(params bool[] values) { _idempotence = values; return this; }

    /// <summary>Records per transaction; several values sweep them. No transactions when unset.</summary>
    /// <param name="values">Records per transaction.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Transactions(params int[] values) { _transactions = values; return this; }

    /// <summary>The share of transactions aborted (from 0 up to 1); several values sweep it.</summary>
    /// <param name="values">Shares.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder AbortRatio(params double[] values) { _abortRatio = values; return this; }

    /// <summary>Consumer backlogs in bytes (a roundtrip at a rate: the consumers start once this much is unread); several
    /// values sweep them.</summary>
    /// <param name="bytes">Backlog sizes.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Backlog(params long[] bytes) { _backlog = bytes; return this; }

    /// <summary>The group the consumers join (classic, or a share group with implicit or explicit acknowledgement);
    /// several values sweep it.</summary>
    /// <param name="values">Kinds.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Group(params ConsumerGroupKind[] values) { _group = values; return this; }

    /// <summary>How the links to and between the embedded nodes are shaped (<see cref="NetworkSpec"/>); several values
    /// sweep it. Direct loopback when unset. Only a broker source that puts its proxies in front of the nodes can run it
    /// (the session refuses the plan otherwise).</summary>
    /// <param name="values">Network specs.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Network(params NetworkSpec[] values) { _network = values; return this; }

    private void CopyWorkload(ClientSettings settings)
    {
        _network = settings.Network is { } n ? [n] : [];
        _group = settings.Group is { } g ? [g] : [];
        _backlog = settings.BacklogBytes is { } b ? [b] : [];
        _transactions = settings.TransactionRecords is { } t ? [t] : [];
        _abortRatio = settings.AbortRatio is { } r ? [r] : [];
        _keys = settings.Keys is { } k ? [k] : [];
        _keySize = settings.KeySizeBytes is { } ks ? [ks] : [];
        _headers = settings.Headers is { } h ? [h] : [];
        _idempotence = settings.Idempotence is { } i ? [i] : [];
    }

    private IEnumerable<ClientSettings> SweepWorkload(IEnumerable<ClientSettings> variants)
    {
        variants = Sweep(variants, _idempotence, (s, v) => s with { Idempotence = v });
        variants = Sweep(variants, _keys, (s, v) => s with { Keys = v });
        variants = Sweep(variants, _keySize, (s, v) => s with { KeySizeBytes = v });
        variants = Sweep(variants, _headers, (s, v) => s with { Headers = v });
        variants = Sweep(variants, _transactions, (s, v) => s with { TransactionRecords = v });
        variants = Sweep(variants, _abortRatio, (s, v) => s with { AbortRatio = v });
        variants = Sweep(variants, _backlog, (s, v) => s with { BacklogBytes = v });
        return Sweep(variants, _group, (s, v) => s with { Group = v });
    }

    private void ValidateWorkload(List<ValidationError> errors)
    {
        void Error(string message) => errors.Add(new ValidationError(ValidationSeverity.Error, message));

        CheckPositive(_keySize, "Key size", errors);
        if (_keySize.Any(s => s <= 0)) return;
        var keys = _keys.Length == 0 ? [KeySpec.Unique] : _keys;
        foreach (var spec in keys)
            foreach (var size in _keySize.Length == 0 ? [RecordKeys.DefaultKeySize] : _keySize)
                if (RecordKeys.Check(spec, size) is { } problem) Error(problem);
        if (keys.FirstOrDefault(k => !k.KeyIsId) is { } repeated)
            foreach (var size in _payloadSizes.Where(s => s is > 0 and < RecordKeys.IdBytes).Distinct())
                Error($"Payload size {size} is too small for --keys {repeated}: when keys repeat or are absent, a record's id travels in the first {RecordKeys.IdBytes} bytes of its value; use --sizes {RecordKeys.IdBytes} or more.");
        int largestKey = _keySize.Length == 0 ? RecordKeys.DefaultKeySize : _keySize.Max();
        long largestPayload = _payloadSizes.Count == 0 ? 0 : _payloadSizes.Max();
        foreach (var headers in _headers.Distinct())
        {
            long record = (long)headers.WireBytes + largestKey + largestPayload;
            if (headers.WireBytes > BrokerRecordLimit || record > MaxPayloadBytes)
                Error(string.Create(CultureInfo.InvariantCulture,
                    $"--headers {headers} adds about {headers.WireBytes:N0} bytes to every record ({record:N0} with the largest payload and key), more than a broker takes ({BrokerRecordLimit:N0} bytes by default): give fewer or smaller headers."));
        }
        ValidateTransactions(Error);
        ValidateBacklog(Error);
        ValidateGroup(Error);
        if (_idempotence.Contains(true) && _acks.FirstOrDefault(a => a != AcksMode.All) is var acks && _acks.Any(a => a != AcksMode.All))
            Error($"Idempotence needs acks=all, and --acks gives {acks.ToKafkaValue()}: sweep --idempotence with --acks all only.");
    }

    private void ValidateTransactions(Action<string> error)
    {
        foreach (var records in _transactions.Where(t => t < 1))
            error($"--transactions {records} is below 1: give the records per transaction, e.g. --transactions 1000.");
        foreach (var ratio in _abortRatio.Where(r => r is < 0 or >= 1 || double.IsNaN(r)))
            error(string.Create(CultureInfo.InvariantCulture, $"--abort-ratio {ratio} is out of range: give the share of transactions to abort, from 0 up to 1 (0.1 aborts one in ten)."));
        if (_abortRatio.Length > 0 && _transactions.Length == 0)
            error("--abort-ratio needs transactions to abort: give --transactions N too.");
        if (_transactions.Length == 0) return;
        if (_acks.Any(a => a != AcksMode.All))
            error("--transactions needs acks=all (a transactional producer is idempotent): sweep --acks all only, or leave it unset.");
        if (_idempotence.Contains(false))
            error("--transactions needs idempotence: leave --idempotence unset or on.");
        if (_producers.Any(p => p > 1))
            error("--transactions runs one producer per client (each producer's records make its own transactions): leave --producers at 1.");
        if (_scenarios.Contains(KafkaPerf.Scenarios.ScenarioKind.Roundtrip))
            error("--transactions runs produce and consume; roundtrip with transactions is not built yet: leave roundtrip out of --scenarios.");
        if (_options.Faults.Count > 0)
            error("--transactions does not go with --fault yet: the read-back after a fault would count aborted records as lost.");
    }

    private void ValidateGroup(Action<string> error)
    {
        if (!_group.Any(g => ((ConsumerGroupKind?)g).IsShare())) return;
        if (_scenarios.Count > 0 && !_scenarios.Contains(KafkaPerf.Scenarios.ScenarioKind.Consume) && !_scenarios.Contains(KafkaPerf.Scenarios.ScenarioKind.Roundtrip))
            error("--group share is a consumer's: give --scenarios consume or roundtrip (or both).");
        if (_transactions.Length > 0)
            error("--group share does not go with --transactions yet (a share group reads committed records only when its share.isolation.level says so): leave one out.");
        if (_options.Faults.Count > 0) error("--group share does not go with --fault yet.");
    }

    private void ValidateBacklog(Action<string> error)
    {
        if (_backlog.Length == 0) return;
        foreach (var size in _backlog.Where(b => b < 1))
            error($"--backlog {size} is not positive: give the bytes the consumers start behind, e.g. --backlog 1GB.");
        if (_rates.Count == 0 || _options.Duration is null)
        {
            error("--backlog needs a rate: the producers send at --rate for --duration while the consumers wait for the backlog, e.g. --rate 50k --duration 60s.");
            return;
        }
        if (_scenarios.Any(s => s != KafkaPerf.Scenarios.ScenarioKind.Roundtrip))
            error("--backlog is a roundtrip's: the consumers wait, then catch up; give --scenarios roundtrip.");
        if (_options.Faults.Count > 0) error("--backlog does not go with --fault yet.");
        long smallestRun = (long)(_rates.Min() * (_options.LoadWarmup + _options.Duration.Value).TotalSeconds) * (_payloadSizes.Count == 0 ? 1 : _payloadSizes.Min());
        foreach (var size in _backlog.Where(b => b >= smallestRun).Distinct())
            error(string.Create(CultureInfo.InvariantCulture,
                $"--backlog {ByteSize.Format(size)} is not less than the {ByteSize.Format(smallestRun)} the smallest cell sends (rate × (warm-up + duration) × size): the consumers would never start; lengthen --duration or give a smaller backlog."));
    }
}
