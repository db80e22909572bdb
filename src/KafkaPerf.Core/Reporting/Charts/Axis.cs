namespace KafkaPerf.Reporting.Charts;

/// <summary>One axis of a chart: a domain, linear or base-10 logarithmic, mapped onto a pixel range, and tick labels
/// chosen so that none overlaps another.</summary>
internal sealed class Axis
{
    private const int EnoughTicks = 5;

    // Mantissas of candidate ticks on a log axis, in the order they are tried: decades first, then 2 and 5, then finer
    // levels only while there are fewer than EnoughTicks.
    private static readonly double[][] LogMantissas = [[1], [2, 5], [3], [1.5, 4, 7]];

    private readonly IReadOnlyList<(double Value, string Label)>? _fixedTicks;
    private readonly Func<double, string> _format;
    private double _pixelStart;
    private double _pixelEnd = 1;

    private Axis(double min, double max, bool isLog, Func<double, string> format, IReadOnlyList<(double Value, string Label)>? fixedTicks)
    {
        Min = min;
        Max = max;
        IsLog = isLog;
        _format = format;
        _fixedTicks = fixedTicks;
    }

    public double Min { get; }

    public double Max { get; }

    public bool IsLog { get; }

    /// <summary>A linear axis from 0 to a round number above <paramref name="dataMax"/>.</summary>
    public static Axis LinearFromZero(double dataMax, Func<double, string> format)
    {
        if (!(dataMax > 0) || !double.IsFinite(dataMax)) dataMax = 1;
        var step = NiceStep(dataMax / 5);
        return new Axis(0, Math.Ceiling((dataMax / step) - 1e-9) * step, isLog: false, format, fixedTicks: null);
    }

    /// <summary>A log axis a little wider than the data, at least one decade wide so that a single value sits in the
    /// middle rather than on an edge.</summary>
    public static Axis Log(double dataMin, double dataMax, Func<double, string> format, IReadOnlyList<(double Value, string Label)>? fixedTicks = null)
    {
        if (!(dataMin > 0) || !double.IsFinite(dataMin)) dataMin = dataMax > 0 && double.IsFinite(dataMax) ? dataMax : 1;
        if (!(dataMax >= dataMin) || !double.IsFinite(dataMax)) dataMax = dataMin;
        double lo = Math.Log10(dataMin), hi = Math.Log10(dataMax);
        double pad = Math.Max(0.08, (1 - (hi - lo)) / 2);
        return new Axis(Math.Pow(10, lo - pad), Math.Pow(10, hi + pad), isLog: true, format, fixedTicks);
    }

    /// <summary>A log axis over an exact domain, with the given ticks, kept in the given order while they fit.</summary>
    public static Axis LogExact(double min, double max, IReadOnlyList<(double Value, string Label)> ticks) =>
        new(min, max, isLog: true, v => v.ToString(System.Globalization.CultureInfo.InvariantCulture), ticks);

    /// <summary>Places the axis on the page.</summary>
    public void SetPixels(double start, double end)
    {
        _pixelStart = start;
        _pixelEnd = end;
    }

    /// <summary>The page position of <paramref name="value"/>; values outside the domain (and non-positive values on a
    /// log axis) are clamped to its edges.</summary>
    public double Map(double value)
    {
        double fraction;
        if (IsLog)
        {
            var v = value > 0 ? value : Min;
            fraction = (Math.Log10(v) - Math.Log10(Min)) / (Math.Log10(Max) - Math.Log10(Min));
        }
        else
        {
            fraction = (value - Min) / (Max - Min);
        }
        return _pixelStart + (Math.Clamp(fraction, 0, 1) * (_pixelEnd - _pixelStart));
    }

    /// <summary>The ticks to draw: on a horizontal axis no two labels closer than their half-widths and a gap; on a
    /// vertical axis no two labels closer than 1.6 lines.</summary>
    public IReadOnlyList<(double Value, string Label)> Ticks(bool horizontal, double fontSize)
    {
        var kept = new List<(double Value, string Label)>();
        bool Fits(double value, string label)
        {
            double at = Map(value);
            foreach (var (otherValue, otherLabel) in kept)
            {
                double distance = Math.Abs(Map(otherValue) - at);
                double needed = horizontal
                    ? ((ChartTheme.TextWidth(label, fontSize) + ChartTheme.TextWidth(otherLabel, fontSize)) / 2) + 10
                    : fontSize * 1.6;
                if (distance < needed) return false;
            }
            return true;
        }

        void Offer(double value, string label)
        {
            if (value >= Min * (1 - 1e-9) && value <= Max * (1 + 1e-9) && Fits(value, label)) kept.Add((value, label));
        }

        if (_fixedTicks is not null)
        {
            foreach (var (value, label) in _fixedTicks) Offer(value, label);
        }
        else if (IsLog)
        {
            int first = (int)Math.Floor(Math.Log10(Min)), last = (int)Math.Ceiling(Math.Log10(Max));
            foreach (var level in LogMantissas)
            {
                if (kept.Count >= EnoughTicks) break;
                for (int exponent = first; exponent <= last; exponent++)
                {
                    foreach (var mantissa in level)
                    {
                        var value = mantissa * Math.Pow(10, exponent);
                        Offer(value, _format(value));
                    }
                }
            }
        }
        else
        {
            var step = NiceStep((Max - Min) / 5);
            for (int i = 0; ; i++)
            {
                var value = Min + (i * step);
                if (value > Max + (step * 1e-9)) break;
                Offer(value, _format(value));
            }
        }
        return [.. kept.OrderBy(t => t.Value)];
    }

    /// <summary>1, 2 or 5 times a power of ten, at least <paramref name="rough"/>.</summary>
    internal static double NiceStep(double rough)
    {
        if (!(rough > 0) || !double.IsFinite(rough)) return 1;
        var power = Math.Pow(10, Math.Floor(Math.Log10(rough)));
        var mantissa = rough / power;
        return (mantissa <= 1 + 1e-9 ? 1 : mantissa <= 2 + 1e-9 ? 2 : mantissa <= 5 + 1e-9 ? 5 : 10) * power;
    }
}
