namespace KafkaPerf.Adapters.Store;

/// <summary>A results store that cannot be named, opened, read or written; the message is one line saying what to do.</summary>
public sealed class ResultStoreException : Exception
{
    /// <summary>Creates the exception.</summary>
    public ResultStoreException()
    {
    }

    /// <summary>Creates the exception with its one line.</summary>
    /// <param name="message">What is wrong and what to do.</param>
    public ResultStoreException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with its one line and its cause.</summary>
    /// <param name="message">What is wrong and what to do.</param>
    /// <param name="innerException">The cause.</param>
    public ResultStoreException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
