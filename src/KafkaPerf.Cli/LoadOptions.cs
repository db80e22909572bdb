using System.Globalization;
using KafkaPerf.Plans;
using KafkaPerf.Running;

namespace KafkaPerf.Cli;

/// <summary>Parses the load options' values: durations with a unit and rates in records per second.</summary>
internal static class LoadOptions
{
    /// <summary>A duration such as <c>60s</c>, <c>500ms</c>, <c>2m</c>, <c>1.5h</c> or <c>0s</c>.</summary>
    /// <param name="value">The text.</param>
    /// <param name="option">The option, for the error.</param>
    /// <returns>The duration.</returns>
    /// <exception cref="PlanValidationException">No unit, an unknown unit, or not a number; one line.</exception>
    public static TimeSpan Duration(string value, string option)
    {
        var text = value.Trim();
        int split = 0;
        while (split < text.Length && (char.IsAsciiDigit(text[split]) || text[split] is '.' or '_' or '-' or '+')) split++;
        var number = text[..split].Replace("_", string.Empty, StringComparison.Ordinal);
        var unit = text[split..].Trim().ToLowerInvariant();
        if (!double.TryParse(number, NumberStyles.AllowDecimalPoint | NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var amount) || !double.IsFinite(amount))
            throw new PlanValidationException($"{option} '{value}' is not a duration: write a number and a unit, e.g. {option} 60s (ms, s, m or h).");
        double seconds = unit switch
        {
            "ms" => amount / 1000,
            "s" => amount,
            "m" or "min" => amount * 60,
            "h" => amount * 3600,
            "" => throw new PlanValidationException($"{option} '{value}' has no unit: write e.g. {option} {number}s (ms, s, m or h)."),
            _ => throw new PlanValidationException($"{option} '{value}' has an unknown unit '{unit}': use ms, s, m or h, e.g. {option} 60s."),
        };
        if (seconds > TimeSpan.MaxValue.TotalSeconds / 2)
            throw new PlanValidationException($"{option} '{value}' is too long: give at most a few days.");
        return TimeSpan.FromSeconds(seconds);
    }

    /// <summary>A comma-separated list of rates in records per second (<c>1000</c>, <c>2_500.5</c>, <c>10k</c>, <c>1.5M</c>).</summary>
    /// <param name="value">The text.</param>
    /// <returns>The rates.</returns>
    /// <exception cref="PlanValidationException">A value that is not a number; one line. Range is checked by the plan.</exception>
    public static double[] Rates(string value)
    {
        var items = value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (items.Length == 0) throw new PlanValidationException("--rate is empty: give records per second, e.g. --rate 10000.");
        return [.. items.Select(Rate)];
    }

    private static double Rate(string item)
    {
        var text = item.Replace("_", string.Empty, StringComparison.Ordinal);
        double factor = 1;
        if (text.EndsWith('k') || text.EndsWith('K')) (factor, text) = (1e3, text[..^1]);
        else if (text.EndsWith('M')) (factor, text) = (1e6, text[..^1]);
        if (!double.TryParse(text, NumberStyles.AllowDecimalPoint | NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var rate) || !double.IsFinite(rate))
            throw new PlanValidationException($"Rate '{item}' is not a number of records per second: write e.g. --rate 10000 (or 10k).");
        return rate * factor;
    }
}
