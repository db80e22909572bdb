using System.Globalization;
using System.Text;

namespace KafkaPerf.Clients;

/// <summary>How a plan shapes the links to and between the embedded nodes (<c>--network</c>): comma-joined
/// <c>rtt=2ms</c> (half each way), <c>client-rtt=</c> and <c>broker-rtt=</c> (client links and inter-broker links apart),
/// <c>jitter=0.2ms</c> (each one-way delay ± up to this much, uniform), <c>rate=1gbit</c> (per link and direction) and
/// <c>via=proxy|netem</c>. Several specs sweep like the client knobs; they are separated by <c>;</c> (a spec holds
/// commas) or given by repeating the option.</summary>
/// <param name="ClientRtt">The round trip added between clients and each node.</param>
/// <param name="BrokerRtt">The round trip added between nodes (replica fetches, the brokers' own requests).</param>
/// <param name="Jitter">How far each one-way delay may stray either way (uniform), on the links that have a delay; zero for none.</param>
/// <param name="RateBitsPerSecond">Each link's rate per direction, in bits per second; <see langword="null"/> for no limit.</param>
/// <param name="ViaNetem">Whether the kernel's <c>netem</c> is asked for instead of the proxy (refused where it cannot run).</param>
/// <remarks>The controllers' quorum traffic is not shaped: it decides who leads, not how fast records move.</remarks>
public sealed record NetworkSpec(TimeSpan ClientRtt, TimeSpan BrokerRtt, TimeSpan Jitter, long? RateBitsPerSecond, bool ViaNetem = false)
{
    /// <summary>The longest round trip accepted: beyond a minute no Kafka client's defaults hold a connection.</summary>
    public static readonly TimeSpan MaxRtt = TimeSpan.FromSeconds(60);

    private const string Keys = "rtt, client-rtt, broker-rtt, jitter, rate, via";

    /// <summary>Parses one spec, e.g. <c>rtt=5ms,jitter=0.2ms,rate=1gbit</c>.</summary>
    /// <param name="text">The spec.</param>
    /// <returns>The spec.</returns>
    /// <exception cref="FormatException">An unknown key, a negative value or a unit not understood; the message says what is
    /// expected.</exception>
    public static NetworkSpec Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        TimeSpan? rtt = null, client = null, broker = null;
        TimeSpan jitter = TimeSpan.Zero;
        long? rate = null;
        bool netem = false;
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var part in text.Split(',', StringSplitOptions.TrimEntries))
        {
            int eq = part.IndexOf('=', StringComparison.Ordinal);
            if (eq <= 0) throw Bad(text, $"'{part}' is not key=value (keys: {Keys})");
            string key = part[..eq].Trim().ToLowerInvariant(), value = part[(eq + 1)..].Trim();
            if (!seen.Add(key)) throw Bad(text, $"'{key}' is given twice");
            switch (key)
            {
                case "rtt": rtt = Duration(text, key, value); break;
                case "client-rtt": client = Duration(text, key, value); break;
                case "broker-rtt": broker = Duration(text, key, value); break;
                case "jitter": jitter = Duration(text, key, value); break;
                case "rate": rate = Rate(text, value); break;
                case "via":
                    netem = value.ToLowerInvariant() switch
                    {
                        "proxy" => false,
                        "netem" => true,
                        _ => throw Bad(text, $"via '{value}' is neither proxy nor netem"),
                    };
                    break;
                default: throw Bad(text, $"'{key}' is not a key (keys: {Keys})");
            }
        }
        if (rtt is null && client is null && broker is null && rate is null)
            throw Bad(text, "it sets no round trip and no rate: give rtt= (e.g. rtt=5ms), client-rtt=, broker-rtt= or rate=");
        var spec = new NetworkSpec(client ?? rtt ?? TimeSpan.Zero, broker ?? rtt ?? TimeSpan.Zero, jitter, rate, netem);
        // A delay cannot go below zero: more jitter than the one-way delay would be clipped, and the spread not as asked.
        var delays = new[] { spec.ClientOneWay, spec.BrokerOneWay }.Where(d => d > TimeSpan.Zero).ToList();
        if (jitter > TimeSpan.Zero && (delays.Count == 0 || jitter > delays.Min()))
            throw Bad(text, $"jitter {FormatDuration(jitter)} is more than a one-way delay (half the round trip): keep it at most rtt/2");
        return spec;
    }

    /// <summary>Parses a list of specs separated by <c>;</c>, e.g. <c>rtt=1ms;rtt=5ms,jitter=0.5ms</c>.</summary>
    /// <param name="text">The list.</param>
    /// <returns>The specs, in order, each once.</returns>
    /// <exception cref="FormatException">One spec is malformed.</exception>
    public static IReadOnlyList<NetworkSpec> ParseList(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var specs = text.Split(';', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries).Select(Parse).Distinct().ToList();
        if (specs.Count == 0) throw new FormatException("--network is empty: give a spec such as rtt=5ms, or several separated by ';'.");
        return specs;
    }

    /// <summary>The one-way delay of a client link: half its round trip.</summary>
    public TimeSpan ClientOneWay => ClientRtt / 2;

    /// <summary>The one-way delay of an inter-broker link: half its round trip.</summary>
    public TimeSpan BrokerOneWay => BrokerRtt / 2;

    /// <summary>The canonical text, which <see cref="Parse"/> reads back: <c>rtt=</c> when both round trips are the
    /// same, else <c>client-rtt=…,broker-rtt=…</c>, then jitter, rate and via when set.</summary>
    public override string ToString()
    {
        var text = new StringBuilder();
        if (ClientRtt == BrokerRtt) text.Append("rtt=").Append(FormatDuration(ClientRtt));
        else text.Append("client-rtt=").Append(FormatDuration(ClientRtt)).Append(",broker-rtt=").Append(FormatDuration(BrokerRtt));
        if (Jitter > TimeSpan.Zero) text.Append(",jitter=").Append(FormatDuration(Jitter));
        if (RateBitsPerSecond is { } rate) text.Append(",rate=").Append(FormatRate(rate));
        if (ViaNetem) text.Append(",via=netem");
        return text.ToString();
    }

    /// <summary>A duration as the spec spells it: whole microseconds as <c>us</c>, else <c>ms</c>.</summary>
    internal static string FormatDuration(TimeSpan value)
    {
        double micros = value.Ticks / 10.0;
        if (micros == 0) return "0ms";
        double ms = micros / 1000;
        return micros % 1000 == 0 || micros >= 100 ? ms.ToString("0.###", CultureInfo.InvariantCulture) + "ms"
            : micros.ToString("0.#", CultureInfo.InvariantCulture) + "us";
    }

    private static string FormatRate(long bits)
    {
        foreach (var (unit, size) in new[] { ("gbit", 1_000_000_000L), ("mbit", 1_000_000L), ("kbit", 1_000L) })
            if (bits % size == 0) return (bits / size).ToString(CultureInfo.InvariantCulture) + unit;
        return bits.ToString(CultureInfo.InvariantCulture) + "bit";
    }

    private static TimeSpan Duration(string text, string key, string value)
    {
        var units = new (string Suffix, double Micros)[] { ("us", 1), ("µs", 1), ("ms", 1000), ("s", 1_000_000) };
        foreach (var (suffix, micros) in units)
        {
            if (!value.EndsWith(suffix, StringComparison.OrdinalIgnoreCase)) continue;
            var number = value[..^suffix.Length];
            if (!double.TryParse(number, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var amount))
                throw Bad(text, number.StartsWith('-') ? $"{key} '{value}' is negative" : $"{key} '{value}' is not a number");
            var duration = TimeSpan.FromTicks((long)Math.Round(amount * micros * 10));
            if (duration > MaxRtt) throw Bad(text, $"{key} '{value}' is more than {MaxRtt.TotalSeconds:0} s");
            return duration;
        }
        throw Bad(text, $"{key} '{value}' has no unit: use us, ms or s (e.g. {key}=5ms)");
    }

    private static long Rate(string text, string value)
    {
        var units = new (string Suffix, double Bits)[]
        {
            ("gbit", 1e9), ("mbit", 1e6), ("kbit", 1e3), ("bit", 1), ("gbps", 1e9), ("mbps", 1e6), ("kbps", 1e3),
        };
        foreach (var (suffix, bits) in units)
        {
            if (!value.EndsWith(suffix, StringComparison.OrdinalIgnoreCase)) continue;
            var number = value[..^suffix.Length];
            if (!double.TryParse(number, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var amount))
                throw Bad(text, number.StartsWith('-') ? $"rate '{value}' is negative" : $"rate '{value}' is not a number");
            long rate = (long)Math.Round(amount * bits);
            // Below 8 kbit/s a single Kafka request takes seconds to pass: a typo, not a network.
            if (rate < 8_000) throw Bad(text, $"rate '{value}' is below 8kbit");
            return rate;
        }
        throw Bad(text, $"rate '{value}' has no unit: use kbit, mbit or gbit (bits per second, e.g. rate=1gbit)");
    }

    private static FormatException Bad(string text, string why) =>
        new($"--network '{text}' is not a network spec: {why}. A spec is comma-joined rtt=5ms, jitter=0.2ms, rate=1gbit, client-rtt=, broker-rtt=; several are separated by ';'.");
}
