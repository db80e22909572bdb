using System.Globalization;
using System.Text;
using OpenTelemetry;
using OpenTelemetry.Metrics;

namespace KafkaPerf.Cli.Telemetry;

/// <summary>
/// <c>--otel console</c>: prints KafkaPerf's metrics to standard error while the plan runs, one whole line per
/// instrument and tag set (so it never splits a progress line), and only the ones that changed since the last export.
/// </summary>
/// <remarks>Counters show their running total; histograms their count, mean, min and max in milliseconds.</remarks>
internal sealed class StderrMetricExporter(TextWriter writer) : BaseExporter<Metric>
{
    /// <summary>What starts every line.</summary>
    public const string Prefix = "otel: ";

    private readonly Dictionary<string, string> _printed = new(StringComparer.Ordinal);

    public override ExportResult Export(in Batch<Metric> batch)
    {
        foreach (var metric in batch)
        {
            foreach (ref readonly var point in metric.GetMetricPoints())
            {
                var key = new StringBuilder(metric.Name).Append('{');
                bool first = true;
                foreach (var tag in point.Tags)
                {
                    if (!first) key.Append(',');
                    first = false;
                    key.Append(ShortTag(tag.Key)).Append('=').Append(Convert.ToString(tag.Value, CultureInfo.InvariantCulture));
                }
                key.Append('}');
                var value = Value(metric, point);
                var line = key.ToString();
                if (_printed.TryGetValue(line, out var before) && before == value) continue;
                _printed[line] = value;
                writer.WriteLine($"{Prefix}{line} {value}");
            }
        }
        return ExportResult.Success;
    }

    private static string Value(Metric metric, in MetricPoint point)
    {
        if (metric.MetricType == MetricType.Histogram)
        {
            long count = point.GetHistogramCount();
            double sum = point.GetHistogramSum();
            var text = string.Create(CultureInfo.InvariantCulture, $"count={count} mean={(count == 0 ? 0 : sum / count):0.###}");
            if (point.TryGetHistogramMinMaxValues(out double min, out double max))
                text += string.Create(CultureInfo.InvariantCulture, $" min={min:0.###} max={max:0.###}");
            return $"{text} {metric.Unit}";
        }
        var total = metric.MetricType is MetricType.LongSum or MetricType.LongSumNonMonotonic ? point.GetSumLong().ToString(CultureInfo.InvariantCulture)
            : metric.MetricType is MetricType.DoubleSum or MetricType.DoubleSumNonMonotonic ? point.GetSumDouble().ToString("0.###", CultureInfo.InvariantCulture)
            : metric.MetricType == MetricType.LongGauge ? point.GetGaugeLastValueLong().ToString(CultureInfo.InvariantCulture)
            : point.GetGaugeLastValueDouble().ToString("0.###", CultureInfo.InvariantCulture);
        return $"{total} {metric.Unit}";
    }

    // kafkaperf.client -> client: the instrument's name already says whose tags these are.
    private static string ShortTag(string key) => key.StartsWith("kafkaperf.", StringComparison.Ordinal) ? key["kafkaperf.".Length..] : key;
}
