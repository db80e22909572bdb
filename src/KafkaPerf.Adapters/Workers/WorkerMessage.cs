using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization;
using KafkaPerf.Reporting;

namespace KafkaPerf.Adapters.Workers;

/// <summary>
/// One message of the worker protocol, as JSON on the group's topic (<see cref="Adapters.Workers.WorkerBus"/>). Workers say
/// <c>hello</c> every second (who they are, idle or busy); the coordinator says <c>alive</c> every second during a plan,
/// sends the <c>plan</c> (its <c>run</c> arguments and the workers it chose), then per run <c>prepare</c> (every worker
/// creates its topic and answers <c>ready</c>), <c>start</c> (at an agreed time) and collects each worker's
/// <c>result</c>; <c>end</c> sends the workers back to waiting.
/// </summary>
internal sealed record WorkerMessage
{
    /// <summary>How often a worker says it is there, and a coordinator that it is alive.</summary>
    public static readonly TimeSpan HelloInterval = TimeSpan.FromSeconds(1);

    public const string Hello = "hello";
    public const string Alive = "alive";
    public const string PlanType = "plan";
    public const string Accepted = "accepted";
    public const string Prepare = "prepare";
    public const string Ready = "ready";
    public const string Start = "start";
    public const string Result = "result";
    public const string End = "end";

    private static readonly JsonSerializerOptions Json = new()
    {
        // Not WhenWritingDefault: a required member at its default (a client's capabilities None) must still be written.
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        PropertyNameCaseInsensitive = true,
    };

    /// <summary>What it is (the constants above).</summary>
    public required string Type { get; init; }

    /// <summary>Its sender: a worker's name, or the coordinator's.</summary>
    public required string From { get; init; }

    /// <summary>The plan it belongs to.</summary>
    public string? Plan { get; init; }

    /// <summary>A worker's host (hello).</summary>
    public string? Host { get; init; }

    /// <summary>A worker's process ID (hello).</summary>
    public int ProcessId { get; init; }

    /// <summary>A worker's tool and runtime versions (hello).</summary>
    public string? Version { get; init; }

    /// <summary>A worker's plan, when it is in one (hello): busy workers are not chosen.</summary>
    public string? Busy { get; init; }

    /// <summary>The plan as a document, <see cref="Plans.PlanDocument"/> (plan): the same file <c>run --plan</c> reads,
    /// without a secret.</summary>
    public string? PlanDocument { get; init; }

    /// <summary>The workers chosen, in share order (plan, prepare).</summary>
    public string[]? Workers { get; init; }

    /// <summary>How long a silent party is waited for, in seconds (plan).</summary>
    public double StallSeconds { get; init; }

    /// <summary>The run (prepare, ready, start, result).</summary>
    public int Sequence { get; init; }

    /// <summary>The run's cell, by its position in the plan (prepare).</summary>
    public int Cell { get; init; }

    /// <summary>The run's client (prepare).</summary>
    public string? Client { get; init; }

    /// <summary>The run's repetition, 0 for a warm-up (prepare).</summary>
    public int Repetition { get; init; }

    /// <summary>The run's topic; each worker adds <c>.w</c> and its index (prepare).</summary>
    public string? Topic { get; init; }

    /// <summary>When the run starts, in Unix milliseconds (start).</summary>
    public long StartAtUnixMs { get; init; }

    /// <summary>How late the worker started after <see cref="StartAtUnixMs"/>, in milliseconds: it heard "start" after
    /// the agreed moment (result).</summary>
    public double StartedLateMs { get; init; }

    /// <summary>What the worker measured, in <see cref="MeasurementWire"/>'s form (result).</summary>
    public byte[]? Measurement { get; init; }

    /// <summary>The client as the worker has it (result).</summary>
    public ClientInfo? Info { get; init; }

    /// <summary>Why the worker cannot do what was asked (accepted, result).</summary>
    public string? Error { get; init; }

    public byte[] ToBytes() => JsonSerializer.SerializeToUtf8Bytes(this, Json);

    /// <summary>The message in <paramref name="bytes"/>; <see langword="null"/> when it is not one (anyone may write to the
    /// topic). A message whose envelope reads but whose content does not (another version of the tool) comes back with its
    /// type, sender, plan and run and an <see cref="Error"/> saying so: a run waiting for it fails instead of waiting on.</summary>
    public static WorkerMessage? Read(byte[] bytes)
    {
        try
        {
            return JsonSerializer.Deserialize<WorkerMessage>(bytes, Json);
        }
        catch (JsonException ex)
        {
            try
            {
                var envelope = JsonSerializer.Deserialize<Envelope>(bytes, Json);
                return envelope is { Type: { } type, From: { } from }
                    ? new WorkerMessage { Type = type, From = from, Plan = envelope.Plan, Sequence = envelope.Sequence, Error = $"its message could not be read ({ex.Message})" }
                    : null;
            }
            catch (JsonException)
            {
                return null;
            }
        }
    }

    private sealed record Envelope(string? Type, string? From, string? Plan, int Sequence);

    /// <summary>This tool's version and its runtime's, as workers announce them.</summary>
    public static string ToolVersion { get; } =
        $"kafkaperf {typeof(WorkerMessage).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion.Split('+')[0] ?? "?"} on .NET {Environment.Version}";
}
