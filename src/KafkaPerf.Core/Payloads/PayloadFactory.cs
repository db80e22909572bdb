using System.Globalization;
using System.Text;

namespace KafkaPerf.Payloads;

/// <summary>Builds payloads before timing starts.</summary>
public static class PayloadFactory
{
    private static readonly string[] Methods = ["GET", "GET", "GET", "GET", "POST", "POST", "PUT", "DELETE", "HEAD"];
    private static readonly string[] Paths =
    [
        "/", "/index.html", "/api/v1/orders", "/api/v1/orders/{0}", "/api/v1/customers/{0}/invoices", "/static/js/app.{0}.js",
        "/static/css/site.css", "/images/products/{0}.jpg", "/search?q=kafka+benchmark&page={1}", "/cart/checkout", "/login", "/health",
    ];
    private static readonly int[] Statuses = [200, 200, 200, 200, 200, 200, 201, 204, 301, 304, 400, 401, 404, 500, 503];
    private static readonly string[] Referrers = ["-", "https://www.example.com/", "https://www.example.com/shop", "https://search.example.org/?q=widgets"];
    private static readonly string[] Agents =
    [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
        "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0",
        "curl/8.5.0", "kube-probe/1.31", "Googlebot/2.1 (+http://www.google.com/bot.html)",
    ];

    /// <summary>Creates a payload of exactly <paramref name="payloadBytes"/> bytes.</summary>
    /// <param name="kind">What the bytes look like.</param>
    /// <param name="payloadBytes">Length in bytes.</param>
    /// <param name="seed">Seed of the random generator, so payloads are reproducible.</param>
    /// <param name="file">The file's bytes for <see cref="PayloadKind.File"/>.</param>
    /// <returns>The payload.</returns>
    public static byte[] Create(PayloadKind kind, int payloadBytes, int seed, ReadOnlyMemory<byte> file = default)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(payloadBytes);
        var payload = new byte[payloadBytes];
        switch (kind)
        {
            case PayloadKind.Random:
                new Random(seed).NextBytes(payload);
                break;
            case PayloadKind.AccessLog:
                FillAccessLog(payload, seed);
                break;
            case PayloadKind.File:
                if (file.IsEmpty) throw new ArgumentException("A file payload needs the file's bytes, and the file is empty.", nameof(file));
                for (int offset = 0; offset < payload.Length; offset += file.Length)
                    file.Span[..Math.Min(file.Length, payload.Length - offset)].CopyTo(payload.AsSpan(offset));
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(kind), kind, "Unknown payload kind.");
        }
        return payload;
    }

    /// <summary>Combined-log-format lines, one after another, cut at the payload's length.</summary>
    private static void FillAccessLog(byte[] payload, int seed)
    {
        var random = new Random(seed);
        var time = new DateTimeOffset(2026, 11, 22, 8, 0, 0, TimeSpan.Zero);
        var text = new StringBuilder(payload.Length + 512);
        while (text.Length < payload.Length)
        {
            time = time.AddMilliseconds(random.Next(1, 400));
            var path = string.Format(CultureInfo.InvariantCulture, Paths[random.Next(Paths.Length)], random.Next(1, 100_000), random.Next(1, 20));
            text.Append(CultureInfo.InvariantCulture,
                $"{random.Next(1, 255)}.{random.Next(0, 255)}.{random.Next(0, 255)}.{random.Next(1, 255)} - - [{time.ToString("dd/MMM/yyyy:HH:mm:ss zz00", CultureInfo.InvariantCulture)}] ")
                .Append(CultureInfo.InvariantCulture, $"\"{Methods[random.Next(Methods.Length)]} {path} HTTP/1.1\" {Statuses[random.Next(Statuses.Length)]} {random.Next(0, 50_000)} ")
                .Append(CultureInfo.InvariantCulture, $"\"{Referrers[random.Next(Referrers.Length)]}\" \"{Agents[random.Next(Agents.Length)]}\"\n");
        }
        Encoding.ASCII.GetBytes(text.ToString(0, payload.Length), payload);
    }
}
