using KafkaPerf.Clients;

namespace KafkaPerf.Scenarios;

/// <summary>Reads a client's own counters around a timed section and turns their growth into figures per message.</summary>
internal static class ClientCounters
{
    /// <summary>The counters now (outside the timed section: this may allocate).</summary>
    public static IReadOnlyList<KeyValuePair<string, long>> Read(IBenchClient client) => client.ReadCounters();

    /// <summary>Growth per message since <paramref name="before"/>; <see langword="null"/> when the client keeps no counters.</summary>
    public static IReadOnlyDictionary<string, double>? PerMessage(IBenchClient client, IReadOnlyList<KeyValuePair<string, long>> before, long messages)
    {
        if (before.Count == 0 || messages <= 0) return null;
        var after = client.ReadCounters().ToDictionary(pair => pair.Key, pair => pair.Value, StringComparer.Ordinal);
        var result = new SortedDictionary<string, double>(StringComparer.Ordinal);
        foreach (var (name, value) in before)
        {
            if (after.TryGetValue(name, out var now)) result[name] = (now - value) / (double)messages;
        }
        return result;
    }
}
