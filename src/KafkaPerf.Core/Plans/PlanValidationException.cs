namespace KafkaPerf.Plans;

/// <summary>A plan has at least one error-level finding.</summary>
public sealed class PlanValidationException : Exception
{
    /// <summary>Creates the exception from the findings.</summary>
    /// <param name="errors">Every finding.</param>
    public PlanValidationException(IReadOnlyList<ValidationError> errors)
        : base(string.Join(Environment.NewLine, errors.Where(e => e.Severity == ValidationSeverity.Error).Select(e => e.Message)))
    {
        Errors = errors;
    }

    /// <summary>Creates the exception.</summary>
    public PlanValidationException()
        : this([])
    {
    }

    /// <summary>Creates the exception with a message.</summary>
    /// <param name="message">The message.</param>
    public PlanValidationException(string message)
        : this([new ValidationError(ValidationSeverity.Error, message)])
    {
    }

    /// <summary>Creates the exception with a message and an inner exception.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The cause.</param>
    public PlanValidationException(string message, Exception innerException)
        : base(message, innerException)
    {
        Errors = [new ValidationError(ValidationSeverity.Error, message)];
    }

    /// <summary>Every finding, warnings included.</summary>
    public IReadOnlyList<ValidationError> Errors { get; } = [];
}
