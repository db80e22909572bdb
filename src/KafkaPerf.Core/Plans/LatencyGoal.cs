using System.Globalization;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;

namespace KafkaPerf.Plans;

/// <summary>A latency goal on response time, such as <c>p99&lt;20ms</c>: the given percentile must stay below the given time.</summary>
/// <param name="Percentile">The percentile, above 0 and at most 100 (100 is the maximum).</param>
/// <param name="Limit">The time it must stay below.</param>
public sealed record LatencyGoal(double Percentile, TimeSpan Limit)
{
    /// <summary>The goal as written: <c>p99.9&lt;50ms</c>.</summary>
    public override string ToString() =>
        string.Create(CultureInfo.InvariantCulture, $"p{Percentile:0.###}<{FormatTime(Limit)}");

    /// <summary>Whether a response-time histogram meets the goal.</summary>
    /// <param name="responseTime">Response times in nanoseconds.</param>
    /// <param name="measured">The value at the goal's percentile.</param>
    /// <returns><see langword="true"/> when it is below the limit.</returns>
    public bool IsMet(HdrHistogram.HistogramBase responseTime, out TimeSpan measured)
    {
        ArgumentNullException.ThrowIfNull(responseTime);
        long nanos = responseTime.TotalCount == 0 ? 0 : Percentile >= 100 ? HdrHistogram.HistogramExtensions.GetMaxValue(responseTime) : responseTime.GetValueAtPercentile(Percentile);
        measured = TimeSpan.FromTicks(nanos / 100);
        return responseTime.TotalCount > 0 && nanos < Limit.Ticks * 100;
    }

    /// <summary>Reads a comma-separated list of goals: <c>p99&lt;20ms,p99.9&lt;50ms</c> (units ns, us or µs, ms, s).</summary>
    /// <param name="text">The list.</param>
    /// <returns>The goals.</returns>
    /// <exception cref="PlanValidationException">A goal that is not a percentile and a time; one line saying what to write.</exception>
    public static IReadOnlyList<LatencyGoal> ParseList(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var items = text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (items.Length == 0) throw new PlanValidationException("--slo is empty: give a latency goal such as p99<20ms (several: p99<20ms,p99.9<50ms).");
        return [.. items.Select(Parse)];
    }

    private static LatencyGoal Parse(string item)
    {
        string Problem(string what) => $"The latency goal '{item}' {what}: write a percentile and a time, e.g. p99<20ms or p99.9<500us.";
        if (item.Length < 2 || item[0] is not ('p' or 'P')) throw new PlanValidationException(Problem("does not start with p and a percentile"));
        int less = item.IndexOf('<', StringComparison.Ordinal);
        if (less < 0) throw new PlanValidationException(Problem("has no '<'"));
        if (!double.TryParse(item[1..less], NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var percentile) || !(percentile > 0 && percentile <= 100))
            throw new PlanValidationException(Problem("has no percentile above 0 and at most 100"));
        var time = item[(less + 1)..].Trim();
        if (time.Length == 0) throw new PlanValidationException(Problem("has no time after '<'"));
        int split = 0;
        while (split < time.Length && (char.IsAsciiDigit(time[split]) || time[split] == '.')) split++;
        if (split == 0 || !double.TryParse(time[..split], NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var amount) || !(amount > 0))
            throw new PlanValidationException(Problem("has no positive time"));
        double microseconds = time[split..].Trim().ToLowerInvariant() switch
        {
            "ns" => amount / 1000,
            "us" or "µs" => amount,
            "ms" => amount * 1000,
            "s" => amount * 1_000_000,
            "" => throw new PlanValidationException(Problem("has a time without a unit")),
            var unit => throw new PlanValidationException(Problem($"has an unknown unit '{unit}'")),
        };
        // A TimeSpan holds 100 ns steps: 1ns would become a goal of 0 that nothing meets. No Kafka client answers that fast.
        if (microseconds < 1) throw new PlanValidationException(Problem("is under a microsecond, which no Kafka client answers in"));
        if (microseconds * 1000 > Histograms.HighestTrackableValue)
            throw new PlanValidationException(Problem("asks for more than an hour"));
        return new LatencyGoal(percentile, TimeSpan.FromMicroseconds(microseconds));
    }

    private static string FormatTime(TimeSpan time) =>
        time.TotalSeconds >= 1 && time.TotalSeconds % 1 == 0 ? string.Create(CultureInfo.InvariantCulture, $"{time.TotalSeconds:0}s")
        : time.TotalMilliseconds >= 1 ? string.Create(CultureInfo.InvariantCulture, $"{time.TotalMilliseconds:0.###}ms")
        : string.Create(CultureInfo.InvariantCulture, $"{time.TotalMicroseconds:0.###}us");
}
