using System.Text.Json.Nodes;
using KafkaPerf.Clients;
using KafkaPerf.Plans;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Plans;

public class PlanDocumentTests
{
    private static BenchmarkPlan Swept() => new BenchmarkPlanBuilder()
        .Clients("inmemory", "other").Scenarios(ScenarioKind.Produce, ScenarioKind.Roundtrip)
        .PayloadSizes(100, 1_000).Rates(1_000, 5_000).Duration(TimeSpan.FromSeconds(3)).LoadWarmup(TimeSpan.FromSeconds(1))
        .Acks(AcksMode.Leader, AcksMode.All).LingerMs(0, 5).Producers(1, 2).Repeat(3).Order(RunOrderKind.Shuffled, seed: 7)
        .Override("inmemory", "queue.buffering.max.ms", "5").Replication(1, 1).StallTimeout(TimeSpan.FromSeconds(12))
        .Build();

    [Fact]
    public void ToJsonThenParse_GivesThePlanBack_CellForCell()
    {
        var plan = Swept();

        var json = PlanDocument.ToJson(plan);
        var read = PlanDocument.Parse(json, "test");

        Assert.StartsWith("{\n  \"kafkaperfPlan\": 1,", json.ReplaceLineEndings("\n"), StringComparison.Ordinal);
        Assert.Equal(json, PlanDocument.ToJson(read));
        Assert.Equal(plan.Cells(), read.Cells());
        Assert.Equal(plan.TotalRuns, read.TotalRuns);
    }

    [Fact]
    public void ToJsonThenParse_APlanOfBursts_GivesItBack()
    {
        var plan = new BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Produce, ScenarioKind.Consume)
            .MessageCounts(1_000, 10_000).PayloadSizes(100).Repeat(2).Compression(CompressionCodec.Lz4, CompressionCodec.Zstd).Build();

        var read = PlanDocument.Parse(PlanDocument.ToJson(plan), "test");

        Assert.Equal(plan.Cells(), read.Cells());
        Assert.Equal(PlanDocument.ToJson(plan), PlanDocument.ToJson(read));
    }

    [Fact]
    public void Parse_AResultFile_TakesItsPlan()
    {
        var plan = Swept();
        var result = new JsonObject { ["schemaVersion"] = 2, ["plan"] = JsonNode.Parse(PlanDocument.ToJson(plan))!.AsObject().Where(p => p.Key != PlanDocument.VersionProperty).Aggregate(new JsonObject(), (o, p) => { o[p.Key] = p.Value?.DeepClone(); return o; }) };

        var read = PlanDocument.Parse(result.ToJsonString(), "result.json");

        Assert.Equal(plan.Cells(), read.Cells());
    }

    [Fact]
    public void ToJson_ASettingThatHoldsASecret_IsHidden()
    {
        var plan = new BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Produce).PayloadSizes(10).MessageCounts(10)
            .Override("inmemory", "sasl.password", "TopSecret1")
            .Override("inmemory", "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"TopSecret2\";")
            .Override("inmemory", "my.custom.login", "user=u token=TopSecret3")
            .Override("inmemory", "linger.ms", "5")
            .Build();

        var json = PlanDocument.ToJson(plan);

        Assert.DoesNotContain("TopSecret", json, StringComparison.Ordinal);
        Assert.Contains("\"sasl.password\": \"[hidden]\"", json, StringComparison.Ordinal);
        Assert.Contains("\"my.custom.login\": \"[hidden]\"", json, StringComparison.Ordinal);
        Assert.Contains("\"linger.ms\": \"5\"", json, StringComparison.Ordinal);
        var error = Assert.Throws<PlanValidationException>(() => PlanDocument.Parse(json, "saved.json"));
        Assert.StartsWith("The plan in 'saved.json' has the setting inmemory:sasl.password hidden, as every secret is when a plan is written: give credentials with --sasl-credentials", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("{\"kafkaperfPlan\": 2}", "'f.json' is a plan document of version 2, and this KafkaPerf reads version 1")]
    [InlineData("[1, 2]", "'f.json' is not a KafkaPerf plan or result")]
    [InlineData("not json", "'f.json' is not a KafkaPerf plan or result")]
    [InlineData("{\"hello\": 1}", "'f.json' is not a KafkaPerf plan or result: it has neither 'kafkaperfPlan' nor a result's 'plan'.")]
    [InlineData("{\"kafkaperfPlan\": 1, \"clients\": 5}", "The plan in 'f.json' cannot be read")]
    public void Parse_NotAPlan_OneLineNamingTheFile(string json, string expected)
    {
        var error = Assert.Throws<PlanValidationException>(() => PlanDocument.Parse(json, "f.json"));

        Assert.StartsWith(expected, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error.Message);
    }

    [Fact]
    public void Parse_AnEditedPlanThatIsNotValid_TheCommandLinesOwnMessage()
    {
        var json = JsonNode.Parse(PlanDocument.ToJson(Swept()))!;
        json["repeat"] = 0;

        var error = Assert.Throws<PlanValidationException>(() => PlanDocument.Parse(json.ToJsonString(), "f.json"));

        Assert.Equal("Repeat 0 is below 1: run each cell at least once.", error.Message);
    }

    [Fact]
    public void Parse_VariantsThatAreNotEveryCombination_Refused()
    {
        var json = JsonNode.Parse(PlanDocument.ToJson(Swept()))!;
        json["settingsVariants"]!.AsArray().RemoveAt(1);

        var error = Assert.Throws<PlanValidationException>(() => PlanDocument.Parse(json.ToJsonString(), "f.json"));

        Assert.StartsWith("The settings variants of the plan in 'f.json' are not every combination", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Read_AMissingFile_OneLine()
    {
        var error = Assert.Throws<PlanValidationException>(() => PlanDocument.Read("/nonexistent/plan.json"));

        Assert.StartsWith("The plan '/nonexistent/plan.json' cannot be read (", error.Message, StringComparison.Ordinal);
    }
}
