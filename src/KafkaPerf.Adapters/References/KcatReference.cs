using System.Diagnostics;
using System.Globalization;
using System.Text;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.References;

/// <summary>
/// <c>kcat</c>, the native reference: librdkafka without .NET, run on the same librdkafka file that
/// <c>confluent</c> loads. Produce pipes the payloads into <c>kcat -P</c>; consume reads with <c>kcat -C -G</c>.
/// </summary>
public sealed class KcatReferenceFactory : IBenchClientFactory
{
    /// <summary>The reference's name.</summary>
    public const string ReferenceName = "kcat";

    /// <summary>A variable naming the kcat executable; <c>kcat</c> (then <c>kafkacat</c>) on PATH when unset.</summary>
    public const string PathVariable = "KAFKAPERF_KCAT";

    /// <inheritdoc />
    public string Name => ReferenceName;

    /// <inheritdoc />
    public string Description => "reference: librdkafka's own command-line client, no .NET (produce and consume)";

    /// <inheritdoc />
    public bool IsReference => true;

    /// <inheritdoc />
    public bool RequiresBroker => true;

    /// <inheritdoc />
    public string? DescribeLibrary()
    {
        try
        {
            return KcatTool.Locate().Describe();
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
            KcatTool.Locate();
            return null;
        }
        catch (PrerequisiteException ex)
        {
            return ex.Message;
        }
    }

    /// <inheritdoc />
    /// <remarks>kcat runs on librdkafka: its settings are checked by the librdkafka that confluent loads.</remarks>
    public string? CheckSettings(ClientSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return settings.Overrides.Count == 0 ? null : new ConfluentClientFactory().CheckSettings(settings);
    }

    /// <inheritdoc />
    public IBenchClient Create(KafkaEndpoint endpoint) => new KcatClient(endpoint, KcatTool.Locate());
}

/// <summary>A located kcat and the librdkafka it runs on.</summary>
/// <param name="Path">The kcat executable.</param>
/// <param name="LibraryFile">The librdkafka file confluent loaded, which kcat is made to run on; <see langword="null"/> when
/// kcat runs on the system's librdkafka.</param>
/// <param name="KcatVersion">kcat's version.</param>
/// <param name="LibrdkafkaVersion">The librdkafka version kcat reports (so the file really ran).</param>
/// <param name="Features">librdkafka's builtin features, as kcat reports them.</param>
internal sealed record KcatTool(string Path, string? LibraryFile, string KcatVersion, string LibrdkafkaVersion, string Features)
{
    private static (string? Variable, KcatTool Tool)? s_located;

    public string Describe() => $"kcat {KcatVersion}, librdkafka {LibrdkafkaVersion}";

    /// <summary>The variables kcat runs with. The librdkafka file that confluent loads is preloaded: its soname is
    /// <c>librdkafka.so.1</c>, so the dynamic loader satisfies kcat's dependency with it instead of the system's, whatever
    /// the file is called (the redist's is <c>centos8-librdkafka.so</c>), with no link or folder to create.</summary>
    public IReadOnlyDictionary<string, string> Environment => LibraryFile is null
        ? new Dictionary<string, string>()
        : new Dictionary<string, string>
        {
            ["LD_PRELOAD"] = System.Environment.GetEnvironmentVariable("LD_PRELOAD") is { Length: > 0 } existing
                ? LibraryFile + " " + existing
                : LibraryFile,
        };

    /// <exception cref="PrerequisiteException">No kcat, or it does not run.</exception>
    public static KcatTool Locate()
    {
        var named = System.Environment.GetEnvironmentVariable(KcatReferenceFactory.PathVariable);
        // Located once per value of the variable: `kcat -V` is a process start.
        if (s_located is { } known && known.Variable == named) return known.Tool;
        string path = !string.IsNullOrWhiteSpace(named)
            ? File.Exists(named) ? named : throw new PrerequisiteException($"{KcatReferenceFactory.PathVariable} is '{named}', which does not exist: point it at a kcat executable or unset it.")
            : FindOnPath("kcat") ?? FindOnPath("kafkacat")
              ?? throw new PrerequisiteException("kcat is not on PATH: install it (apt-get install kcat) or set KAFKAPERF_KCAT; the other references and clients run without it.");
        string? library = null;
        try
        {
            // The same librdkafka file as confluent, so that the row differs from confluent's by .NET alone. LD_PRELOAD
            // splits its list on spaces and colons: a path holding either cannot be preloaded.
            var binding = ConfluentNativeLibrary.EnsureLoaded();
            if (OperatingSystem.IsLinux() && !binding.Path.Any(c => c is ' ' or ':')) library = binding.Path;
        }
        catch (PrerequisiteException)
        {
            // kcat then runs on the system's librdkafka, which -V reports.
        }
        var tool = new KcatTool(path, library, "?", "?", string.Empty);
        using var process = ToolProcess.Start(path, ["-V"], tool.Environment);
        var output = new StreamReader(process.Output).ReadToEnd();
        if (!process.WaitForExit(TimeSpan.FromSeconds(10), CancellationToken.None) || process.ExitCode != 0)
            throw new PrerequisiteException($"'{path} -V' failed ({process.ErrorTail()}): reinstall kcat or set KAFKAPERF_KCAT.");
        string Word(string after) => output.Split(after, 2) is [_, var rest] ? rest.Split(' ', '\n', ')')[0].Trim() : "?";
        tool = tool with { KcatVersion = Word("Version "), LibrdkafkaVersion = Word("librdkafka "), Features = Word("builtin.features=") };
        s_located = (named, tool);
        return tool;
    }

    private static string? FindOnPath(string name) =>
        (System.Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(System.IO.Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Select(dir => System.IO.Path.Combine(dir, name)).FirstOrDefault(File.Exists);
}

/// <summary>One plan's kcat reference.</summary>
internal sealed class KcatClient(KafkaEndpoint endpoint, KcatTool tool) : ReferenceClient(endpoint)
{
    private const int WriteChunkBytes = 1 << 20;

    public override string Name => KcatReferenceFactory.ReferenceName;

    public override string LibraryVersion => tool.Describe();

    public override IReadOnlyDictionary<string, string> Details { get; } = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["kcat"] = $"{tool.KcatVersion} ({tool.Path})",
        ["librdkafka"] = tool.LibraryFile is null ? $"{tool.LibrdkafkaVersion} (the system's)" : $"{tool.LibrdkafkaVersion} (confluent's, preloaded)",
        ["librdkafka.file"] = tool.LibraryFile ?? "the system's",
        ["librdkafka.features"] = tool.Features,
        ["timing"] = "produce: first byte piped into kcat -P to its exit after the last delivery; consume: group assignment to the end of kcat -C's output",
        ["keys"] = "none (values only)",
    };

    protected override RunRecord Produce(ScenarioContext context, CancellationToken cancellationToken)
    {
        var (elapsed, error, resources) = Send(context, timed: true, cancellationToken);
        return Produced(context, elapsed, context.MessageCount, error) with { Resources = resources };
    }

    protected override string? Fill(ScenarioContext context, CancellationToken cancellationToken) =>
        Send(context, timed: false, cancellationToken).Error;

    protected override RunRecord Consume(ScenarioContext context, CancellationToken cancellationToken)
    {
        long assignedAt = 0;
        int pid = 0;
        (double, double)? usedBeforeSection = null;
        var reapedBefore = ChildCpu.Reaped();
        var arguments = new List<string> { "-C", "-b", Bootstrap, "-G", context.GroupId, "-c", context.MessageCount.ToString(CultureInfo.InvariantCulture), "-f", "x" };
        if (SecurityFile(ConfluentSettings.Security(Security), javaProperties: false) is { } securityFile) arguments.AddRange(["-F", securityFile]);
        foreach (var (key, value) in ConsumerSettings(context)) arguments.AddRange(["-X", $"{key}={value}"]);
        arguments.Add(context.Topic);
        using var process = ToolProcess.Start(tool.Path, arguments, tool.Environment, line =>
        {
            // "% Group g rebalanced (memberid …): assigned: topic [0]": the moment the clients' consume timing starts too.
            if (line.Contains("assigned:", StringComparison.Ordinal) && Interlocked.CompareExchange(ref assignedAt, Stopwatch.GetTimestamp(), 0) == 0)
                usedBeforeSection = Volatile.Read(ref pid) is > 0 and var id ? ChildCpu.Of(id) : null;
        });
        Volatile.Write(ref pid, process.Id);
        process.Input.Close();
        long received = 0;
        var buffer = new byte[64 * 1024];
        int read;
        long endedAt;
        // kcat waits for its N records however long it takes: a stalled group join or fetch, or Ctrl+C, kills it, which
        // ends the read below.
        using (process.KillOn(RunTimeout(context), cancellationToken))
        {
            while ((read = process.Output.Read(buffer)) > 0) received += read;
            endedAt = Stopwatch.GetTimestamp();
            process.WaitForExit(TimeSpan.FromSeconds(30), cancellationToken);
        }
        cancellationToken.ThrowIfCancellationRequested();
        if (process.TimedOut || !process.HasExited)
            return ConsumeFailed(context, received, $"kcat -C did not finish within {RunTimeout(context).TotalSeconds:0} s ({received} of {context.MessageCount} records)");
        if (process.ExitCode != 0) return ConsumeFailed(context, received, $"kcat -C exited with code {process.ExitCode}: {process.ErrorTail()}");
        if (Interlocked.Read(ref assignedAt) == 0) return ConsumeFailed(context, received, "kcat -C never reported its partition assignment");
        // kcat reads neither keys nor offsets: a shortfall is what it did not read, not verified; more than N, duplicates.
        if (received < context.MessageCount) return ConsumeFailed(context, received, $"kcat -C ended after {received} of {context.MessageCount} records");
        return new RunRecord
        {
            ElapsedSeconds = Stopwatch.GetElapsedTime(assignedAt, endedAt).TotalSeconds,
            Sent = context.MessageCount,
            Delivered = context.MessageCount,
            Received = received,
            Duplicates = received - context.MessageCount,
            Resources = ChildCpu.Section(reapedBefore, usedBeforeSection, ChildCpu.Reaped()),
        };
    }

    /// <summary>Pipes N copies of the payload into <c>kcat -P</c>; timed from the first byte written to kcat's exit, which
    /// follows the delivery of the last record. Its CPU over that section too (<see cref="ChildCpu"/>).</summary>
    private (double Elapsed, string? Error, RunResources? Resources) Send(ScenarioContext context, bool timed, CancellationToken cancellationToken)
    {
        var payload = context.Payload.Span;
        var delimiter = Delimiter(payload);
        var arguments = new List<string> { "-P", "-b", Bootstrap, "-t", context.Topic, "-D", Escape(delimiter) };
        if (SecurityFile(ConfluentSettings.Security(Security), javaProperties: false) is { } securityFile) arguments.AddRange(["-F", securityFile]);
        foreach (var (key, value) in ProducerSettings(context)) arguments.AddRange(["-X", $"{key}={value}"]);
        int unit = payload.Length + delimiter.Length;
        int perChunk = (int)Math.Clamp(WriteChunkBytes / unit, 1, context.MessageCount);
        var chunk = new byte[perChunk * unit];
        for (int i = 0; i < perChunk; i++)
        {
            payload.CopyTo(chunk.AsSpan(i * unit));
            delimiter.CopyTo(chunk.AsSpan(i * unit + payload.Length));
        }
        var reapedBefore = ChildCpu.Reaped();
        using var process = ToolProcess.Start(tool.Path, arguments, tool.Environment);
        // kcat creates its producer (which connects to the bootstrap servers) before it reads its input: the timed section
        // starts once it waits for input, so neither the process start nor the connection is timed.
        if (timed && !WaitUntilReading(process.Id, context.StallTimeout, cancellationToken))
        {
            // Disposing the process kills it.
            return (double.NaN, $"kcat -P did not start reading its input within {context.StallTimeout.TotalSeconds:0.#} s (--stall-timeout): its start would have been timed", null);
        }
        var usedBeforeSection = ChildCpu.Of(process.Id);
        long started = Stopwatch.GetTimestamp();
        // A kcat that stops reading would block the writes below: Ctrl+C or the timeout kills it, which ends them.
        using var guard = process.KillOn(RunTimeout(context), cancellationToken);
        try
        {
            for (long left = context.MessageCount; left > 0; left -= perChunk)
            {
                cancellationToken.ThrowIfCancellationRequested();
                int records = (int)Math.Min(left, perChunk);
                process.Input.Write(chunk, 0, records * unit);
            }
            process.Input.Close();
        }
        catch (IOException ex)
        {
            process.WaitForExit(TimeSpan.FromSeconds(10), cancellationToken);
            if (process.TimedOut) return (double.NaN, $"kcat -P did not finish within {RunTimeout(context).TotalSeconds:0} s", null);
            return (double.NaN, $"kcat -P stopped reading its input ({ex.Message.TrimEnd('.')}): {process.ErrorTail()}", null);
        }
        if (!process.WaitForExit(RunTimeout(context), cancellationToken))
            return (double.NaN, $"kcat -P did not finish within {RunTimeout(context).TotalSeconds:0} s", null);
        double elapsed = Stopwatch.GetElapsedTime(started).TotalSeconds;
        var resources = ChildCpu.Section(reapedBefore, usedBeforeSection, ChildCpu.Reaped());
        if (process.ExitCode != 0) return (double.NaN, $"kcat -P exited with code {process.ExitCode}: {process.ErrorTail()}", null);
        if (process.Errors.Contains("Delivery failed", StringComparison.OrdinalIgnoreCase))
            return (double.NaN, $"kcat -P reported failed deliveries: {process.ErrorTail()}", null);
        return (elapsed, null, resources);
    }

    /// <summary>Waits until kcat blocks reading its standard input (up to the stall timeout: a busy machine starts it
    /// slowly, and its start must not be timed), then a little more for its connection, which it does not announce.</summary>
    /// <returns><see langword="false"/> when it was still not reading at the limit; <see langword="true"/> when it was, or
    /// when this system cannot tell (no <c>/proc</c>).</returns>
    private static bool WaitUntilReading(int pid, TimeSpan limit, CancellationToken cancellationToken)
    {
        var deadline = Stopwatch.GetTimestamp() + (long)(limit.TotalSeconds * Stopwatch.Frequency);
        bool reading = false;
        while (!reading)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                reading = File.ReadAllText($"/proc/{pid}/wchan").Contains("pipe", StringComparison.Ordinal);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                reading = true;
            }
            if (reading) break;
            if (Stopwatch.GetTimestamp() >= deadline) return false;
            Thread.Sleep(5);
        }
        Thread.Sleep(200);
        return true;
    }

    /// <summary>A record delimiter that occurs nowhere in a run of payloads (kcat splits its input on it): 8 bytes, no NUL.</summary>
    internal static byte[] Delimiter(ReadOnlySpan<byte> payload)
    {
        var random = new Random(7);
        while (true)
        {
            var delimiter = new byte[8];
            for (int i = 0; i < delimiter.Length; i++) delimiter[i] = (byte)random.Next(1, 256);
            if (!Straddles(payload, delimiter)) return delimiter;
        }
    }

    /// <summary>Whether the delimiter would be found anywhere but after the payload: inside it, or across its end.</summary>
    private static bool Straddles(ReadOnlySpan<byte> payload, byte[] delimiter)
    {
        var joined = new byte[payload.Length * 2 + delimiter.Length];
        payload.CopyTo(joined);
        delimiter.CopyTo(joined, payload.Length);
        payload.CopyTo(joined.AsSpan(payload.Length + delimiter.Length));
        return joined.AsSpan().IndexOf(delimiter) != payload.Length;
    }

    /// <summary>kcat's <c>-D</c> spelling of bytes: <c>\xNN</c> each.</summary>
    internal static string Escape(byte[] delimiter)
    {
        var text = new StringBuilder();
        foreach (var b in delimiter) text.Append(CultureInfo.InvariantCulture, $"\\x{b:x2}");
        return text.ToString();
    }

    private IEnumerable<KeyValuePair<string, string>> ProducerSettings(ScenarioContext context) =>
        Own(ConfluentSettings.Producer(Bootstrap, context.Settings));

    private IEnumerable<KeyValuePair<string, string>> ConsumerSettings(ScenarioContext context) =>
        Own(ConfluentSettings.Consumer(Bootstrap, context.GroupId, context.Settings)).Where(p => p.Key is not "group.id");

    /// <summary>confluent's parity table without what belongs to .NET or to the command line.</summary>
    private static IEnumerable<KeyValuePair<string, string>> Own(List<KeyValuePair<string, string>> settings) =>
        settings.Where(p => !p.Key.StartsWith("dotnet.", StringComparison.Ordinal) && p.Key is not "bootstrap.servers")
            .Select(p => p.Key == "client.id" ? new KeyValuePair<string, string>(p.Key, "kafkaperf-kcat") : p);
}
