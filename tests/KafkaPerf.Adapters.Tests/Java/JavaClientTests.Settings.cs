using System.Buffers.Binary;
using Confluent.Kafka;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Adapters.Java;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Tests.Java;

/// <summary>The java client's settings checked and warned about before a run: no broker needed.</summary>
public sealed partial class JavaClientTests
{
    [Fact]
    public void CheckSettings_UnknownKeyAndBadValue_OneLineEach()
    {
        var factory = new JavaClientFactory(batched: false, JavaTestJvm.Options);

        var unknown = factory.CheckSettings(new ClientSettings { Overrides = new Dictionary<string, string> { ["linger.mss"] = "5" } });
        var bad = factory.CheckSettings(new ClientSettings { Overrides = new Dictionary<string, string> { ["batch.size"] = "big" } });
        var good = factory.CheckSettings(ClientSettings.SeedProfile with { Overrides = new Dictionary<string, string> { ["buffer.memory"] = "67108864" } });

        Assert.Equal("'linger.mss' is not a setting of the Java producer or consumer", unknown);
        Assert.Contains("batch.size", bad, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', bad!);
        Assert.Null(good);
    }

    [Fact]
    public void SettingsWarnings_DefaultsThatDifferFromLibrdkafka_WarnedUntilSet()
    {
        var factory = new JavaClientFactory(batched: true, JavaTestJvm.Options);

        var defaults = factory.SettingsWarnings(ClientSettings.ClientDefaults);
        var seed = factory.SettingsWarnings(ClientSettings.SeedProfile);
        var idempotent = factory.SettingsWarnings(ClientSettings.SeedProfile with { Overrides = new Dictionary<string, string> { ["enable.idempotence"] = "true" } });

        Assert.Equal(2, defaults.Count);
        Assert.Contains(defaults, w => w.StartsWith("batch.size is unset", StringComparison.Ordinal));
        Assert.Contains(defaults, w => w.StartsWith("max.in.flight is unset", StringComparison.Ordinal));
        Assert.Empty(seed);
        Assert.StartsWith("-X java-batched:enable.idempotence=true", Assert.Single(idempotent), StringComparison.Ordinal);
    }

    [Fact]
    public void FailoverWarnings_DefaultsThatDifferFromLibrdkafka_OneLineNamingEachUntilSet()
    {
        var factory = new JavaClientFactory(batched: false, JavaTestJvm.Options);
        var timeoutsSet = new Dictionary<string, string>
        {
            ["delivery.timeout.ms"] = "300000", ["reconnect.backoff.max.ms"] = "10000", ["socket.connection.setup.timeout.ms"] = "30000",
        };

        var defaults = Assert.Single(factory.FailoverWarnings(ClientSettings.ClientDefaults));
        var onlyRequest = Assert.Single(factory.FailoverWarnings(ClientSettings.ClientDefaults with { Overrides = timeoutsSet }));
        var none = factory.FailoverWarnings(ClientSettings.ClientDefaults with
        {
            Overrides = new Dictionary<string, string>(timeoutsSet) { ["request.timeout.ms"] = "30000" },
        });

        Assert.Contains("delivery timeout 120 s against 300 s", defaults, StringComparison.Ordinal);
        Assert.Contains("reconnect backoff 1 s against 10 s", defaults, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', defaults);
        Assert.DoesNotContain("delivery timeout", onlyRequest, StringComparison.Ordinal);
        Assert.Contains("socket.timeout.ms of 60 s", onlyRequest, StringComparison.Ordinal);
        Assert.Empty(none);
    }
}
