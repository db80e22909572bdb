using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;

namespace KafkaPerf.Running;

/// <summary>The refusals of <c>--network</c>, each one line saying what to do; <see cref="PlanChecks.All"/> asks them
/// before anything starts.</summary>
internal static class NetworkChecks
{
    /// <summary>Where the refusals send a user who wants to shape a cluster the tool does not start.</summary>
    internal const string DocsPointer = "docs/network.md";

    /// <summary>Why the plan's networks cannot run here; nothing when the plan has none or they can.</summary>
    /// <param name="plan">The plan.</param>
    /// <param name="cluster">What is known of the cluster.</param>
    /// <param name="netem">Why the kernel's netem cannot be used here (<see cref="NetemRefusal"/>).</param>
    internal static IEnumerable<string> Errors(BenchmarkPlan plan, ClusterFacts cluster, Func<string?> netem)
    {
        var specs = plan.SettingsVariants.Select(v => v.Network).OfType<NetworkSpec>().ToList();
        if (specs.Count == 0) yield break;
        if (specs.Any(s => s.ViaNetem))
        {
            yield return netem() ?? "--network via=netem is not built yet: leave via= out, and the shaping proxy shapes the links (it needs no root).";
            yield break;
        }
        // Workers (--processes) reach the broker this process starts through its proxies, which this process shapes per run.
        if (!cluster.ShapesNetwork)
            yield return "--network shapes only the embedded broker or cluster, which advertises its proxies' addresses; a container broker (--broker testcontainers) "
                + $"or a --bootstrap cluster advertises addresses the tool does not configure: leave --network out and shape that host's network with tc ({DocsPointer}).";
    }

    /// <summary>Why <c>via=netem</c> cannot run on this machine: no root, or a kernel without the <c>netem</c> qdisc.</summary>
    /// <returns>The line, or <see langword="null"/> when root and the kernel have it.</returns>
    internal static string? NetemRefusal()
    {
        if (!OperatingSystem.IsLinux())
            return "--network via=netem needs Linux's netem qdisc: leave via= out, and the shaping proxy shapes the links (it runs on every OS).";
        if (!KernelHasNetem())
            return "--network via=netem: this kernel has no netem qdisc ('tc qdisc add … netem' says 'Specified qdisc kind is unknown'): leave via= out, and the shaping proxy shapes the links.";
        if (!Environment.IsPrivilegedProcess)
            return "--network via=netem needs root to shape veth links: run as root, or leave via= out and the shaping proxy shapes the links without it.";
        return null;
    }

    private static bool KernelHasNetem()
    {
        if (Directory.Exists("/sys/module/sch_netem")) return true;
        try
        {
            var release = File.ReadAllText("/proc/sys/kernel/osrelease").Trim();
            var folder = Path.Combine("/lib/modules", release, "kernel/net/sched");
            return Directory.Exists(folder) && Directory.EnumerateFiles(folder, "sch_netem.ko*").Any();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }
}
