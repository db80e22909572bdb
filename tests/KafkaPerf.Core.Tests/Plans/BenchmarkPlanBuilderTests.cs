using KafkaPerf.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Plans;

public class BenchmarkPlanBuilderTests
{
    private static BenchmarkPlanBuilder Valid() => new BenchmarkPlanBuilder()
        .Clients("inmemory").Scenarios(ScenarioKind.Produce).MessageCounts(10).PayloadSizes(100);

    [Fact]
    public void Build_CompressionAndAcksLists_SweepsTheProduct()
    {
        var plan = Valid()
            .Compression(CompressionCodec.None, CompressionCodec.Gzip, CompressionCodec.Lz4)
            .Acks(AcksMode.Leader, AcksMode.All)
            .Build();

        Assert.Equal(6, plan.SettingsVariants.Count);
        Assert.Contains(plan.SettingsVariants, s => s.Describe() == "acks=1 compression=gzip");
        Assert.Equal(6, plan.Cells().Count());
    }

    [Fact]
    public void Build_NoSweep_OneVariantWithClientDefaults()
    {
        var plan = Valid().Build();

        Assert.Equal("defaults", Assert.Single(plan.SettingsVariants).Describe());
        Assert.Equal(1 * (5 + 1), plan.TotalRuns);
    }

    [Theory]
    [InlineData(0, 100, 1, "Message count 0")]
    [InlineData(10, -5, 1, "Payload size -5")]
    [InlineData(10, 100, 0, "Repeat 0")]
    public void Build_BadNumbers_ThrowsWithOneLinePerProblem(long messages, int size, int repeat, string expected)
    {
        var builder = new BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Produce)
            .MessageCounts(messages).PayloadSizes(size).Repeat(repeat);

        var ex = Assert.Throws<PlanValidationException>(builder.Build);

        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', ex.Message);
    }

    [Fact]
    public void Validate_DuplicateClientAndBadPrefix_ReportsBoth()
    {
        var findings = Valid().Clients("INMEMORY").Topics(prefix: "has space").Validate();

        Assert.Equal(2, findings.Count(f => f.Severity == ValidationSeverity.Error));
    }

    [Fact]
    public void Build_OverrideForClientNotInPlan_IsAnError()
    {
        var ex = Assert.Throws<PlanValidationException>(() => Valid().Override("nope", "linger.ms", "5").Build());

        Assert.Contains("client 'nope', which is not in the plan", ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("linger.ms")]
    [InlineData("queue.buffering.max.ms")]
    public void Build_OverrideOfASweptKnob_WarnsThatTheLabelsAreWrong(string key)
    {
        var plan = Valid().LingerMs(0, 5).Override("inmemory", key, "20").Build();

        var warning = Assert.Single(plan.Warnings);
        Assert.StartsWith($"-X inmemory:{key} replaces the common setting linger.ms", warning, StringComparison.Ordinal);
    }

    [Fact]
    public void Build_OverrideOfAKnobNotSet_NoWarning()
    {
        var plan = Valid().Override("inmemory", "linger.ms", "20").Build();

        Assert.Empty(plan.Warnings);
    }

    [Fact]
    public void SettingsFor_ClientOverride_AppliesToThatClientOnly()
    {
        var plan = Valid().Clients("other").Override("inmemory", "queue.buffering.max.messages", "10").Build();
        var cell = plan.Cells().Single();

        Assert.Equal("10", plan.SettingsFor(cell, "inmemory").Overrides["queue.buffering.max.messages"]);
        Assert.Empty(plan.SettingsFor(cell, "other").Overrides);
    }
}
