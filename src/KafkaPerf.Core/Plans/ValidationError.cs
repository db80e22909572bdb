namespace KafkaPerf.Plans;

/// <summary>One finding of plan validation: a one-line message saying what is wrong and what to do.</summary>
/// <param name="Severity">How bad it is.</param>
/// <param name="Message">What is wrong and what to do.</param>
public sealed record ValidationError(ValidationSeverity Severity, string Message)
{
    /// <inheritdoc />
    public override string ToString() => $"{Severity.ToString().ToLowerInvariant()}: {Message}";
}
