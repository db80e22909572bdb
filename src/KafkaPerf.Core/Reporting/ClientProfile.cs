using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting;

/// <summary>
/// Where one client's CPU went in one cell (<c>--profile</c>): the samples taken inside the timed sections of its
/// measured runs, split by the layer of the code each sample was in (its innermost frame; a C library's function counts for
/// its caller's layer).
/// </summary>
public sealed record ClientProfile
{
    /// <summary>The client.</summary>
    public required string Client { get; init; }

    /// <summary>The cell's scenario.</summary>
    public required ScenarioKind Scenario { get; init; }

    /// <summary>The cell's messages per run.</summary>
    public required long MessageCount { get; init; }

    /// <summary>The cell's payload size.</summary>
    public required int PayloadBytes { get; init; }

    /// <summary>The cell's settings variant.</summary>
    public required string Variant { get; init; }

    /// <summary>The cell's offered rate; <see langword="null"/> for a burst.</summary>
    public double? OfferedRate { get; init; }

    /// <summary>Runs sampled.</summary>
    public required int Runs { get; init; }

    /// <summary>Samples taken, over every thread of the process.</summary>
    public required long Samples { get; init; }

    /// <summary>The samples per layer, largest first.</summary>
    public required IReadOnlyList<ProfileLayer> Layers { get; init; }

    /// <summary>The folded stacks (one line per stack, frames from the outermost, then the count), beside the report.</summary>
    public string? FoldedFile { get; init; }

    /// <summary>The flame graph (SVG), beside the report.</summary>
    public string? FlameGraphFile { get; init; }
}

/// <summary>One layer's part of a profile.</summary>
/// <param name="Name">The layer: <c>librdkafka</c>, <c>Confluent.Kafka</c>, <c>.NET GC</c>, <c>kernel</c>, ….</param>
/// <param name="Samples">Samples whose innermost frame was in it.</param>
/// <param name="Share">Its part of the profile's samples, 0 to 1.</param>
public sealed record ProfileLayer(string Name, long Samples, double Share);
