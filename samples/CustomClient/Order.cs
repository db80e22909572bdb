using System.Text.Json.Serialization;

namespace CustomClient;

/// <summary>What an application sends: an order, as JSON. <see cref="Payload"/> carries the benchmark's payload bytes, so
/// a record is as large as the run asks (plus the JSON around it) and can be checked on arrival.</summary>
public sealed record Order
{
    public long Id { get; init; }

    public string Customer { get; init; } = string.Empty;

    public decimal Amount { get; init; }

    public DateTimeOffset PlacedAt { get; init; }

    public byte[] Payload { get; init; } = [];
}

/// <summary>The serializer, generated at build time: what a careful application uses.</summary>
[JsonSerializable(typeof(Order))]
internal sealed partial class OrderJson : JsonSerializerContext;
