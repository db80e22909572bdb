namespace KafkaPerf.Payloads;

/// <summary>What the payload bytes look like.</summary>
public enum PayloadKind
{
    /// <summary>Random bytes: incompressible, as in the KNet seed benchmark.</summary>
    Random,
}
