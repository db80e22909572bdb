namespace KafkaPerf.Clients;

/// <summary>
/// Something the adapters need from the machine is missing or misconfigured: Java, Kafka's jars, librdkafka,
/// or a variable that names one of them. The message is one line that says what was wrong and what to do.
/// </summary>
/// <remarks>The CLI reports it as bad input (exit code 2) before anything runs.</remarks>
public sealed class PrerequisiteException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="message">One line: what is missing and how to provide it.</param>
    public PrerequisiteException(string message) : base(message)
    {
    }

    /// <summary>Creates the exception with its cause.</summary>
    /// <param name="message">One line: what is missing and how to provide it.</param>
    /// <param name="innerException">The failure underneath.</param>
    public PrerequisiteException(string message, Exception innerException) : base(message, innerException)
    {
    }

    /// <summary>Creates the exception with a generic message.</summary>
    public PrerequisiteException() : base("A prerequisite of KafkaPerf is missing.")
    {
    }
}
