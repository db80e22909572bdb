using System.Buffers.Binary;
using System.Text;
using KafkaPerf.Clients;
using KafkaPerf.Clients.InMemory;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Running;
using KafkaPerf.Core.Tests.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Core.Tests.Clients;

/// <summary>Key distributions, headers and idempotence as settings: parsed, swept, written and read back, keyed the same
/// for every client, verified when keys repeat, refused for clients that cannot send them.</summary>
public class WorkloadSpecTests
{
    [Theory]
    [InlineData("unique", "unique")]
    [InlineData("NONE", "none")]
    [InlineData("fixed", "fixed")]
    [InlineData("random:1000", "random:1000")]
    [InlineData("zipf:1000:1.1", "zipf:1000:1.1")]
    [InlineData(" zipf:5:2 ", "zipf:5:2")]
    public void KeySpec_ParsesAndReadsBack(string text, string canonical)
    {
        var spec = KeySpec.Parse(text);

        Assert.Equal(canonical, spec.ToString());
        Assert.Equal(spec, KeySpec.Parse(spec.ToString()));
    }

    [Theory]
    [InlineData("zipf:0:1")]
    [InlineData("zipf:10:0")]
    [InlineData("zipf:10:-1")]
    [InlineData("zipf:10")]
    [InlineData("random:1000001")]
    [InlineData("random")]
    [InlineData("fixed:3")]
    [InlineData("")]
    public void KeySpec_Malformed_SaysWhatItExpects(string text)
    {
        var error = Assert.Throws<FormatException>(() => KeySpec.Parse(text));

        Assert.Contains($"'{text}'", error.Message, StringComparison.Ordinal);
        Assert.Contains("e.g.", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("5:32", 5, 32)]
    [InlineData("0", 0, 0)]
    [InlineData("0:100", 0, 0)]
    [InlineData("1:0", 1, 0)]
    public void HeaderSpec_Parses(string text, int count, int bytes)
    {
        Assert.Equal(new HeaderSpec(count, bytes), HeaderSpec.Parse(text));
    }

    [Fact]
    public void RecordKeys_UniqueIsTheIdBigEndianPaddedInFront_NoneIsNoKey_FixedIsOneKey()
    {
        var unique = new RecordKeys(KeySpec.Unique, 12);
        Assert.Equal([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2], unique.KeyOf(0x0102));
        Assert.Null(new RecordKeys(KeySpec.Parse("none")).KeyOf(5));
        var fixedKeys = new RecordKeys(KeySpec.Parse("fixed"));
        Assert.Equal("00000000", Encoding.ASCII.GetString(fixedKeys.KeyOf(1)!));
        Assert.Same(fixedKeys.KeyOf(1), fixedKeys.KeyOf(99));
    }

    [Fact]
    public void RecordKeys_Random_EveryKeyAboutEquallyOften_AndTheSameKeyForTheSameId()
    {
        var keys = new RecordKeys(KeySpec.Parse("random:10"));
        var counts = new int[10];
        for (long id = 0; id < 100_000; id++) counts[keys.IndexOf(id)]++;

        Assert.All(counts, c => Assert.InRange(c, 9_500, 10_500));
        Assert.Equal(keys.IndexOf(12_345), new RecordKeys(KeySpec.Parse("random:10")).IndexOf(12_345));
    }

    [Fact]
    public void RecordKeys_Zipf_KeyKHasItsShare()
    {
        var keys = new RecordKeys(KeySpec.Parse("zipf:1000:1.1"));
        var counts = new int[1000];
        const int N = 200_000;
        for (long id = 0; id < N; id++) counts[keys.IndexOf(id)]++;

        double harmonic = Enumerable.Range(1, 1000).Sum(k => Math.Pow(k, -1.1));
        foreach (int k in new[] { 1, 2, 10 })
            Assert.InRange(counts[k - 1] / (double)N, Math.Pow(k, -1.1) / harmonic * 0.95, Math.Pow(k, -1.1) / harmonic * 1.05);
        Assert.Equal(1L << 62, keys.Thresholds[^1]);
        Assert.True(keys.Thresholds.Zip(keys.Thresholds.Skip(1)).All(p => p.First <= p.Second));
    }

    [Theory]
    [InlineData("unique", 7, "need at least 8 bytes")]
    [InlineData("random:1000", 2, "need at least 3 bytes")]
    [InlineData("zipf:10:1", 20_000, "more than 10,000 bytes")]
    public void RecordKeys_KeySizeTooSmallOrLarge_Refused(string spec, int size, string expected)
    {
        Assert.Contains(expected, RecordKeys.Check(KeySpec.Parse(spec), size), StringComparison.Ordinal);
        Assert.Null(RecordKeys.Check(KeySpec.Parse(spec), 8));
    }

    [Fact]
    public void Builder_SweepsKeysHeadersAndIdempotence_AndThePlanReadsBackFromItsJson()
    {
        var plan = new BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(100)
            .Acks(AcksMode.All).Idempotence(true, false).Keys(KeySpec.Unique, KeySpec.Parse("zipf:1000:1.1")).KeySizeBytes(16)
            .Headers(HeaderSpec.Parse("5:32")).Build();

        Assert.Equal(4, plan.SettingsVariants.Count);
        Assert.Contains(plan.SettingsVariants, v => v.Describe() == "acks=all idempotence=off keys=zipf:1000:1.1 key.size=16 headers=5:32");
        var json = PlanDocument.ToJson(plan);
        Assert.Contains("\"keys\": \"zipf:1000:1.1\"", json, StringComparison.Ordinal);
        Assert.Contains("\"headers\": \"5:32\"", json, StringComparison.Ordinal);
        Assert.Contains("\"idempotence\": false", json, StringComparison.Ordinal);
        var back = PlanDocument.Parse(json, "plan.json");
        Assert.Equal(plan.SettingsVariants.Select(v => v.Describe()), back.SettingsVariants.Select(v => v.Describe()));
    }

    [Theory]
    [InlineData("classic", ConsumerGroupKind.Classic, "classic")]
    [InlineData("share", ConsumerGroupKind.Share, "share")]
    [InlineData("Share:Implicit", ConsumerGroupKind.Share, "share")]
    [InlineData("share:explicit", ConsumerGroupKind.ShareExplicit, "share:explicit")]
    public void ConsumerGroupKind_ParsesAndReadsBack(string text, ConsumerGroupKind kind, string canonical)
    {
        Assert.Equal(kind, ConsumerGroupKinds.Parse(text));
        Assert.Equal(canonical, kind.ToText());
        Assert.Throws<FormatException>(() => ConsumerGroupKinds.Parse("queue"));
    }

    [Fact]
    public void Builder_SweepsTheGroup_ThePlanReadsBack_AndOnlyAClassicGroupGetsAPartitionPerConsumer()
    {
        var plan = new BenchmarkPlanBuilder().Clients("inmemory").Scenarios(ScenarioKind.Consume).MessageCounts(100).PayloadSizes(100)
            .Consumers(4).Group(ConsumerGroupKind.Classic, ConsumerGroupKind.Share, ConsumerGroupKind.ShareExplicit).Build();

        Assert.Equal(["consumers=4 group=classic", "consumers=4 group=share", "consumers=4 group=share:explicit"], plan.SettingsVariants.Select(v => v.Describe()));
        var back = PlanDocument.Parse(PlanDocument.ToJson(plan), "plan.json");
        Assert.Equal(plan.SettingsVariants.Select(v => v.Describe()), back.SettingsVariants.Select(v => v.Describe()));
        var partitions = plan.Cells().Select(c => (c.Settings.Group, plan.PartitionsOf(c))).Distinct().ToList();
        Assert.Contains((ConsumerGroupKind.Classic, 4), partitions);
        Assert.Contains((ConsumerGroupKind.Share, 1), partitions);
        Assert.Contains((ConsumerGroupKind.ShareExplicit, 1), partitions);
    }

    [Fact]
    public async Task Runner_ClientWithoutTheShareGroupsCapability_RefusedInOneLine()
    {
        var plain = new TestClientFactory(new InMemoryClientOptions { Name = "plain" });
        var plan = new BenchmarkPlanBuilder().Clients("plain").Scenarios(ScenarioKind.Consume).MessageCounts(100).PayloadSizes(10)
            .Group(ConsumerGroupKind.Share).Repeat(1).Warmup(false).Build();

        var error = await Assert.ThrowsAsync<PlanValidationException>(async () =>
            await new BenchmarkRunner(new ClientRegistry([plain]), ClusterConnection.None).RunAsync(plan, cancellationToken: TestRunContext.Current));

        Assert.Contains("'plain' has no share-group consumer (--group share)", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Runner_ClientWithoutTheWorkloadsCapability_RefusedInOneLine()
    {
        var plain = new TestClientFactory(new InMemoryClientOptions { Name = "plain" });
        var plan = new BenchmarkPlanBuilder().Clients("plain").Scenarios(ScenarioKind.Produce).MessageCounts(100).PayloadSizes(10)
            .Headers(HeaderSpec.Parse("1:8")).Repeat(1).Warmup(false).Build();

        var error = await Assert.ThrowsAsync<PlanValidationException>(async () =>
            await new BenchmarkRunner(new ClientRegistry([plain]), ClusterConnection.None).RunAsync(plan, cancellationToken: TestRunContext.Current));

        Assert.Contains("'plain' cannot key records other than by their id, nor add headers (--keys, --key-size, --headers)", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("zipf:10:1.1")]
    [InlineData("none")]
    public async Task Consume_KeysRepeatOrAreAbsent_EveryRecordVerifiedByTheIdInItsValue(string keys)
    {
        var clean = new TestClientFactory(new InMemoryClientOptions { Name = "clean" }) { Capabilities = ClientCapabilities.Workloads };
        var lossy = new TestClientFactory(new InMemoryClientOptions { Name = "lossy" }, dropKey: 42, duplicateKey: 7) { Capabilities = ClientCapabilities.Workloads };
        var plan = new BenchmarkPlanBuilder().Clients("clean", "lossy").Scenarios(ScenarioKind.Consume).MessageCounts(100).PayloadSizes(10)
            .Keys(KeySpec.Parse(keys)).Consume(usePrefetch: false, checkPayload: true).Repeat(1).Warmup(false)
            .StallTimeout(TimeSpan.FromMilliseconds(300)).Build();

        var result = await new BenchmarkRunner(new ClientRegistry([clean, lossy]), ClusterConnection.None).RunAsync(plan, cancellationToken: TestRunContext.Current);

        var ok = result.Runs.Single(r => r.Client == "clean");
        Assert.True(ok.Succeeded, ok.Error);
        Assert.Equal(0, ok.PayloadMismatches);
        var bad = result.Runs.Single(r => r.Client == "lossy");
        Assert.False(bad.Succeeded);
        Assert.Equal(1, bad.Lost);
        Assert.Equal(1, bad.Duplicates);
    }

    [Fact]
    public void StampedValue_CarriesTheIdInItsFirstBytes()
    {
        Span<byte> value = stackalloc byte[16];
        BinaryPrimitives.WriteInt64BigEndian(value, 123_456_789);

        Assert.Equal(123_456_789, RecordKeys.IdOf(value));
        Assert.Equal(-1, RecordKeys.IdOf(value[..7]));
    }
}
