using KafkaPerf.Clients;

namespace KafkaPerf.Core.Tests.Clients;

public class KafkaSecurityTests
{
    private const string Password = "p4ss\"word\\x";

    [Fact]
    public void ToString_NamesProtocolMechanismUserAndCa_NeverThePassword()
    {
        var security = new KafkaSecurity(SecurityProtocol.SaslSsl, SaslMechanism.ScramSha512, "alice", Password, "/etc/ca.pem");

        Assert.Equal("SASL_SSL (SCRAM-SHA-512, user alice), CA /etc/ca.pem", security.ToString());
    }

    [Fact]
    public void Properties_CarryTheSameSecurityInEachClientsKeys()
    {
        var security = new KafkaSecurity(SecurityProtocol.SaslSsl, SaslMechanism.ScramSha256, "alice", Password, "/etc/ca.pem");

        var librdkafka = security.LibrdkafkaProperties().ToDictionary();
        Assert.Equal("sasl_ssl", librdkafka["security.protocol"]);
        Assert.Equal("SCRAM-SHA-256", librdkafka["sasl.mechanisms"]);
        Assert.Equal(Password, librdkafka["sasl.password"]);
        Assert.Equal("/etc/ca.pem", librdkafka["ssl.ca.location"]);

        var java = security.JavaProperties().ToDictionary();
        Assert.Equal("SASL_SSL", java["security.protocol"]);
        Assert.Equal("SCRAM-SHA-256", java["sasl.mechanism"]);
        // JAAS quotes: the password's own quote and backslash are escaped.
        Assert.Equal("org.apache.kafka.common.security.scram.ScramLoginModule required username=\"alice\" password=\"p4ss\\\"word\\\\x\";", java["sasl.jaas.config"]);
        Assert.Equal("PEM", java["ssl.truststore.type"]);
        Assert.Equal("/etc/ca.pem", java["ssl.truststore.location"]);
    }

    [Fact]
    public void Plaintext_HasNoSaslNorTls()
    {
        var security = new KafkaSecurity(SecurityProtocol.Ssl, SaslMechanism.Plain, "ignored", "ignored");

        Assert.False(security.UsesSasl);
        Assert.Null(security.RevealPassword());
        Assert.Equal([new("security.protocol", "SSL")], security.JavaProperties());
        Assert.False(KafkaSecurity.Plaintext.IsSecured);
    }

    [Fact]
    public void Sasl_WithoutPassword_Throws() =>
        Assert.Throws<ArgumentException>(() => new KafkaSecurity(SecurityProtocol.SaslPlaintext, SaslMechanism.Plain, "alice", null));

    [Theory]
    [InlineData("sasl.password", true)]
    [InlineData("sasl.jaas.config", true)]
    [InlineData("listener.name.client.ssl.keystore.password", true)]
    [InlineData("listener.name.client.plain.sasl.jaas.config", true)]
    [InlineData("ssl.key.pem", true)]
    [InlineData("sasl.username", false)]
    [InlineData("security.protocol", false)]
    [InlineData("bootstrap.servers", false)]
    public void IsSecret_KnowsKeysThatHoldSecrets(string key, bool secret) => Assert.Equal(secret, KafkaSecurity.IsSecret(key));

    [Fact]
    public void Mask_HidesSecretValuesAndKeepsTheRest()
    {
        var masked = KafkaSecurity.Mask([new("sasl.password", Password), new("acks", "all")]);

        Assert.Equal(KafkaSecurity.Hidden, masked["sasl.password"]);
        Assert.Equal("all", masked["acks"]);
    }

    [Theory]
    [InlineData("sasl-ssl", SecurityProtocol.SaslSsl)]
    [InlineData("SASL_PLAINTEXT", SecurityProtocol.SaslPlaintext)]
    [InlineData("ssl", SecurityProtocol.Ssl)]
    [InlineData("plaintext", SecurityProtocol.Plaintext)]
    public void TryParseProtocol_ReadsBothSpellings(string text, SecurityProtocol expected)
    {
        Assert.True(KafkaSecurity.TryParseProtocol(text, out var protocol));
        Assert.Equal(expected, protocol);
        Assert.False(KafkaSecurity.TryParseProtocol("tls", out _));
    }

    [Fact]
    public void TryParseMechanism_IgnoresCase()
    {
        Assert.True(KafkaSecurity.TryParseMechanism("scram-sha-512", out var mechanism));
        Assert.Equal(SaslMechanism.ScramSha512, mechanism);
        Assert.False(KafkaSecurity.TryParseMechanism("GSSAPI", out _));
    }
}
