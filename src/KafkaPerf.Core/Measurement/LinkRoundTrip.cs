namespace KafkaPerf.Measurement;

/// <summary>A shaped link's real round trip, measured through it before the first run that asked for it: requests timed
/// one after another from a send to its whole answer (a Kafka <c>ApiVersions</c> request to a node through its proxy, which
/// the node answers from memory).</summary>
/// <param name="Link">Which link: <c>client</c> (client to node) or <c>broker</c> (node to node).</param>
/// <param name="Samples">Requests timed.</param>
/// <param name="P50Micros">The median round trip, in microseconds.</param>
/// <param name="P99Micros">The 99th percentile, in microseconds.</param>
/// <param name="MinMicros">The shortest.</param>
/// <param name="MaxMicros">The longest.</param>
public sealed record LinkRoundTrip(string Link, int Samples, double P50Micros, double P99Micros, double MinMicros, double MaxMicros)
{
    /// <summary>Sums up round trips measured in microseconds (nearest-rank percentiles).</summary>
    /// <param name="link">Which link.</param>
    /// <param name="micros">The round trips.</param>
    /// <returns>The summary.</returns>
    public static LinkRoundTrip Of(string link, IReadOnlyList<double> micros)
    {
        ArgumentNullException.ThrowIfNull(micros);
        if (micros.Count == 0) throw new ArgumentException("No round trip was measured.", nameof(micros));
        var sorted = micros.Order().ToArray();
        double Rank(double p) => sorted[Math.Clamp((int)Math.Ceiling(p * sorted.Length) - 1, 0, sorted.Length - 1)];
        return new LinkRoundTrip(link, sorted.Length, Rank(0.50), Rank(0.99), sorted[0], sorted[^1]);
    }
}
