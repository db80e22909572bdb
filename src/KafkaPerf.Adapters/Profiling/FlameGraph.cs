using System.Globalization;
using System.Security;
using System.Text;

namespace KafkaPerf.Adapters.Profiling;

/// <summary>
/// A flame graph of folded stacks as one SVG file: each frame a box as wide as its samples, its callers beneath it, coloured
/// by its layer (a legend says which colour is which), with its name, layer and share on hover.
/// </summary>
internal static class FlameGraph
{
    private const double Width = 1200;
    private const double FrameHeight = 17;
    private const double Top = 52;
    private const double MinimumWidth = 0.6;

    private static readonly Dictionary<string, string> Colours = new(StringComparer.Ordinal)
    {
        [ProfileLayers.Kernel] = "#c9c9c9",
        [ProfileLayers.SystemLibraries] = "#a8b9cc",
        [ProfileLayers.Librdkafka] = "#e8a33d",
        [ProfileLayers.Jvm] = "#8fbc6a",
        [ProfileLayers.UnnamedCode] = "#b5d99c",
        [ProfileLayers.DotNetRuntime] = "#d9675f",
        [ProfileLayers.DotNetLibraries] = "#b07cc6",
        [ProfileLayers.ConfluentKafka] = "#4f8fd8",
        [ProfileLayers.KafkaPerf] = "#3bb3a9",
        [ProfileLayers.Other] = "#eeeeee",
    };

    private sealed class Node(string name)
    {
        public string Name { get; } = name;
        public long Count { get; set; }
        public Dictionary<string, Node> Children { get; } = new(StringComparer.Ordinal);
    }

    /// <summary>Writes the flame graph.</summary>
    /// <param name="stacks">The folded stacks.</param>
    /// <param name="title">The title, plain text.</param>
    /// <param name="path">The file; written whole or not at all.</param>
    public static void Write(FoldedStacks stacks, string title, string path)
    {
        var root = new Node("all");
        foreach (var (stack, count) in stacks.Stacks)
        {
            root.Count += count;
            var node = root;
            foreach (var frame in stack.Split(';'))
            {
                if (!node.Children.TryGetValue(frame, out var child)) node.Children[frame] = child = new Node(frame);
                child.Count += count;
                node = child;
            }
        }
        int depth = Depth(root);
        double height = Top + (depth + 1) * FrameHeight + 10;
        var svg = new StringBuilder();
        svg.Append(CultureInfo.InvariantCulture, $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{Width}\" height=\"{height:0}\" viewBox=\"0 0 {Width} {height:0}\" font-family=\"sans-serif\" font-size=\"11\">\n");
        svg.Append(CultureInfo.InvariantCulture, $"<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n<text x=\"{Width / 2}\" y=\"18\" text-anchor=\"middle\" font-size=\"15\">{Escape(title)}</text>\n");
        double x = 10;
        foreach (var layer in ProfileLayers.All.Where(l => stacks.FrameLayers.Values.Contains(l)))
        {
            svg.Append(CultureInfo.InvariantCulture, $"<rect x=\"{x:0.#}\" y=\"28\" width=\"12\" height=\"12\" fill=\"{Colours[layer]}\"/><text x=\"{x + 16:0.#}\" y=\"38\">{Escape(layer)}</text>\n");
            x += 24 + layer.Length * 6.2;
        }
        Draw(svg, root, stacks, 0, Width, level: 0, root.Count, height);
        svg.Append("</svg>\n");
        var temporary = path + ".partial";
        File.WriteAllText(temporary, svg.ToString());
        File.Move(temporary, path, overwrite: false);
    }

    private static int Depth(Node node) => node.Children.Count == 0 ? 0 : 1 + node.Children.Values.Max(Depth);

    private static void Draw(StringBuilder svg, Node node, FoldedStacks stacks, double x, double width, int level, long total, double height)
    {
        if (width < MinimumWidth) return;
        double y = height - 10 - (level + 1) * FrameHeight;
        var layer = level == 0 ? ProfileLayers.Other : stacks.FrameLayers.GetValueOrDefault(node.Name, ProfileLayers.Other);
        double share = total > 0 ? node.Count / (double)total : 0;
        var label = level == 0 ? $"all ({node.Count} samples)" : node.Name;
        svg.Append(CultureInfo.InvariantCulture,
            $"<g><title>{Escape(node.Name)} ({Escape(layer)}): {node.Count} samples, {share * 100:0.##} %</title><rect x=\"{x:0.##}\" y=\"{y:0.#}\" width=\"{width:0.##}\" height=\"{FrameHeight - 1}\" fill=\"{Colours[layer]}\" rx=\"2\"/>");
        int fits = (int)((width - 6) / 6.5);
        if (fits >= 3)
        {
            var text = label.Length <= fits ? label : label[..(fits - 2)] + "..";
            svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{x + 3:0.##}\" y=\"{y + 12:0.#}\">{Escape(text)}</text>");
        }
        svg.Append("</g>\n");
        double childX = x;
        foreach (var child in node.Children.Values.OrderBy(c => c.Name, StringComparer.Ordinal))
        {
            double childWidth = node.Count > 0 ? width * child.Count / node.Count : 0;
            Draw(svg, child, stacks, childX, childWidth, level + 1, total, height);
            childX += childWidth;
        }
    }

    private static string Escape(string text) => SecurityElement.Escape(text) ?? string.Empty;
}
