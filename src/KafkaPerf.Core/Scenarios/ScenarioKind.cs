namespace KafkaPerf.Scenarios;

/// <summary>The three measurements of the seed benchmark.</summary>
public enum ScenarioKind
{
    /// <summary>Time from the first send through the final flush.</summary>
    Produce,

    /// <summary>Time from partition assignment to the last expected record (the topic is filled beforehand, untimed).</summary>
    Consume,

    /// <summary>Produce→consume latency of every record, with the consumer assigned before the first send.</summary>
    Roundtrip,
}
