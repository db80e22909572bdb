using System.Text.Json;
using System.Text.Json.Serialization;

namespace KafkaPerf.Clients;

/// <summary>A <see cref="KeySpec"/> in JSON as its text (<c>"zipf:1000:1.1"</c>), as the command line spells it.</summary>
public sealed class KeySpecJson : JsonConverter<KeySpec>
{
    /// <inheritdoc />
    public override KeySpec? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.GetString() is { } text ? Parsed(() => KeySpec.Parse(text)) : null;

    /// <inheritdoc />
    public override void Write(Utf8JsonWriter writer, KeySpec value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStringValue(value?.ToString());
    }

    /// <summary>A parse error as the JSON reader's own, which callers report with the file's name.</summary>
    internal static T Parsed<T>(Func<T> parse)
    {
        try
        {
            return parse();
        }
        catch (FormatException ex)
        {
            throw new JsonException(ex.Message, ex);
        }
    }
}

/// <summary>A <see cref="HeaderSpec"/> in JSON as its text (<c>"5:32"</c>).</summary>
public sealed class HeaderSpecJson : JsonConverter<HeaderSpec>
{
    /// <inheritdoc />
    public override HeaderSpec? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.GetString() is { } text ? KeySpecJson.Parsed(() => HeaderSpec.Parse(text)) : null;

    /// <inheritdoc />
    public override void Write(Utf8JsonWriter writer, HeaderSpec value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStringValue(value?.ToString());
    }
}

/// <summary>A <see cref="NetworkSpec"/> in JSON as its text (<c>"rtt=5ms,jitter=0.2ms"</c>).</summary>
public sealed class NetworkSpecJson : JsonConverter<NetworkSpec>
{
    /// <inheritdoc />
    public override NetworkSpec? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.GetString() is { } text ? KeySpecJson.Parsed(() => NetworkSpec.Parse(text)) : null;

    /// <inheritdoc />
    public override void Write(Utf8JsonWriter writer, NetworkSpec value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStringValue(value?.ToString());
    }
}
