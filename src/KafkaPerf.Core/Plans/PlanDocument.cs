using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;
using KafkaPerf.Clients;
using KafkaPerf.Payloads;

namespace KafkaPerf.Plans;

/// <summary>
/// A plan as a file: the plan's JSON (as a result embeds it, under <c>plan</c>) with a version, so that a plan can be saved,
/// edited, sent to workers, and run again exactly (<c>run --plan FILE</c> takes a plan document or a result file). Read
/// back through <see cref="BenchmarkPlanBuilder"/>, so a hand-edited document gets the same one-line errors as the
/// command line. Secrets never enter it: a client setting that holds one is written hidden, and a plan read with a hidden
/// value is refused.
/// </summary>
public static class PlanDocument
{
    /// <summary>The version this build writes and reads.</summary>
    public const int Version = 1;

    /// <summary>The property that names a plan document and its version.</summary>
    public const string VersionProperty = "kafkaperfPlan";

    /// <summary>The JSON options of every KafkaPerf file: camelCase names, enums as camelCase strings, NaN as "NaN", no nulls.</summary>
    public static JsonSerializerOptions JsonOptions { get; } = new(JsonSerializerDefaults.Web)
    {
        WriteIndented = true,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
        Converters = { new JsonStringEnumConverter(JsonNamingPolicy.CamelCase) },
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        // Files are read by people and tools, never embedded in HTML: ' and non-ASCII stay as written.
        Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    /// <summary>The plan as a document.</summary>
    /// <param name="plan">The plan.</param>
    /// <returns>Indented JSON, its first property <see cref="VersionProperty"/>.</returns>
    public static string ToJson(BenchmarkPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var body = JsonSerializer.SerializeToNode(plan, JsonOptions)!.AsObject();
        var document = new JsonObject { [VersionProperty] = Version };
        foreach (var (name, value) in body.ToList())
        {
            body.Remove(name);
            document[name] = value;
        }
        return document.ToJsonString(JsonOptions);
    }

    /// <summary>Reads a plan from a plan document or from a result file (its <c>plan</c>).</summary>
    /// <param name="path">The file.</param>
    /// <returns>The plan, validated.</returns>
    /// <exception cref="PlanValidationException">The file is missing, not a plan, of another version, or its plan is not
    /// valid; one line that names the file.</exception>
    public static BenchmarkPlan Read(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        string text;
        try
        {
            text = File.ReadAllText(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new PlanValidationException($"The plan '{path}' cannot be read ({ex.Message.TrimEnd('.')}): give a plan document or a result's .json file.");
        }
        return Parse(text, path);
    }

    /// <summary>Reads a plan from a document's or a result's JSON.</summary>
    /// <param name="json">The JSON.</param>
    /// <param name="source">What to call it in an error (a path, "the coordinator's plan").</param>
    /// <returns>The plan, validated.</returns>
    /// <exception cref="PlanValidationException">It is not a plan, of another version, or its plan is not valid.</exception>
    public static BenchmarkPlan Parse(string json, string source)
    {
        ArgumentNullException.ThrowIfNull(json);
        JsonObject root;
        try
        {
            root = JsonNode.Parse(json) as JsonObject ?? throw new JsonException("not an object");
        }
        catch (JsonException ex)
        {
            throw new PlanValidationException($"'{source}' is not a KafkaPerf plan or result: {ex.Message}");
        }
        JsonObject body;
        if (root[VersionProperty] is { } version)
        {
            if (version.GetValueKind() != JsonValueKind.Number || version.GetValue<double>() != Version)
                throw new PlanValidationException($"'{source}' is a plan document of version {version.ToJsonString()}, and this KafkaPerf reads version {Version}: write it again with this version.");
            body = root;
        }
        else if (root["plan"] is JsonObject embedded && root["schemaVersion"] is not null)
        {
            body = embedded;
        }
        else
        {
            throw new PlanValidationException($"'{source}' is not a KafkaPerf plan or result: it has neither '{VersionProperty}' nor a result's 'plan'.");
        }
        BenchmarkPlan plan;
        try
        {
            plan = body.Deserialize<BenchmarkPlan>(JsonOptions) ?? throw new JsonException("an empty plan");
        }
        catch (Exception ex) when (ex is JsonException or NotSupportedException or InvalidOperationException)
        {
            throw new PlanValidationException($"The plan in '{source}' cannot be read: {ex.Message.Split(" Path:")[0]}");
        }
        return Rebuild(plan, source);
    }

    /// <summary>The plan, built again from its parts: the same checks as a plan made on the command line.</summary>
    private static BenchmarkPlan Rebuild(BenchmarkPlan plan, string source)
    {
        foreach (var (client, settings) in plan.ClientOverrides)
        {
            foreach (var (key, value) in settings)
            {
                if (value == KafkaSecurity.Hidden)
                    throw new PlanValidationException($"The plan in '{source}' has the setting {client}:{key} hidden, as every secret is when a plan is written: give credentials with --sasl-credentials FILE (or KAFKAPERF_SASL_USERNAME and KAFKAPERF_SASL_PASSWORD), or the value in the file by hand.");
            }
        }
        var references = plan.References;
        var builder = new BenchmarkPlanBuilder()
            .Clients([.. plan.Clients.Where(c => !references.Contains(c, StringComparer.OrdinalIgnoreCase))])
            .References([.. references])
            .Scenarios([.. plan.Scenarios])
            .PayloadSizes([.. plan.PayloadSizes])
            .Repeat(plan.Repeat)
            .Warmup(plan.Warmup)
            .Order(plan.Order, plan.Seed)
            .Topics(plan.TopicPrefix, plan.Partitions, plan.KeepTopics)
            .Replication(plan.ReplicationFactor, plan.MinInSyncReplicas)
            .Consume(plan.UsePrefetch, plan.CheckPayload)
            .StallTimeout(plan.StallTimeout)
            .Tolerance(plan.Tolerance)
            .Breakdown(plan.Breakdown)
            .ClusterWarmup(plan.ClusterWarmup)
            .Faults([.. plan.Faults, .. plan.GroupEvents], plan.RecoveryGoal);
        // Only an interval that was set: the builder refuses one for a plan of bursts, which keeps the default.
        if (plan.Interval != KafkaPerf.Scenarios.RateLoad.DefaultInterval) builder.Interval(plan.Interval);
        if (plan.Payload == PayloadKind.File) builder.PayloadFile(plan.PayloadFile ?? string.Empty);
        else builder.Payload(plan.Payload);
        if (plan.Rates.Count > 0)
        {
            builder.Rates([.. plan.Rates]).LoadWarmup(plan.LoadWarmup);
            if (plan.Duration is { } duration) builder.Duration(duration);
            else builder.MessageCounts([.. plan.MessageCounts]);
        }
        else
        {
            builder.MessageCounts([.. plan.MessageCounts]);
            if (plan.Duration is { } duration) builder.Duration(duration);
            if (plan.LoadWarmup > TimeSpan.Zero) builder.LoadWarmup(plan.LoadWarmup);
        }
        var variants = plan.SettingsVariants;
        builder.Acks([.. Values(variants, v => v.Acks)]).LingerMs([.. Values(variants, v => v.LingerMs)])
            .BatchSizeBytes([.. Values(variants, v => v.BatchSizeBytes)]).MaxInFlight([.. Values(variants, v => v.MaxInFlight)])
            .SendBufferBytes([.. Values(variants, v => v.SendBufferBytes)]).ReceiveBufferBytes([.. Values(variants, v => v.ReceiveBufferBytes)])
            .FetchMinBytes([.. Values(variants, v => v.FetchMinBytes)]).Compression([.. Values(variants, v => v.Compression)])
            .Partitions([.. Values(variants, v => v.Partitions)]).Producers([.. Values(variants, v => v.Producers)])
            .Consumers([.. Values(variants, v => v.Consumers)]).Idempotence([.. Values(variants, v => v.Idempotence)])
            .Keys([.. variants.Select(v => v.Keys).OfType<KeySpec>().Distinct()]).KeySizeBytes([.. Values(variants, v => v.KeySizeBytes)])
            .Headers([.. variants.Select(v => v.Headers).OfType<HeaderSpec>().Distinct()])
            .Transactions([.. Values(variants, v => v.TransactionRecords)]).AbortRatio([.. Values(variants, v => v.AbortRatio)])
            .Backlog([.. Values(variants, v => v.BacklogBytes)]).Group([.. Values(variants, v => v.Group)])
            .GroupProtocol([.. Values(variants, v => v.GroupProtocol)]).Assignor([.. Values(variants, v => v.Assignor)])
            .StaticMembership([.. Values(variants, v => v.StaticMembership)])
            .Network([.. variants.Select(v => v.Network).OfType<NetworkSpec>().Distinct()]);
        foreach (var (client, settings) in plan.ClientOverrides)
            foreach (var (key, value) in settings)
                builder.Override(client, key, value);
        var rebuilt = builder.Build();
        // A plan's variants are the product of its knobs' values, in the order a builder sweeps them.
        if (!rebuilt.SettingsVariants.Select(v => v.Describe()).SequenceEqual(variants.Select(v => v.Describe()), StringComparer.Ordinal))
            throw new PlanValidationException($"The settings variants of the plan in '{source}' are not every combination of their settings' values: list each setting's values in the variants as a sweep would (e.g. acks=1 and acks=all, each with every linger.ms).");
        return rebuilt;
    }

    private static IEnumerable<T> Values<T>(IEnumerable<ClientSettings> variants, Func<ClientSettings, T?> knob) where T : struct =>
        variants.Select(knob).OfType<T>().Distinct();

    /// <summary>The plan's file name for a result stem, e.g. <c>kafkaperf-20261126-101500.plan.json</c>.</summary>
    /// <param name="stem">The result's base name.</param>
    /// <returns>The file name.</returns>
    public static string FileName(string stem) => string.Create(CultureInfo.InvariantCulture, $"{stem}.plan.json");
}
