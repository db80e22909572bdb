namespace KafkaPerf.Measurement;

/// <summary>A shaped link's real round trip, measured through it before the first run that asked for it: messages timed one
/// after another from a send to the whole answer.</summary>
/// <param name="Link">What was timed: <c>client</c> or <c>broker</c> (an echo through that link), <c>client-request</c> (a
/// Kafka request to the node through its client link).</param>
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
