using System.Text;

namespace KafkaPerf.Adapters;

/// <summary>Lines written through it go to another writer with a prefix in place of its own <c>kafkaperf: </c>
/// (a worker's lines say which worker they are).</summary>
/// <param name="inner">Where the lines go.</param>
/// <param name="prefix">What each line starts with.</param>
internal sealed class PrefixedWriter(TextWriter inner, string prefix) : TextWriter
{
    private const string ToolPrefix = "kafkaperf: ";

    /// <inheritdoc />
    public override Encoding Encoding => inner.Encoding;

    /// <inheritdoc />
    public override void WriteLine(string? value)
    {
        var line = value ?? string.Empty;
        inner.WriteLine(prefix + (line.StartsWith(ToolPrefix, StringComparison.Ordinal) ? line[ToolPrefix.Length..] : line));
    }

    /// <inheritdoc />
    public override void Write(char value) => inner.Write(value);
}
