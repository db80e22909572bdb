using System.Globalization;
using System.Text;

namespace KafkaPerf.Clients;

/// <summary>
/// The knobs that the seed benchmarks set alike on every client, plus free-form overrides for one client.
/// A <see langword="null"/> knob leaves the client's own default in place (and the effective value is recorded).
/// </summary>
/// <remarks>Immutable: a plan holds one instance per settings variant and hands it to every client.</remarks>
public sealed record ClientSettings
{
    /// <summary>Producer acknowledgements.</summary>
    public AcksMode? Acks { get; init; }

    /// <summary>Producer linger, in milliseconds.</summary>
    public int? LingerMs { get; init; }

    /// <summary>Producer batch size, in bytes.</summary>
    public int? BatchSizeBytes { get; init; }

    /// <summary>Maximum in-flight requests per connection.</summary>
    public int? MaxInFlight { get; init; }

    /// <summary>Socket send buffer, in bytes.</summary>
    public int? SendBufferBytes { get; init; }

    /// <summary>Socket receive buffer, in bytes.</summary>
    public int? ReceiveBufferBytes { get; init; }

    /// <summary>Consumer <c>fetch.min.bytes</c>.</summary>
    public int? FetchMinBytes { get; init; }

    /// <summary>Producer compression codec.</summary>
    public CompressionCodec? Compression { get; init; }

    /// <summary>Partitions of each run's topic (a property of the run, swept like the client knobs); the plan's when unset.</summary>
    public int? Partitions { get; init; }

    /// <summary>Producer instances per client in a run, each on its own thread, sharing its records and rate (a property
    /// of the run, swept like the client knobs); one when unset.</summary>
    public int? Producers { get; init; }

    /// <summary>Consumers per client in a run, in one group (a property of the run); one when unset.</summary>
    public int? Consumers { get; init; }

    /// <summary>Producer idempotence (<c>enable.idempotence</c>); unset, each client's default as KafkaPerf runs it (off
    /// for every built-in client: librdkafka's default, and pinned on the Java client, whose own default is on).</summary>
    public bool? Idempotence { get; init; }

    /// <summary>How records are keyed (a property of the run, swept like the client knobs); unique keys (the record's id)
    /// when unset.</summary>
    [System.Text.Json.Serialization.JsonConverter(typeof(KeySpecJson))]
    public KeySpec? Keys { get; init; }

    /// <summary>Bytes per key (<c>--key-size</c>); <see cref="RecordKeys.DefaultKeySize"/> when unset.</summary>
    public int? KeySizeBytes { get; init; }

    /// <summary>Headers on every record (a property of the run); none when unset.</summary>
    [System.Text.Json.Serialization.JsonConverter(typeof(HeaderSpecJson))]
    public HeaderSpec? Headers { get; init; }

    /// <summary>Records per transaction (<c>--transactions</c>): the producer is transactional and commits every so many
    /// records, consumers read committed records only; no transactions when unset.</summary>
    public int? TransactionRecords { get; init; }

    /// <summary>The share of transactions aborted instead of committed (<c>--abort-ratio</c>, from 0 up to 1), chosen by
    /// each transaction's number (<see cref="TransactionPlan"/>); none when unset.</summary>
    public double? AbortRatio { get; init; }

    /// <summary>A consumer backlog (<c>--backlog</c>), in bytes: in a roundtrip at a rate the consumers start only once the
    /// producers have this much acknowledged and unread, then catch up while the producers go on; none when unset.</summary>
    public long? BacklogBytes { get; init; }

    /// <summary>The group the consumers join (<c>--group</c>): a classic consumer group when unset; a share group
    /// (KIP-932) needs a client with <see cref="ClientCapabilities.ShareGroups"/>.</summary>
    public ConsumerGroupKind? Group { get; init; }

    /// <summary>The rebalance protocol of a classic-kind group (<c>--group-protocol</c>); each client's default (classic)
    /// when unset.</summary>
    public GroupProtocol? GroupProtocol { get; init; }

    /// <summary>A classic group's assignor (<c>--assignor</c>); each client's default when unset (librdkafka
    /// <c>range,roundrobin</c>, the Java client <c>range</c> then <c>cooperative-sticky</c>). Never set beside the consumer
    /// protocol, which assigns on the broker.</summary>
    public GroupAssignor? Assignor { get; init; }

    /// <summary>Static membership (<c>--static-membership on</c>): each member has a <c>group.instance.id</c> of its own,
    /// kept across its restarts; dynamic members when unset.</summary>
    public bool? StaticMembership { get; init; }

    /// <summary>How the links to and between the embedded nodes are shaped (<c>--network</c>; a property of the run, swept
    /// like the client knobs, which no client sees); direct loopback when unset.</summary>
    [System.Text.Json.Serialization.JsonConverter(typeof(NetworkSpecJson))]
    public NetworkSpec? Network { get; init; }

    /// <summary>Whether a record's id travels in the first 8 bytes of its value (<see cref="RecordKeys.IdBytes"/>)
    /// because its key does not say it: keys other than unique.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public bool IdInValue => Keys is { KeyIsId: false };

    /// <summary>Whether the run asks more of a producer than unique keys without headers: only clients with
    /// <see cref="ClientCapabilities.Workloads"/> can run it.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public bool HasWorkload => IdInValue || KeySizeBytes is { } size && size != RecordKeys.DefaultKeySize || Headers is { Count: > 0 };

    /// <summary>Client-specific <c>key=value</c> settings passed through unchanged, after the common knobs; written with
    /// every secret's value hidden (<see cref="MaskedSettingsJson"/>).</summary>
    [System.Text.Json.Serialization.JsonConverter(typeof(MaskedSettingsJson))]
    public IReadOnlyDictionary<string, string> Overrides { get; init; } = EmptyOverrides;

    private static readonly IReadOnlyDictionary<string, string> EmptyOverrides = new Dictionary<string, string>();

    /// <summary>No knob set: every client keeps its own defaults.</summary>
    public static ClientSettings ClientDefaults { get; } = new();

    /// <summary>The configuration of the seed KNet benchmark: acks none, linger 100 ms, batch 1 000 000,
    /// max in flight 1 000 000, 32 MB socket buffers, fetch.min.bytes 100 000.</summary>
    public static ClientSettings SeedProfile { get; } = new()
    {
        Acks = AcksMode.None,
        LingerMs = 100,
        BatchSizeBytes = 1_000_000,
        MaxInFlight = 1_000_000,
        SendBufferBytes = 32 * 1024 * 1024,
        ReceiveBufferBytes = 32 * 1024 * 1024,
        FetchMinBytes = 100_000,
    };

    /// <summary>The common knobs that are set, as <c>name=value</c> pairs in a fixed order.</summary>
    public IEnumerable<KeyValuePair<string, string>> SetKnobs()
    {
        if (Acks is { } acks) yield return new("acks", acks.ToKafkaValue());
        if (LingerMs is { } linger) yield return new("linger.ms", Invariant(linger));
        if (BatchSizeBytes is { } batch) yield return new("batch.size", Invariant(batch));
        if (MaxInFlight is { } inFlight) yield return new("max.in.flight", Invariant(inFlight));
        if (SendBufferBytes is { } send) yield return new("send.buffer.bytes", Invariant(send));
        if (ReceiveBufferBytes is { } receive) yield return new("receive.buffer.bytes", Invariant(receive));
        if (FetchMinBytes is { } fetch) yield return new("fetch.min.bytes", Invariant(fetch));
        if (Compression is { } codec) yield return new("compression", codec.ToKafkaValue());
        if (Idempotence is { } idempotence) yield return new("idempotence", idempotence ? "on" : "off");
        if (Keys is { } keys) yield return new("keys", keys.ToString());
        if (KeySizeBytes is { } keySize) yield return new("key.size", Invariant(keySize));
        if (Headers is { } headers) yield return new("headers", headers.ToString());
        if (TransactionRecords is { } transactions) yield return new("transactions", Invariant(transactions));
        if (AbortRatio is { } ratio) yield return new("abort.ratio", ratio.ToString("0.###", CultureInfo.InvariantCulture));
        if (BacklogBytes is { } backlog) yield return new("backlog", ByteSize.Format(backlog));
        if (Partitions is { } partitions) yield return new("partitions", Invariant(partitions));
        if (Producers is { } producers) yield return new("producers", Invariant(producers));
        if (Consumers is { } consumers) yield return new("consumers", Invariant(consumers));
        if (Group is { } group) yield return new("group", group.ToText());
        if (GroupProtocol is { } protocol) yield return new("group.protocol", protocol.ToText());
        if (Assignor is { } assignor) yield return new("assignor", assignor.ToText());
        if (StaticMembership is { } staticMembers) yield return new("static", staticMembers ? "on" : "off");
        if (Network is { } network) yield return new("network", network.ToString());
    }

    /// <summary>A short label such as <c>acks=all linger.ms=5</c>; <c>defaults</c> when nothing is set.</summary>
    public string Describe()
    {
        var builder = new StringBuilder();
        foreach (var (key, value) in SetKnobs())
        {
            if (builder.Length > 0) builder.Append(' ');
            builder.Append(key).Append('=').Append(value);
        }
        return builder.Length == 0 ? "defaults" : builder.ToString();
    }

    /// <inheritdoc />
    public bool Equals(ClientSettings? other) =>
        other is not null && Describe() == other.Describe()
        && Overrides.Count == other.Overrides.Count
        && Overrides.All(pair => other.Overrides.TryGetValue(pair.Key, out var value) && value == pair.Value);

    /// <inheritdoc />
    public override int GetHashCode() => Describe().GetHashCode(StringComparison.Ordinal);

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
