namespace KafkaPerf.Reporting.Charts;

/// <summary>The look shared by every chart: fonts, sizes and a palette that colour-blind readers can tell apart.</summary>
internal static class ChartTheme
{
    public const string FontFamily = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif";

    public const double TitleSize = 17;
    public const double SubtitleSize = 12.5;
    public const double AxisLabelSize = 13.5;
    public const double TickSize = 12.5;
    public const double LegendSize = 13;
    public const double NoteSize = 11.5;

    public const string Text = "#222222";
    public const string MutedText = "#555555";
    public const string Axis = "#444444";
    public const string Grid = "#e3e3e3";
    public const string MissingFill = "#d9d9d9";

    /// <summary>Okabe and Ito's palette (without its yellow, too faint on white): distinct under the common colour-vision
    /// deficiencies. Each client keeps its colour and marker in every chart of a report.</summary>
    private static readonly string[] Palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"];

    private static readonly string?[] Dashes = [null, "7 4", "2 3", "9 3 2 3"];

    public static string ColourOf(int index) => Palette[index % Palette.Length];

    /// <summary>A client's colour mixed with white: its share <paramref name="strength"/> (0 white, 1 the colour itself).
    /// Mixed here rather than drawn with opacity, so that a band reads the same over the grid, in print and in a PNG.</summary>
    public static string TintOf(int index, double strength)
    {
        var colour = ColourOf(index);
        int Mix(int at)
        {
            int channel = Convert.ToInt32(colour.Substring(at, 2), 16);
            return (int)Math.Round(255 - ((255 - channel) * Math.Clamp(strength, 0, 1)));
        }
        return $"#{Mix(1):x2}{Mix(3):x2}{Mix(5):x2}";
    }

    /// <summary>Lines differ by dash as well as colour once the palette repeats or for readers who cannot tell the colours.</summary>
    public static string? DashOf(int index) => Dashes[(index / Palette.Length + index) % Dashes.Length];

    /// <summary>Breaks <paramref name="text"/> at spaces into lines no wider than <paramref name="maxWidth"/> (a single word
    /// wider than that keeps a line of its own).</summary>
    public static IReadOnlyList<string> Wrap(string text, double size, double maxWidth)
    {
        var lines = new List<string>();
        var line = string.Empty;
        foreach (var word in text.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            var candidate = line.Length == 0 ? word : $"{line} {word}";
            if (line.Length > 0 && TextWidth(candidate, size) > maxWidth)
            {
                lines.Add(line);
                line = word;
            }
            else
            {
                line = candidate;
            }
        }
        if (line.Length > 0 || lines.Count == 0) lines.Add(line);
        return lines;
    }

    /// <summary>A generous estimate of the width of <paramref name="text"/> in a sans-serif font: charts place labels
    /// from it, so overestimating only costs a little space while underestimating makes labels overlap.</summary>
    public static double TextWidth(string text, double size)
    {
        double ems = 0;
        foreach (var c in text)
        {
            ems += c switch
            {
                ' ' or '.' or ',' or ':' or ';' or 'i' or 'l' or 'j' or '|' or '\'' or '!' or 'I' or 'f' or 't' or 'r' or '(' or ')' => 0.38,
                'm' or 'w' or 'M' or 'W' or '%' or '@' or '—' => 0.98,
                >= 'A' and <= 'Z' => 0.72,
                >= '0' and <= '9' => 0.64,
                _ => 0.62,
            };
        }
        return ems * size;
    }
}
