using System.Globalization;
using System.Text;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Clients;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.References;

/// <summary>
/// <c>kafka-tools</c>, the JVM reference: Apache Kafka's own <c>ProducerPerformance</c> and <c>ConsumerPerformance</c>
/// from the same jars as the embedded broker and the <c>java</c> clients, each run in a JVM of its own.
/// </summary>
/// <param name="options">The Java heap and the Kafka jars (as the java clients'); defaults when omitted.</param>
public sealed class KafkaToolsReferenceFactory(JavaClientOptions? options = null) : IBenchClientFactory
{
    /// <summary>The reference's name.</summary>
    public const string ReferenceName = "kafka-tools";

    private readonly JavaClientOptions _options = options ?? new JavaClientOptions();

    /// <inheritdoc />
    public string Name => ReferenceName;

    /// <inheritdoc />
    public string Description => "reference: Kafka's ProducerPerformance and ConsumerPerformance, each run in a JVM of its own (produce and consume)";

    /// <inheritdoc />
    public bool IsReference => true;

    /// <inheritdoc />
    public bool RequiresBroker => true;

    /// <inheritdoc />
    public string? DescribeLibrary()
    {
        try
        {
            var jars = KafkaJars.Locate(_options.KafkaHome);
            return $"Apache Kafka tools {jars.KafkaVersion} ({jars.Origin}), java {JavaLocator.FindJavaExecutable(_options.JavaHome)}";
        }
        catch (PrerequisiteException)
        {
            return null;
        }
    }

    /// <inheritdoc />
    public string? CheckAvailability()
    {
        try
        {
            JavaLocator.FindJavaExecutable(_options.JavaHome);
            var jars = KafkaJars.Locate(_options.KafkaHome);
            return Directory.EnumerateFiles(jars.LibsDirectory, "kafka-tools-*.jar").Any()
                ? null
                : $"'{jars.LibsDirectory}' holds no kafka-tools jar (ProducerPerformance): use the jars eng/fetch-kafka.sh fetches or a full Kafka distribution.";
        }
        catch (PrerequisiteException ex)
        {
            return ex.Message;
        }
    }

    /// <inheritdoc />
    /// <remarks>Only <c>-X kafka-tools:key=value</c> settings are checked, by the Java client itself in this process's JVM
    /// (started for it when no java client started it already).</remarks>
    public string? CheckSettings(ClientSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return settings.Overrides.Count == 0 ? null : new JavaClientFactory(batched: false, _options).CheckSettings(settings);
    }

    /// <inheritdoc />
    public IReadOnlyList<string> SettingsWarnings(ClientSettings settings) =>
        [.. new JavaClientFactory(batched: false, _options).SettingsWarnings(settings).Select(w => $"{ReferenceName}: {w}")];

    /// <inheritdoc />
    public IBenchClient Create(KafkaEndpoint endpoint) =>
        new KafkaToolsClient(endpoint, JavaLocator.FindJavaExecutable(_options.JavaHome), KafkaJars.Locate(_options.KafkaHome), _options.HeapMegabytes);
}

/// <summary>One plan's kafka-tools reference.</summary>
internal sealed class KafkaToolsClient : ReferenceClient
{
    private readonly string _java;
    private readonly KafkaJars _jars;
    private readonly int _heapMegabytes;
    private readonly string _work;

    public KafkaToolsClient(KafkaEndpoint endpoint, string java, KafkaJars jars, int heapMegabytes) : base(endpoint)
    {
        _java = java;
        _jars = jars;
        _heapMegabytes = heapMegabytes;
        _work = Directory.CreateTempSubdirectory("kafkaperf-kafka-tools-").FullName;
        Details = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["Apache Kafka tools"] = $"{jars.KafkaVersion} ({jars.LibsDirectory})",
            ["java"] = java,
            ["heap"] = $"{heapMegabytes} MB",
            ["timing"] = "produce: ProducerPerformance's steady state after as many warm-up records; consume: ConsumerPerformance's fetch time (after the group join, ms resolution, cold JVM)",
            ["keys"] = "none (values only)",
            ["payload"] = "the plan's payload when it is UTF-8 text, else printable ASCII of the same size (ProducerPerformance reads its payload file as text)",
        };
    }

    public override string Name => KafkaToolsReferenceFactory.ReferenceName;

    public override string LibraryVersion => $"Apache Kafka tools {_jars.KafkaVersion}";

    public override IReadOnlyDictionary<string, string> Details { get; }

    protected override RunRecord Produce(ScenarioContext context, CancellationToken cancellationToken)
    {
        // As many warm-up records as measured ones: the JVM is new for every run, and the steady-state line leaves them out.
        var (output, error) = ProducerPerformance(context, context.MessageCount * 2, warmup: context.MessageCount, cancellationToken);
        if (error is not null) return Produced(context, double.NaN, context.MessageCount * 2, error);
        var line = output.Split('\n').FirstOrDefault(l => l.Contains("steady state records sent", StringComparison.Ordinal));
        if (line is null || !TryRate(line, out double recordsPerSecond))
            return Produced(context, double.NaN, context.MessageCount * 2, $"ProducerPerformance printed no steady-state line: {ToolProcess.Tail(output)}");
        return Produced(context, context.MessageCount / recordsPerSecond, context.MessageCount * 2, null);
    }

    protected override string? Fill(ScenarioContext context, CancellationToken cancellationToken) =>
        ProducerPerformance(context, context.MessageCount, warmup: 0, cancellationToken).Error;

    protected override RunRecord Consume(ScenarioContext context, CancellationToken cancellationToken)
    {
        var arguments = JavaArguments("org.apache.kafka.tools.ConsumerPerformance");
        arguments.AddRange(["--bootstrap-server", Bootstrap, "--topic", context.Topic, "--group", context.GroupId,
            "--num-records", context.MessageCount.ToString(CultureInfo.InvariantCulture),
            "--timeout", ((long)context.StallTimeout.TotalMilliseconds).ToString(CultureInfo.InvariantCulture)]);
        if (SecurityFile(JavaSettings.Security(Security), javaProperties: true) is { } securityFile) arguments.AddRange(["--consumer.config", securityFile]);
        foreach (var (key, value) in JavaSettings.Consumer(Bootstrap, context.GroupId, context.Settings).Where(p => p.Key is not ("bootstrap.servers" or "group.id")))
            arguments.AddRange(["--command-property", $"{key}={value}"]);
        var (output, error) = RunTool(arguments, context, cancellationToken);
        if (error is not null) return ConsumeFailed(context, 0, error);
        // start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, …
        var header = output.Split('\n').Select(l => l.Trim()).ToList();
        int at = header.FindIndex(l => l.StartsWith("start.time", StringComparison.Ordinal));
        var fields = at >= 0 && at + 1 < header.Count ? header[at + 1].Split(',').Select(f => f.Trim()).ToArray() : [];
        if (fields.Length < 8
            || !long.TryParse(fields[4], NumberStyles.Integer, CultureInfo.InvariantCulture, out long consumed)
            || !double.TryParse(fields[7], NumberStyles.Float, CultureInfo.InvariantCulture, out double fetchMs))
            return ConsumeFailed(context, 0, $"ConsumerPerformance printed no result line: {ToolProcess.Tail(output)}");
        if (consumed != context.MessageCount || output.Contains("Exiting before consuming", StringComparison.Ordinal))
            return ConsumeFailed(context, consumed, $"ConsumerPerformance consumed {consumed} of {context.MessageCount} records within its {context.StallTimeout.TotalSeconds:0} s timeout");
        return new RunRecord
        {
            ElapsedSeconds = fetchMs > 0 ? fetchMs / 1000 : double.NaN,
            Sent = context.MessageCount, Delivered = context.MessageCount, Received = consumed,
            Error = fetchMs > 0 ? null : "ConsumerPerformance reported a fetch time of 0 ms: too short to time at its millisecond resolution; use more messages",
        };
    }

    private (string Output, string? Error) ProducerPerformance(ScenarioContext context, long records, long warmup, CancellationToken cancellationToken)
    {
        var (file, delimiter) = PayloadFile(context.Payload.Span);
        var arguments = JavaArguments("org.apache.kafka.tools.ProducerPerformance");
        arguments.AddRange(["--bootstrap-server", Bootstrap, "--topic", context.Topic,
            "--num-records", records.ToString(CultureInfo.InvariantCulture), "--throughput", "-1",
            "--payload-file", file, "--payload-delimiter", delimiter]);
        if (warmup > 0) arguments.AddRange(["--warmup-records", warmup.ToString(CultureInfo.InvariantCulture)]);
        if (SecurityFile(JavaSettings.Security(Security), javaProperties: true) is { } securityFile) arguments.AddRange(["--producer.config", securityFile]);
        foreach (var (key, value) in JavaSettings.Producer(Bootstrap, context.Settings).Where(p => p.Key is not "bootstrap.servers"))
            arguments.AddRange(["--command-property", $"{key}={value}"]);
        return RunTool(arguments, context, cancellationToken, factor: 2);
    }

    private List<string> JavaArguments(string mainClass) =>
        [$"-Xmx{_heapMegabytes}m", "-Djava.awt.headless=true", "-cp", Path.Combine(_jars.LibsDirectory, "*"), mainClass];

    private (string Output, string? Error) RunTool(List<string> arguments, ScenarioContext context, CancellationToken cancellationToken, int factor = 1)
    {
        var tool = arguments[4][(arguments[4].LastIndexOf('.') + 1)..];
        using var process = ToolProcess.Start(_java, arguments);
        process.Input.Close();
        var output = Task.Run(() => new StreamReader(process.Output).ReadToEnd(), CancellationToken.None);
        var timeout = RunTimeout(context, factor) + TimeSpan.FromSeconds(30);
        if (!process.WaitForExit(timeout, cancellationToken)) return (string.Empty, $"{tool} did not finish within {timeout.TotalSeconds:0} s");
        var text = output.Result;
        if (process.ExitCode != 0) return (text, $"{tool} exited with code {process.ExitCode}: {process.ErrorTail()}");
        return (text, null);
    }

    /// <summary>The payload file ProducerPerformance sends from, written once per payload: the payload itself when it is
    /// UTF-8 text that survives Java's decoding byte for byte, else printable ASCII of the same size.</summary>
    private (string File, string Delimiter) PayloadFile(ReadOnlySpan<byte> payload)
    {
        var text = IsText(payload) ? Encoding.UTF8.GetString(payload) : PrintableOfSize(payload.Length);
        // The delimiter is a regular expression to Java's String.split: letters only, and absent from the payload.
        var delimiter = "KAFKAPERFRECORDEND";
        while (text.Contains(delimiter, StringComparison.Ordinal)) delimiter += "X";
        var file = Path.Combine(_work, $"payload-{payload.Length}-{(uint)text.GetHashCode(StringComparison.Ordinal):x8}.txt");
        if (!File.Exists(file)) File.WriteAllText(file, text, new UTF8Encoding(false));
        return (file, delimiter);
    }

    private static bool IsText(ReadOnlySpan<byte> payload)
    {
        try
        {
            var decoded = new UTF8Encoding(false, throwOnInvalidBytes: true).GetString(payload);
            // Java trims nothing, but a NUL or a BOM would not survive the round trip unchanged.
            return !decoded.Contains('\0', StringComparison.Ordinal) && !decoded.StartsWith('\uFEFF');
        }
        catch (DecoderFallbackException)
        {
            return false;
        }
    }

    private static string PrintableOfSize(int size)
    {
        var random = new Random(size);
        return string.Create(size, random, (chars, r) =>
        {
            for (int i = 0; i < chars.Length; i++) chars[i] = (char)r.Next(33, 127);
        });
    }

    private static bool TryRate(string line, out double recordsPerSecond)
    {
        // "10000 steady state records sent, 31746.031746 records/sec (3.03 MB/sec), …"
        recordsPerSecond = 0;
        var parts = line.Split(',');
        if (parts.Length < 2) return false;
        var rate = parts[1].Trim().Split(' ')[0];
        return double.TryParse(rate, NumberStyles.Float, CultureInfo.InvariantCulture, out recordsPerSecond) && recordsPerSecond > 0;
    }

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync().ConfigureAwait(false);
        try
        {
            Directory.Delete(_work, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Best effort: a temp folder.
        }
    }
}
