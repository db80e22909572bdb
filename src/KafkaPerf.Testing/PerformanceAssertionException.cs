namespace KafkaPerf.Testing;

/// <summary>A performance assertion failed; the message holds the measured figures as a table.</summary>
public sealed class PerformanceAssertionException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="message">What was expected, what was measured, and the table.</param>
    public PerformanceAssertionException(string message) : base(message)
    {
    }

    /// <summary>Creates the exception with a generic message.</summary>
    public PerformanceAssertionException() : base("A performance assertion failed.")
    {
    }

    /// <summary>Creates the exception with a cause.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The cause.</param>
    public PerformanceAssertionException(string message, Exception innerException) : base(message, innerException)
    {
    }
}
