using System.Diagnostics;
using System.Globalization;
using Docker.DotNet;
using DotNet.Testcontainers.Builders;
using DotNet.Testcontainers.Configurations;
using KafkaPerf.Clients;
using Testcontainers.Kafka;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// A Kafka broker in a container, started with Testcontainers.Kafka from an image (<c>apache/kafka</c> by default, at
/// the version of KafkaPerf's own jars), removed again on dispose.
/// </summary>
/// <remarks>
/// <para>Testcontainers pulls the image when it is not on the machine. Its resource reaper (Ryuk, a container of its
/// own) removes the broker's container if this process dies; where Ryuk's image cannot be had, set
/// <c>TESTCONTAINERS_RYUK_DISABLED=true</c>. KafkaPerf labels its containers with its process id and, on every start,
/// removes those whose process is gone, so a container outlives a killed process only until the next start.</para>
/// <para>Thread-safe to dispose more than once.</para>
/// </remarks>
public sealed class ContainerKafkaBroker : IAsyncDisposable
{
    /// <summary>The image when none is named: the official one, at the Kafka version KafkaPerf is built against.</summary>
    public const string DefaultImage = "apache/kafka:4.3.1";

    /// <summary>The label that marks KafkaPerf's containers, with the owning process id as its value.</summary>
    public const string OwnerLabel = "org.kafkaperf.owner-pid";

    private static readonly TimeSpan StartTimeout = TimeSpan.FromMinutes(3);
    private static readonly string[] PullFailureWords = ["pull", "registry", "no such host", "not found", "manifest"];
    private readonly KafkaContainer _container;
    private readonly Lock _removalLock = new();
    private Task? _removal;

    private ContainerKafkaBroker(KafkaContainer container, string image, string bootstrap, TimeSpan startupTime)
    {
        _container = container;
        Image = image;
        BootstrapServers = bootstrap;
        StartupTime = startupTime;
        var tag = image.Split('/')[^1].Split(':');
        KafkaVersion = tag.Length == 2 && tag[1].Length > 0 && char.IsAsciiDigit(tag[1][0]) ? tag[1] : null;
    }

    /// <summary>The image the broker runs from.</summary>
    public string Image { get; }

    /// <summary>The bootstrap address the container publishes, <c>host:port</c>.</summary>
    public string BootstrapServers { get; }

    /// <summary>The Kafka version, read from the image's tag when it is a version number.</summary>
    public string? KafkaVersion { get; }

    /// <summary>From the call to <see cref="StartAsync"/> until the broker was ready.</summary>
    public TimeSpan StartupTime { get; }

    /// <summary>The container's id.</summary>
    public string ContainerId => _container.Id;

    /// <summary>Starts a broker in a container and returns once Testcontainers sees it ready.</summary>
    /// <param name="image">The image; <see cref="DefaultImage"/> when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the start; the container is removed.</param>
    /// <returns>The broker, which the caller disposes.</returns>
    /// <exception cref="PrerequisiteException">No Docker engine answers, or the image is neither on the machine nor can be
    /// pulled; one line saying what to do.</exception>
    /// <exception cref="BrokerStartException">The container started but the broker did not become ready.</exception>
    public static async Task<ContainerKafkaBroker> StartAsync(string? image = null, CancellationToken cancellationToken = default)
    {
        image = string.IsNullOrWhiteSpace(image) ? DefaultImage : image.Trim();
        long started = Stopwatch.GetTimestamp();
        DockerEngine.NegotiateApiVersion();
        // Before the container is built: the builder takes the reaper's setting.
        DoWithoutAnAbsentReaper();
        KafkaContainer container;
        try
        {
            container = new KafkaBuilder(image)
                .WithLabel(OwnerLabel, Environment.ProcessId.ToString(CultureInfo.InvariantCulture))
                // Testcontainers logs to standard output, where KafkaPerf's tables go; its failures arrive as exceptions.
                .WithLogger(Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance)
                .Build();
        }
        catch (DockerUnavailableException ex)
        {
            throw new PrerequisiteException(
                $"No Docker engine answers ({FirstLine(ex)}): start one (e.g. dockerd, or Docker Desktop) or point DOCKER_HOST at it, or run on the embedded broker instead.", ex);
        }
        await RemoveOrphansAsync().ConfigureAwait(false);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(StartTimeout);
        try
        {
            await container.StartAsync(timeout.Token).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is not PrerequisiteException)
        {
            await container.DisposeAsync().ConfigureAwait(false);
            cancellationToken.ThrowIfCancellationRequested();
            bool pull = ex is DockerImageNotFoundException || (ex is DockerApiException api && IsPullFailure(api));
            // The image is here, so what could not be pulled is another one Testcontainers wanted: say so, not "the image".
            if (pull && DockerEngine.HasImage(image) == true)
                throw new PrerequisiteException(
                    $"The image '{image}' is on this machine, but Testcontainers could not pull another image it needs ({FirstLine(ex)}): make that image available, or set TESTCONTAINERS_RYUK_DISABLED=true if it is its reaper's.", ex);
            if (pull)
                throw new PrerequisiteException(
                    $"The image '{image}' is not on this machine and could not be pulled ({FirstLine(ex)}): pull or build it first (eng/build-kafka-image.sh builds one from Kafka's jars), or name another image.", ex);
            if (ex is OperationCanceledException)
                throw new BrokerStartException($"The Kafka container from '{image}' was not ready within {StartTimeout.TotalMinutes:0} minutes.", ex);
            throw new BrokerStartException($"The Kafka container from '{image}' did not start: {ex.GetType().Name}: {FirstLine(ex)}", ex);
        }
        // Testcontainers gives a URI-like "plaintext://host:port/".
        var address = container.GetBootstrapAddress();
        var bootstrap = address.Contains("://", StringComparison.Ordinal) ? new Uri(address).Authority : address.TrimEnd('/');
        return new ContainerKafkaBroker(container, image, bootstrap, Stopwatch.GetElapsedTime(started));
    }

    /// <summary>Stops and removes the container. Called again (after a kill that gave it a second), it waits for the same
    /// removal: the process does not end while it is under way.</summary>
    /// <returns>A task that completes when it is gone.</returns>
    public ValueTask DisposeAsync()
    {
        lock (_removalLock) _removal ??= _container.DisposeAsync().AsTask();
        return new ValueTask(_removal);
    }

    /// <summary>Removes KafkaPerf's containers whose owning process is gone (killed before it could remove them).</summary>
    /// <summary>
    /// Testcontainers' reaper (Ryuk) runs from an image of its own, which Testcontainers pulls when it is not on the
    /// machine; without a registry that pull fails, and so did the broker's start, with an error that named the broker's
    /// image although that one was there. KafkaPerf does not need the reaper (it removes its own containers, and those of
    /// killed processes at its next start): when the reaper's image is not on this machine, it goes without it.
    /// </summary>
    private static void DoWithoutAnAbsentReaper()
    {
        if (!TestcontainersSettings.ResourceReaperEnabled) return;
        // The image Testcontainers would use: the one configured, or its own default (a tag of testcontainers/ryuk).
        var reaper = TestcontainersSettings.ResourceReaperImage?.FullName.Split('@')[0] ?? "testcontainers/ryuk";
        if (DockerEngine.HasImage(reaper) == false) TestcontainersSettings.ResourceReaperEnabled = false;
    }

    private static Task<int> RemoveOrphansAsync() => Task.Run(() => DockerEngine.RemoveOrphans(OwnerLabel, IsRunning));

    private static bool IsRunning(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (Exception ex) when (ex is ArgumentException or InvalidOperationException)
        {
            return false;
        }
    }

    private static bool IsPullFailure(DockerApiException ex) =>
        PullFailureWords.Any(word => (ex.ResponseBody ?? string.Empty).Contains(word, StringComparison.OrdinalIgnoreCase));

    /// <summary>The useful line of a Testcontainers or Docker error: the first endpoint that failed, or the engine's own
    /// message rather than its JSON.</summary>
    private static string FirstLine(Exception ex)
    {
        var all = new List<Exception>();
        void Walk(Exception e)
        {
            all.Add(e);
            if (e is AggregateException aggregate) foreach (var inner in aggregate.InnerExceptions) Walk(inner);
            else if (e.InnerException is not null) Walk(e.InnerException);
        }
        Walk(ex);
        var text = all.FirstOrDefault(e => e.Message.StartsWith("Failed to connect to Docker endpoint", StringComparison.Ordinal))?.Message
            ?? (ex is DockerApiException { ResponseBody.Length: > 0 } api ? EngineMessage(api.ResponseBody) : ex.Message);
        text = text.ReplaceLineEndings(" ").Trim().TrimEnd('.');
        return text.Length <= 200 ? text : text[..200] + "…";
    }

    private static string EngineMessage(string body)
    {
        try
        {
            using var json = System.Text.Json.JsonDocument.Parse(body);
            return json.RootElement.TryGetProperty("message", out var message) && message.GetString() is { } text ? text : body;
        }
        catch (System.Text.Json.JsonException)
        {
            return body;
        }
    }
}
