using KafkaPerf.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running;

/// <summary>The result of a plan as far as it ran (a checkpoint, or the end), and the clients' configurations in it.</summary>
internal static class ResultSnapshot
{
    /// <summary>The result of a plan as far as it ran, but for its runs, cells and comparisons: what a checkpoint takes with
    /// the runs a run added, and what <see cref="ResultSummarizer.Complete"/> makes whole once, at the end.</summary>
    /// <remarks>Costs the clients and the warnings, never the runs.</remarks>
    internal static BenchmarkResult Rest(EnvironmentInfo environment, BenchmarkPlan plan, DateTimeOffset started,
        Dictionary<string, ClientInfo> infos, List<string> warnings, bool cancelled, string? abortReason, bool inProgress)
    {
        List<string> warningsNow;
        lock (warnings) warningsNow = [.. warnings];
        return new BenchmarkResult
        {
            StartedAtUtc = started,
            FinishedAtUtc = DateTimeOffset.UtcNow,
            Environment = environment,
            Plan = plan,
            Clients = [.. plan.Clients.Where(infos.ContainsKey).Select(c => infos[c])],
            Runs = [],
            Cells = [],
            Comparisons = [],
            Warnings = warningsNow,
            Cancelled = cancelled,
            AbortReason = abortReason,
            InProgress = inProgress,
        };
    }

    internal static ClientInfo WithConfig(ClientInfo info, RunRecord? m, string? variant)
    {
        info = info with
        {
            ProducerConfig = info.ProducerConfig ?? Masked(m?.ProducerConfig),
            ConsumerConfig = info.ConsumerConfig ?? Masked(m?.ConsumerConfig),
        };
        if (variant is null || m is null) return info;
        var configs = new Dictionary<string, VariantConfig>(info.VariantConfigs ?? new Dictionary<string, VariantConfig>(), StringComparer.Ordinal);
        var known = configs.GetValueOrDefault(variant);
        configs[variant] = new VariantConfig(known?.ProducerConfig ?? Masked(m.ProducerConfig), known?.ConsumerConfig ?? Masked(m.ConsumerConfig));
        return info with { VariantConfigs = configs };
    }

    /// <summary>A client's effective configuration for the result, whatever the client did: every secret hidden.</summary>
    private static Dictionary<string, string>? Masked(IReadOnlyDictionary<string, string>? config) => config is null ? null : KafkaSecurity.Mask(config);
}
