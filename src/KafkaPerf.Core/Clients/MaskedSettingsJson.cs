using System.Text.Json;
using System.Text.Json.Serialization;

namespace KafkaPerf.Clients;

/// <summary>
/// Writes a client's own <c>key=value</c> settings with every secret's value (<see cref="KafkaSecurity.IsSecret(string, string?)"/>)
/// as <see cref="KafkaSecurity.Hidden"/>: a plan document or a result never carries a password, whoever wrote it. Reading
/// keeps what was written; a plan read back refuses a hidden value.
/// </summary>
public sealed class MaskedSettingsJson : JsonConverter<IReadOnlyDictionary<string, string>>
{
    /// <inheritdoc />
    public override IReadOnlyDictionary<string, string>? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        JsonSerializer.Deserialize<Dictionary<string, string>>(ref reader, options);

    /// <inheritdoc />
    public override void Write(Utf8JsonWriter writer, IReadOnlyDictionary<string, string> value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(value);
        writer.WriteStartObject();
        foreach (var (key, setting) in value)
        {
            writer.WriteString(key, KafkaSecurity.IsSecret(key, setting) ? KafkaSecurity.Hidden : setting);
        }
        writer.WriteEndObject();
    }
}

/// <summary><see cref="MaskedSettingsJson"/> for every client's settings, by client name.</summary>
public sealed class MaskedClientSettingsJson : JsonConverter<IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>>>
{
    private static readonly MaskedSettingsJson Inner = new();

    /// <inheritdoc />
    public override IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>>? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        JsonSerializer.Deserialize<Dictionary<string, Dictionary<string, string>>>(ref reader, options)?
            .ToDictionary(p => p.Key, p => (IReadOnlyDictionary<string, string>)p.Value, StringComparer.OrdinalIgnoreCase);

    /// <inheritdoc />
    public override void Write(Utf8JsonWriter writer, IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(value);
        writer.WriteStartObject();
        foreach (var (client, settings) in value)
        {
            writer.WritePropertyName(client);
            Inner.Write(writer, settings, options);
        }
        writer.WriteEndObject();
    }
}
