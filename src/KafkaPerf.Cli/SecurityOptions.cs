using System.CommandLine;
using System.Security.Cryptography;
using KafkaPerf.Adapters;
using KafkaPerf.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Running;

namespace KafkaPerf.Cli;

/// <summary>
/// <c>--security</c>, <c>--sasl-mechanism</c>, <c>--sasl-credentials</c> and <c>--ssl-ca</c>, shared by <c>run</c>,
/// <c>find-rate</c> and <c>broker</c>. Credentials come from a file or from the environment, never from a flag: a flag
/// shows in every process list.
/// </summary>
internal static class SecurityOptions
{
    /// <summary>The SASL user, when no credentials file is named.</summary>
    public const string UsernameVariable = ChildEnvironment.UsernameVariable;

    /// <summary>The SASL password, when no credentials file is named.</summary>
    public const string PasswordVariable = ChildEnvironment.PasswordVariable;

    /// <summary>The user the embedded cluster creates when none is given.</summary>
    public const string EmbeddedUser = "kafkaperf";

    public static readonly Option<string?> Security = new("--security")
    {
        Description = "The client listener's protocol: plaintext (default), ssl, sasl-plaintext or sasl-ssl. The embedded cluster then starts with that "
            + "listener, its own certificate and its SASL user; with --bootstrap, clients connect so.",
    };

    public static readonly Option<string?> Mechanism = new("--sasl-mechanism")
    {
        Description = "PLAIN (default), SCRAM-SHA-256 or SCRAM-SHA-512, with --security sasl-plaintext or sasl-ssl.",
    };

    public static readonly Option<string?> Credentials = new("--sasl-credentials")
    {
        Description = $"A file of username=… and password=… lines; without it, {UsernameVariable} and {PasswordVariable}. The embedded cluster "
            + $"creates that user ({EmbeddedUser} with a random password when neither is given). Never on the command line.",
    };

    public static readonly Option<string?> CaFile = new("--ssl-ca")
    {
        Description = "The PEM file of the CA that signed a --bootstrap cluster's certificates (default: the system's CAs). The embedded cluster makes its own.",
    };

    /// <summary>Every option, for a command's list.</summary>
    public static IEnumerable<Option> All => [Security, Mechanism, Credentials, CaFile];

    /// <summary>Reads the options into a security setting.</summary>
    /// <param name="parse">The command line.</param>
    /// <param name="embedded">Whether KafkaPerf starts the cluster (it then makes the certificate and the user).</param>
    /// <returns>The security; plain TCP when <c>--security</c> is not given.</returns>
    /// <exception cref="PlanValidationException">A value is wrong, a file missing, or SASL without credentials; one line.</exception>
    public static KafkaSecurity Read(ParseResult parse, bool embedded)
    {
        var protocol = SecurityProtocol.Plaintext;
        if (parse.GetValue(Security) is { } text && !KafkaSecurity.TryParseProtocol(text.Trim(), out protocol))
            throw new PlanValidationException($"--security '{text}' is not plaintext, ssl, sasl-plaintext or sasl-ssl.");
        var mechanism = SaslMechanism.Plain;
        bool sasl = protocol is SecurityProtocol.SaslPlaintext or SecurityProtocol.SaslSsl;
        if (parse.GetValue(Mechanism) is { } mechanismText)
        {
            if (!KafkaSecurity.TryParseMechanism(mechanismText.Trim(), out mechanism))
                throw new PlanValidationException($"--sasl-mechanism '{mechanismText}' is not PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512.");
            if (!sasl) throw new PlanValidationException("--sasl-mechanism needs --security sasl-plaintext or sasl-ssl.");
        }
        var credentialsFile = parse.GetValue(Credentials);
        if (credentialsFile is not null && !sasl) throw new PlanValidationException("--sasl-credentials needs --security sasl-plaintext or sasl-ssl.");
        var caFile = parse.GetValue(CaFile);
        if (caFile is not null)
        {
            if (embedded) throw new PlanValidationException("--ssl-ca names the CA of a --bootstrap cluster: the embedded cluster makes and trusts its own certificate; leave --ssl-ca out.");
            if (protocol is not (SecurityProtocol.Ssl or SecurityProtocol.SaslSsl)) throw new PlanValidationException("--ssl-ca needs --security ssl or sasl-ssl.");
            if (!File.Exists(caFile)) throw new PlanValidationException($"--ssl-ca '{caFile}' does not exist: give the PEM file of the CA that signed the brokers' certificates.");
            caFile = Path.GetFullPath(caFile);
        }
        if (!sasl) return new KafkaSecurity(protocol, caFile: caFile);

        var (username, password) = credentialsFile is not null ? ReadFile(credentialsFile)
            : (Environment.GetEnvironmentVariable(UsernameVariable), Environment.GetEnvironmentVariable(PasswordVariable));
        if (embedded)
        {
            username = string.IsNullOrEmpty(username) ? EmbeddedUser : username;
            password = string.IsNullOrEmpty(password) ? Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(16)) : password;
        }
        else if (string.IsNullOrEmpty(username) || string.IsNullOrEmpty(password))
        {
            throw new PlanValidationException(
                $"--security {KafkaSecurity.CliName(protocol)} needs credentials: name a file of username= and password= lines with --sasl-credentials, or set {UsernameVariable} and {PasswordVariable}.");
        }
        return new KafkaSecurity(protocol, mechanism, username, password, caFile);
    }

    private static (string? Username, string? Password) ReadFile(string path)
    {
        string[] lines;
        try
        {
            lines = File.ReadAllLines(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new PlanValidationException($"--sasl-credentials '{path}' cannot be read ({ex.GetType().Name}): give a readable file of username= and password= lines.");
        }
        string? username = null, password = null;
        foreach (var line in lines)
        {
            int equals = line.IndexOf('=', StringComparison.Ordinal);
            if (equals <= 0) continue;
            var key = line[..equals].Trim();
            var value = line[(equals + 1)..].TrimEnd('\r');
            if (key is "username" or "sasl.username") username = value.Trim();
            else if (key is "password" or "sasl.password") password = value;
        }
        if (string.IsNullOrEmpty(username) || string.IsNullOrEmpty(password))
            throw new PlanValidationException($"--sasl-credentials '{path}' needs a username= line and a password= line.");
        return (username, password);
    }
}
