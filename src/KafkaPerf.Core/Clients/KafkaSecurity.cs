using System.Globalization;

namespace KafkaPerf.Clients;

/// <summary>How clients reach a Kafka listener: Kafka's <c>security.protocol</c>.</summary>
public enum SecurityProtocol
{
    /// <summary>No TLS, no authentication (<c>PLAINTEXT</c>).</summary>
    Plaintext,

    /// <summary>TLS, no authentication (<c>SSL</c>).</summary>
    Ssl,

    /// <summary>SASL authentication over plain TCP (<c>SASL_PLAINTEXT</c>).</summary>
    SaslPlaintext,

    /// <summary>SASL authentication over TLS (<c>SASL_SSL</c>).</summary>
    SaslSsl,
}

/// <summary>The SASL mechanism: Kafka's <c>sasl.mechanism</c>.</summary>
public enum SaslMechanism
{
    /// <summary><c>PLAIN</c>: user name and password, sent as they are (over TLS in production).</summary>
    Plain,

    /// <summary><c>SCRAM-SHA-256</c>: a salted challenge, the password never sent.</summary>
    ScramSha256,

    /// <summary><c>SCRAM-SHA-512</c>.</summary>
    ScramSha512,
}

/// <summary>
/// What a client needs to reach a secured listener: the protocol, the SASL mechanism and credentials, and the CA
/// certificate (PEM) that signed the brokers' certificates. Every client adapter turns it into its own keys (the parity
/// tables); the password is handed to clients in memory or in a file only its owner reads, never on a command line, and
/// <see cref="ToString"/> never shows it.
/// </summary>
public sealed class KafkaSecurity
{
    /// <summary>Where a secret's value stood, in every configuration KafkaPerf shows.</summary>
    public const string Hidden = "[hidden]";

    private static readonly string[] SecretParts =
        ["password", "secret", "passphrase", "private.key", "key.pem", "sasl.oauthbearer.config", "ssl.key", "jaas.config", "credentials"];

    private readonly string? _password;

    /// <summary>Creates a security setting.</summary>
    /// <param name="protocol">The listener's protocol.</param>
    /// <param name="mechanism">The SASL mechanism (ignored without SASL).</param>
    /// <param name="username">The SASL user (required with SASL).</param>
    /// <param name="password">The SASL password (required with SASL).</param>
    /// <param name="caFile">A PEM file of the CA certificate(s) to trust with TLS; the system's when <see langword="null"/>.</param>
    /// <exception cref="ArgumentException">SASL without a user or password.</exception>
    public KafkaSecurity(SecurityProtocol protocol, SaslMechanism mechanism = SaslMechanism.Plain, string? username = null, string? password = null,
        string? caFile = null)
    {
        Protocol = protocol;
        Mechanism = mechanism;
        if (UsesSasl && (string.IsNullOrEmpty(username) || string.IsNullOrEmpty(password)))
            throw new ArgumentException("SASL needs a user name and a password.", nameof(password));
        Username = UsesSasl ? username : null;
        _password = UsesSasl ? password : null;
        CaFile = UsesTls ? caFile : null;
    }

    /// <summary>Plain TCP, no authentication: Kafka's default.</summary>
    public static KafkaSecurity Plaintext { get; } = new(SecurityProtocol.Plaintext);

    /// <summary>The listener's protocol.</summary>
    public SecurityProtocol Protocol { get; }

    /// <summary>The SASL mechanism, meaningful when <see cref="UsesSasl"/>.</summary>
    public SaslMechanism Mechanism { get; }

    /// <summary>The SASL user, when <see cref="UsesSasl"/>.</summary>
    public string? Username { get; }

    /// <summary>The CA certificate file (PEM) trusted with TLS; the system's trust store when <see langword="null"/>.</summary>
    public string? CaFile { get; }

    /// <summary>Whether clients authenticate with SASL.</summary>
    public bool UsesSasl => Protocol is SecurityProtocol.SaslPlaintext or SecurityProtocol.SaslSsl;

    /// <summary>Whether the connection is TLS.</summary>
    public bool UsesTls => Protocol is SecurityProtocol.Ssl or SecurityProtocol.SaslSsl;

    /// <summary>Whether this is anything but plain TCP without authentication.</summary>
    public bool IsSecured => Protocol != SecurityProtocol.Plaintext;

    /// <summary>Kafka's name of the protocol, e.g. <c>SASL_SSL</c>.</summary>
    public string ProtocolName => KafkaName(Protocol);

    /// <summary>Kafka's name of the mechanism, e.g. <c>SCRAM-SHA-512</c>.</summary>
    public string MechanismName => KafkaName(Mechanism);

    /// <summary>The password, for the adapters that hand it to a client (in memory, or in a file only the owner reads).</summary>
    /// <returns>The password; <see langword="null"/> without SASL.</returns>
    public string? RevealPassword() => _password;

    /// <summary>The same security with another CA file (the embedded cluster's own).</summary>
    public KafkaSecurity WithCaFile(string? caFile) => new(Protocol, Mechanism, Username, _password, caFile);

    /// <summary>librdkafka's keys (<c>confluent</c>, <c>kcat</c>).</summary>
    public List<KeyValuePair<string, string>> LibrdkafkaProperties()
    {
        var properties = new List<KeyValuePair<string, string>> { new("security.protocol", ProtocolName.ToLowerInvariant()) };
        if (UsesSasl)
        {
            properties.Add(new("sasl.mechanisms", MechanismName));
            properties.Add(new("sasl.username", Username!));
            properties.Add(new("sasl.password", _password!));
        }
        if (CaFile is not null) properties.Add(new("ssl.ca.location", CaFile));
        return properties;
    }

    /// <summary>The Java client's keys (<c>java</c>, <c>kafka-tools</c>).</summary>
    public List<KeyValuePair<string, string>> JavaProperties()
    {
        var properties = new List<KeyValuePair<string, string>> { new("security.protocol", ProtocolName) };
        if (UsesSasl)
        {
            properties.Add(new("sasl.mechanism", MechanismName));
            string module = Mechanism == SaslMechanism.Plain
                ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
            properties.Add(new("sasl.jaas.config", $"{module} required username=\"{JaasEscape(Username!)}\" password=\"{JaasEscape(_password!)}\";"));
        }
        if (CaFile is not null)
        {
            properties.Add(new("ssl.truststore.type", "PEM"));
            properties.Add(new("ssl.truststore.location", CaFile));
        }
        return properties;
    }

    /// <summary>For results and lines: protocol, mechanism, user and CA file, never the password.</summary>
    public override string ToString()
    {
        var text = ProtocolName;
        if (UsesSasl) text += string.Create(CultureInfo.InvariantCulture, $" ({MechanismName}, user {Username})");
        if (UsesTls) text += CaFile is null ? ", system CAs" : $", CA {CaFile}";
        return text;
    }

    /// <summary>Whether a configuration key holds a secret (a password, a key, a JAAS configuration).</summary>
    public static bool IsSecret(string key) => SecretParts.Any(part => key.Contains(part, StringComparison.OrdinalIgnoreCase));

    /// <summary>Whether a setting holds a secret: by its key (<see cref="IsSecret(string)"/>), or by a value that carries one
    /// (<c>password=…</c>, <c>token=…</c> inside a JAAS or OAuth configuration under any key).</summary>
    /// <param name="key">The setting's key.</param>
    /// <param name="value">Its value.</param>
    /// <returns><see langword="true"/> when it must not be shown.</returns>
    public static bool IsSecret(string key, string? value) =>
        IsSecret(key) || (value is not null && SecretValueParts.Any(part => value.Contains(part, StringComparison.OrdinalIgnoreCase)));

    private static readonly string[] SecretValueParts = ["password=", "password =", "secret=", "secret =", "token=", "token =", "passphrase="];

    /// <summary>A configuration with every secret's value replaced by <see cref="Hidden"/>.</summary>
    public static Dictionary<string, string> Mask(IEnumerable<KeyValuePair<string, string>> config)
    {
        ArgumentNullException.ThrowIfNull(config);
        var masked = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var (key, value) in config) masked[key] = IsSecret(key, value) ? Hidden : value;
        return masked;
    }

    /// <summary>The command-line spelling, e.g. <c>sasl-ssl</c>.</summary>
    public static string CliName(SecurityProtocol protocol) => KafkaName(protocol).ToLowerInvariant().Replace('_', '-');

    /// <summary>Parses <c>plaintext|ssl|sasl-ssl|sasl-plaintext</c> (Kafka's spelling accepted too).</summary>
    public static bool TryParseProtocol(string text, out SecurityProtocol protocol)
    {
        foreach (var candidate in Enum.GetValues<SecurityProtocol>())
        {
            if (string.Equals(text.Replace('_', '-'), CliName(candidate), StringComparison.OrdinalIgnoreCase))
            {
                protocol = candidate;
                return true;
            }
        }
        protocol = default;
        return false;
    }

    /// <summary>Parses <c>PLAIN|SCRAM-SHA-256|SCRAM-SHA-512</c>, in any case.</summary>
    public static bool TryParseMechanism(string text, out SaslMechanism mechanism)
    {
        foreach (var candidate in Enum.GetValues<SaslMechanism>())
        {
            if (string.Equals(text, KafkaName(candidate), StringComparison.OrdinalIgnoreCase))
            {
                mechanism = candidate;
                return true;
            }
        }
        mechanism = default;
        return false;
    }

    /// <summary>Kafka's name of a protocol.</summary>
    public static string KafkaName(SecurityProtocol protocol) => protocol switch
    {
        SecurityProtocol.Ssl => "SSL",
        SecurityProtocol.SaslPlaintext => "SASL_PLAINTEXT",
        SecurityProtocol.SaslSsl => "SASL_SSL",
        _ => "PLAINTEXT",
    };

    /// <summary>Kafka's name of a mechanism.</summary>
    public static string KafkaName(SaslMechanism mechanism) => mechanism switch
    {
        SaslMechanism.ScramSha256 => "SCRAM-SHA-256",
        SaslMechanism.ScramSha512 => "SCRAM-SHA-512",
        _ => "PLAIN",
    };

    private static string JaasEscape(string value) => value.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal);
}
