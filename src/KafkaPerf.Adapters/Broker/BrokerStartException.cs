namespace KafkaPerf.Adapters.Broker;

/// <summary>The embedded broker did not become ready. The message ends with the tail of the broker's log.</summary>
public sealed class BrokerStartException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="message">What failed, then the broker's last log lines.</param>
    public BrokerStartException(string message) : base(message)
    {
    }

    /// <summary>Creates the exception with its cause.</summary>
    /// <param name="message">What failed.</param>
    /// <param name="innerException">The failure underneath.</param>
    public BrokerStartException(string message, Exception innerException) : base(message, innerException)
    {
    }

    /// <summary>Creates the exception with a generic message.</summary>
    public BrokerStartException() : base("The embedded Kafka broker did not start.")
    {
    }

    /// <summary>The broker could not bind a port (another process took it after it was found free).</summary>
    public bool PortInUse { get; init; }

    /// <summary>The first line of the message: what failed, without the log.</summary>
    public string Summary => Message.Split('\n')[0].TrimEnd();
}
