namespace KafkaPerf.Payloads;

/// <summary>Builds payloads before timing starts.</summary>
public static class PayloadFactory
{
    /// <summary>Creates a payload of exactly <paramref name="payloadBytes"/> bytes.</summary>
    /// <param name="kind">What the bytes look like.</param>
    /// <param name="payloadBytes">Length in bytes.</param>
    /// <param name="seed">Seed of the random generator, so payloads are reproducible.</param>
    /// <returns>The payload.</returns>
    public static byte[] Create(PayloadKind kind, int payloadBytes, int seed)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(payloadBytes);
        var payload = new byte[payloadBytes];
        switch (kind)
        {
            case PayloadKind.Random:
                new Random(seed).NextBytes(payload);
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(kind), kind, "Unknown payload kind.");
        }
        return payload;
    }
}
