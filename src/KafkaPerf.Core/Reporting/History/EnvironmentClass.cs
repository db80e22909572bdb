using System.Globalization;

namespace KafkaPerf.Reporting.History;

/// <summary>
/// Which results may be judged against each other: the same processor model and count, architecture, operating system,
/// .NET major version, broker version and broker count. The machine's name is not part of it (CI runners change names,
/// not hardware), nor are client versions (comparing them is what a gate is for).
/// </summary>
public static class EnvironmentClass
{
    /// <summary>The class of an environment, as one line.</summary>
    /// <param name="environment">Where a result was measured.</param>
    /// <returns>For example <c>linux x64, 2 × Intel(R) Xeon(R) …, .NET 10, Kafka 4.3.1 × 1</c>.</returns>
    public static string Of(EnvironmentInfo environment)
    {
        ArgumentNullException.ThrowIfNull(environment);
        var os = environment.Os.Split(' ', 2, StringSplitOptions.RemoveEmptyEntries) is [var first, ..] ? first.ToLowerInvariant() : "unknown";
        var runtime = environment.Runtime.Split(' ', StringSplitOptions.RemoveEmptyEntries).LastOrDefault() ?? environment.Runtime;
        var major = runtime.Split('.')[0];
        var broker = environment.BrokerVersion is { Length: > 0 } version
            ? string.Create(CultureInfo.InvariantCulture, $"Kafka {version} × {environment.Brokers ?? 1}")
            : "no broker";
        return string.Create(CultureInfo.InvariantCulture,
            $"{os} {environment.Architecture.ToLowerInvariant()}, {environment.ProcessorCount} × {environment.ProcessorName}, .NET {major}, {broker}");
    }
}
