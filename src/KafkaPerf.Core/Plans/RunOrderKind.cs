namespace KafkaPerf.Plans;

/// <summary>How clients take turns within a cell.</summary>
public enum RunOrderKind
{
    /// <summary>A B, B A, A B, … so slow drift of the machine favours no client.</summary>
    Balanced,

    /// <summary>Each round in a random order drawn from the plan's recorded seed.</summary>
    Shuffled,
}
