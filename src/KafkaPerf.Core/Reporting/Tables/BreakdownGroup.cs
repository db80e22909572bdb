using KafkaPerf.Scenarios;

namespace KafkaPerf.Reporting.Tables;

/// <summary>One client's breakdown in one cell, over its measured runs (<see cref="BreakdownTables.Groups"/>).</summary>
/// <param name="Scenario">The scenario.</param>
/// <param name="Variant">The settings variant's label.</param>
/// <param name="PayloadBytes">The payload size.</param>
/// <param name="OfferedRate">The offered rate; none for a burst.</param>
/// <param name="Client">The client.</param>
/// <param name="Queue">The median over the runs of a record's wait in the client, in milliseconds; none when no run has it.</param>
/// <param name="Request">The median of a request's round trip (network and broker), in milliseconds.</param>
/// <param name="WholeMs">The median of the runs' p50 latency (a rate's response time, a burst's send → acknowledgement).</param>
/// <param name="Why">Why neither figure is there, at length (for the tables) and in a few words (for a chart's row).</param>
internal sealed record BreakdownGroup(ScenarioKind Scenario, string Variant, int PayloadBytes, double? OfferedRate, string Client,
    double? Queue, double? Request, double? WholeMs, (string Long, string Short) Why)
{
    /// <summary>Whether the client gave neither figure.</summary>
    public bool Absent => Queue is null && Request is null;

    /// <summary>The cell, in words: <c>produce · 100 B · burst</c>.</summary>
    public string Cell => $"{Scenario.ToString().ToLowerInvariant()} · {ReportFigures.Count(PayloadBytes)} B"
        + (OfferedRate is { } rate ? $" · {ReportFigures.Count((long)rate)} msg/s" : " · burst")
        + (Variant == "defaults" ? string.Empty : $" · {Variant}");
}
