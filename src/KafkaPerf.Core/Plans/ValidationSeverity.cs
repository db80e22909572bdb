namespace KafkaPerf.Plans;

/// <summary>How bad a validation finding is.</summary>
public enum ValidationSeverity
{
    /// <summary>Worth knowing; the plan still runs.</summary>
    Warning,

    /// <summary>The plan cannot run.</summary>
    Error,
}
