using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Jvm;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Tests.Broker;

/// <summary>JVM options from the environment (<c>KAFKAPERF_BROKER_JVM_OPTIONS</c>, <c>KAFKAPERF_JVM_OPTIONS</c>): read as
/// words, refused in one line when a word is not an option, and named in the result. The tests' own runs set both
/// (tests/kafkaperf.runsettings), so the shared broker shows them on its command line.</summary>
[Collection(BrokerCollectionDefinition.Name)]
public sealed class JvmOptionsVariableTests(BrokerFixture fixture)
{
    [Fact]
    public void Parse_WordsSeparatedBySpaces_EachAnOption()
    {
        Assert.Empty(JvmOptionsVariable.Parse(JvmOptionsVariable.Broker, null));
        Assert.Empty(JvmOptionsVariable.Parse(JvmOptionsVariable.Broker, "  "));
        Assert.Equal(["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"], JvmOptionsVariable.Parse(JvmOptionsVariable.Broker, " -XX:TieredStopAtLevel=1\t-XX:+UseSerialGC "));
        Assert.Equal(", JVM options -a -b", JvmOptionsVariable.Describe(["-a", "-b"]));
        Assert.Equal(string.Empty, JvmOptionsVariable.Describe([]));
    }

    [Fact]
    public void Parse_AWordThatIsNotAnOption_OneLineNamingTheVariableAndTheWord()
    {
        var ex = Assert.Throws<PrerequisiteException>(() => JvmOptionsVariable.Parse(JvmOptionsVariable.InProcess, "-Xss2m TieredStopAtLevel=1"));
        Assert.Equal("KAFKAPERF_JVM_OPTIONS: 'TieredStopAtLevel=1' is not a JVM option (each starts with '-', separated by spaces, "
            + "e.g. -XX:TieredStopAtLevel=1); fix or unset KAFKAPERF_JVM_OPTIONS.", ex.Message);
    }

    [Fact]
    public void SharedBroker_StartedWithTheVariablesOptions_OnItsCommandLineAndInItsDescription()
    {
        var asked = JvmOptionsVariable.Read(JvmOptionsVariable.Broker);
        Assert.NotEmpty(asked); // set by tests/kafkaperf.runsettings
        var cmdline = File.ReadAllText($"/proc/{fixture.Broker.ProcessId}/cmdline").Split('\0');
        foreach (var option in asked) Assert.Contains(option, cmdline);
        Assert.Contains(", JVM options " + string.Join(' ', asked) + ", started in",
            ConnectedBroker.Describe(fixture.Broker, new EmbeddedKafkaBrokerOptions { HeapMegabytes = 512 }), StringComparison.Ordinal);
    }
}
