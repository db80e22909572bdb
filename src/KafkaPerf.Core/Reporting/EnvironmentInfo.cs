using System.Runtime.InteropServices;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Reporting;

/// <summary>Where a result was measured: numbers mean little without it.</summary>
public sealed record EnvironmentInfo
{
    /// <summary>Operating system.</summary>
    public required string Os { get; init; }

    /// <summary>Process architecture.</summary>
    public required string Architecture { get; init; }

    /// <summary>Logical processors.</summary>
    public required int ProcessorCount { get; init; }

    /// <summary>Processor model, when the OS tells.</summary>
    public required string ProcessorName { get; init; }

    /// <summary>.NET runtime.</summary>
    public required string Runtime { get; init; }

    /// <summary>The .NET garbage collector's mode, e.g. <c>workstation, concurrent</c>: an in-process client's
    /// allocations make it part of the measurement. Set with the standard <c>DOTNET_gcServer</c> / <c>DOTNET_gcConcurrent</c>.</summary>
    public string? GarbageCollector { get; init; }

    /// <summary>Machine name.</summary>
    public required string MachineName { get; init; }

    /// <summary>KafkaPerf version.</summary>
    public required string ToolVersion { get; init; }

    /// <summary>Bootstrap servers, or <see langword="null"/> without a broker.</summary>
    public string? BootstrapServers { get; init; }

    /// <summary>Broker version, when known.</summary>
    public string? BrokerVersion { get; init; }

    /// <summary>How the broker came to be (embedded or external), when known.</summary>
    public string? BrokerDescription { get; init; }

    /// <summary>How many brokers the cluster has, when known.</summary>
    public int? Brokers { get; init; }

    /// <summary>The broker's configuration, when known.</summary>
    public IReadOnlyDictionary<string, string>? BrokerConfig { get; init; }

    /// <summary>Reads the environment of this process.</summary>
    /// <param name="bootstrapServers">Bootstrap servers in use.</param>
    /// <param name="brokerVersion">Broker version, when known.</param>
    /// <returns>The environment.</returns>
    public static EnvironmentInfo Capture(string? bootstrapServers = null, string? brokerVersion = null) => new()
    {
        Os = RuntimeInformation.OSDescription,
        Architecture = RuntimeInformation.ProcessArchitecture.ToString(),
        ProcessorCount = Environment.ProcessorCount,
        ProcessorName = ReadProcessorName(),
        Runtime = RuntimeInformation.FrameworkDescription,
        GarbageCollector = (System.Runtime.GCSettings.IsServerGC ? "server" : "workstation")
            + (System.Runtime.GCSettings.LatencyMode == System.Runtime.GCLatencyMode.Batch ? ", non-concurrent" : ", concurrent"),
        MachineName = Environment.MachineName,
        ToolVersion = ToolVersionOf(),
        BootstrapServers = bootstrapServers,
        BrokerVersion = brokerVersion,
    };

    /// <summary>Reads the environment of this process and what is known of the broker clients connect to.</summary>
    /// <param name="connection">Where clients connect.</param>
    /// <returns>The environment.</returns>
    public static EnvironmentInfo Capture(ClusterConnection connection)
    {
        ArgumentNullException.ThrowIfNull(connection);
        return Capture(connection.BootstrapServers, connection.BrokerVersion) with
        {
            BrokerDescription = connection.BrokerDescription,
            Brokers = connection.Brokers,
            BrokerConfig = connection.BrokerConfig,
        };
    }

    internal static string ToolVersionOf() => Clients.ClientContract.Release;

    private static string ReadProcessorName()
    {
        try
        {
            const string cpuInfo = "/proc/cpuinfo";
            if (File.Exists(cpuInfo))
            {
                var line = File.ReadLines(cpuInfo).FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal));
                if (line is not null) return line[(line.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim();
            }
        }
        catch (IOException)
        {
            // The processor name is informative only.
        }
        return "unknown";
    }
}
