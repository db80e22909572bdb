using System.Globalization;

namespace KafkaPerf.Adapters.Profiling;

/// <summary>
/// Samples folded into stacks (frames from the outermost to the innermost, joined by <c>;</c>, with a count): the format
/// flame-graph tools read. Counts per layer come from each sample's innermost frame (where the CPU was; <see cref="LayerOf"/>).
/// </summary>
internal sealed class FoldedStacks
{
    private readonly Dictionary<string, long> _stacks = new(StringComparer.Ordinal);
    private readonly Dictionary<string, long> _layers = new(StringComparer.Ordinal);
    private readonly Dictionary<string, string> _frameLayers = new(StringComparer.Ordinal);

    /// <summary>Samples added.</summary>
    public long Samples { get; private set; }

    /// <summary>Samples per layer of their innermost frame.</summary>
    public IReadOnlyDictionary<string, long> Layers => _layers;

    /// <summary>Each frame name's layer, for the flame graph's colours.</summary>
    public IReadOnlyDictionary<string, string> FrameLayers => _frameLayers;

    /// <summary>The stacks and their counts.</summary>
    public IReadOnlyDictionary<string, long> Stacks => _stacks;

    /// <summary>Adds one sample.</summary>
    /// <param name="thread">The thread's name, the stack's root.</param>
    /// <param name="frames">Its frames as <c>perf script</c> prints them: innermost first, each (symbol, file).</param>
    public void Add(string thread, IReadOnlyList<(string Symbol, string Dso)> frames)
    {
        if (frames.Count == 0) return;
        var names = new List<string>(frames.Count + 1) { thread.Replace(';', ',').Replace(' ', '_') };
        for (int i = 0; i < frames.Count; i++)
        {
            var (symbol, dso) = frames[frames.Count - 1 - i];
            var name = ProfileLayers.ShortName(symbol, dso);
            // Code built without frame pointers (librdkafka's threads) leaves perf walking garbage: a run of frames it
            // cannot name is one frame.
            if (name == "[unknown]" && names[^1] == name) continue;
            names.Add(name);
            if (!_frameLayers.ContainsKey(name)) _frameLayers[name] = ProfileLayers.Of(symbol, dso);
        }
        var stack = string.Join(';', names);
        _stacks[stack] = _stacks.GetValueOrDefault(stack) + 1;
        var leaf = LayerOf(frames);
        _layers[leaf] = _layers.GetValueOrDefault(leaf) + 1;
        Samples++;
    }

    /// <summary>The layer a sample's CPU counts for: its innermost frame's, except that the C library (a <c>malloc</c>, a
    /// <c>memcpy</c>) and code without a name count for the first caller that has a layer (librdkafka's <c>malloc</c> is
    /// librdkafka's cost); the kernel counts as itself.</summary>
    /// <param name="frames">Innermost first.</param>
    internal static string LayerOf(IReadOnlyList<(string Symbol, string Dso)> frames)
    {
        var innermost = ProfileLayers.Of(frames[0].Symbol, frames[0].Dso);
        if (innermost is not (ProfileLayers.SystemLibraries or ProfileLayers.UnnamedCode)) return innermost;
        for (int i = 1; i < frames.Count; i++)
        {
            var layer = ProfileLayers.Of(frames[i].Symbol, frames[i].Dso);
            if (layer is not (ProfileLayers.SystemLibraries or ProfileLayers.UnnamedCode or ProfileLayers.Kernel)) return layer;
        }
        return innermost;
    }

    /// <summary>Writes the stacks, one per line, most samples first.</summary>
    /// <param name="path">The file; written whole or not at all.</param>
    public void Write(string path)
    {
        var temporary = path + ".partial";
        using (var writer = new StreamWriter(temporary))
        {
            foreach (var (stack, count) in _stacks.OrderByDescending(s => s.Value).ThenBy(s => s.Key, StringComparer.Ordinal))
                writer.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{stack} {count}"));
        }
        File.Move(temporary, path, overwrite: false);
    }
}
