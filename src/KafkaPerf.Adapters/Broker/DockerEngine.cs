using System.Net.Http.Json;
using System.Net.Sockets;
using System.Text.Json.Serialization;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// What KafkaPerf asks the Docker engine itself, before Testcontainers does: whether one answers on the default socket,
/// and which API version it speaks. Testcontainers' Docker client asks for API 1.44 and does not negotiate down; an
/// older engine (Debian 12's docker.io 20.10 speaks 1.41) then looks "unavailable" although it runs. Like the Docker CLI,
/// KafkaPerf asks the engine for its version and, when it is older, sets <c>DOCKER_API_VERSION</c> to it for this process.
/// </summary>
internal static class DockerEngine
{
    private const string Socket = "/var/run/docker.sock";
    private static readonly Version ClientVersion = new(1, 44);

    /// <summary>The engine's API version on the default Unix socket, when <c>DOCKER_HOST</c> names no other engine and
    /// one answers within <paramref name="timeout"/>.</summary>
    /// <returns>The version, or <see langword="null"/> when it cannot be told this way (Testcontainers then finds out).</returns>
    public static Version? ApiVersion(TimeSpan timeout)
    {
        try
        {
            using var client = Client(timeout);
            if (client is null) return null;
            var version = client.GetFromJsonAsync<VersionResponse>(new Uri("http://docker/version")).GetAwaiter().GetResult();
            return Version.TryParse(version?.ApiVersion, out var parsed) ? parsed : null;
        }
        catch (Exception ex) when (IsUnreachable(ex))
        {
            return null;
        }
    }

    /// <summary>Removes the containers labelled <paramref name="label"/> whose value (a process id) names a process that is
    /// gone, on the default socket; best effort.</summary>
    /// <param name="label">The owner label.</param>
    /// <param name="isRunning">Whether a process id is alive.</param>
    /// <returns>How many were removed.</returns>
    public static int RemoveOrphans(string label, Func<int, bool> isRunning)
    {
        try
        {
            using var client = Client(TimeSpan.FromSeconds(10));
            if (client is null) return 0;
            var filters = Uri.EscapeDataString($"{{\"label\":[\"{label}\"]}}");
            var listed = client.GetFromJsonAsync<List<ContainerResponse>>(new Uri($"http://docker/containers/json?all=1&filters={filters}")).GetAwaiter().GetResult() ?? [];
            int removed = 0;
            foreach (var container in listed)
            {
                if (container.Labels?.TryGetValue(label, out var owner) != true || !int.TryParse(owner, System.Globalization.CultureInfo.InvariantCulture, out int pid)) continue;
                if (pid == Environment.ProcessId || isRunning(pid)) continue;
                using var response = client.DeleteAsync(new Uri($"http://docker/containers/{container.Id}?force=1&v=1")).GetAwaiter().GetResult();
                if (response.IsSuccessStatusCode) removed++;
            }
            return removed;
        }
        catch (Exception ex) when (IsUnreachable(ex))
        {
            return 0;
        }
    }

    /// <summary>Whether an image of a repository (any tag) is on this machine, on the default socket.</summary>
    /// <param name="repository">The repository, e.g. <c>testcontainers/ryuk</c>, or a reference with its tag.</param>
    /// <returns><see langword="true"/> or <see langword="false"/>; <see langword="null"/> when the engine cannot be asked this way.</returns>
    public static bool? HasImage(string repository)
    {
        try
        {
            using var client = Client(TimeSpan.FromSeconds(5));
            if (client is null) return null;
            var filters = Uri.EscapeDataString($"{{\"reference\":[\"{repository}\"]}}");
            var listed = client.GetFromJsonAsync<List<ImageResponse>>(new Uri($"http://docker/images/json?filters={filters}")).GetAwaiter().GetResult();
            return listed is null ? null : listed.Count > 0;
        }
        catch (Exception ex) when (IsUnreachable(ex))
        {
            return null;
        }
    }

    private static HttpClient? Client(TimeSpan timeout)
    {
        var host = Environment.GetEnvironmentVariable("DOCKER_HOST");
        if (!string.IsNullOrEmpty(host) && host != "unix://" + Socket) return null;
        if ((!OperatingSystem.IsLinux() && !OperatingSystem.IsMacOS()) || !File.Exists(Socket)) return null;
        var handler = new SocketsHttpHandler
            {
                ConnectCallback = async (_, token) =>
                {
                    var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
                    try
                    {
                        await socket.ConnectAsync(new UnixDomainSocketEndPoint(Socket), token).ConfigureAwait(false);
                        return new NetworkStream(socket, ownsSocket: true);
                    }
                    catch
                    {
                        socket.Dispose();
                        throw;
                    }
                },
            };
        return new HttpClient(handler, disposeHandler: true) { Timeout = timeout };
    }

    private static bool IsUnreachable(Exception ex) =>
        ex is HttpRequestException or SocketException or TaskCanceledException or System.Text.Json.JsonException or IOException or UnauthorizedAccessException;

    /// <summary>Sets <c>DOCKER_API_VERSION</c> for this process when the engine is older than Testcontainers' client and
    /// nothing set it yet.</summary>
    public static void NegotiateApiVersion()
    {
        if (!string.IsNullOrEmpty(Environment.GetEnvironmentVariable("DOCKER_API_VERSION"))) return;
        if (ApiVersion(TimeSpan.FromSeconds(5)) is { } engine && engine < ClientVersion)
            Environment.SetEnvironmentVariable("DOCKER_API_VERSION", engine.ToString(2));
    }

    private sealed record VersionResponse([property: JsonPropertyName("ApiVersion")] string? ApiVersion);

    private sealed record ImageResponse([property: JsonPropertyName("Id")] string Id);

    private sealed record ContainerResponse([property: JsonPropertyName("Id")] string Id, [property: JsonPropertyName("Labels")] Dictionary<string, string>? Labels);
}
