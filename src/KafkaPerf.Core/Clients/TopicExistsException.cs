namespace KafkaPerf.Clients;

/// <summary>A run's topic already exists: it is not the run's own, so the runner neither uses nor deletes it.</summary>
public sealed class TopicExistsException : Exception
{
    /// <summary>Creates the exception with a generic message.</summary>
    public TopicExistsException() : base("The topic already exists.")
    {
        Topic = string.Empty;
    }

    /// <summary>Creates the exception.</summary>
    /// <param name="topic">The topic name.</param>
    public TopicExistsException(string topic) : this(topic, null!)
    {
    }

    /// <summary>Creates the exception with the client's error.</summary>
    /// <param name="topic">The topic name.</param>
    /// <param name="innerException">The client's error.</param>
    public TopicExistsException(string topic, Exception innerException)
        : base($"Topic '{topic}' already exists (left from an earlier run with --keep-topics?): delete it, or choose another topic prefix.", innerException)
    {
        Topic = topic;
    }

    /// <summary>The topic that exists.</summary>
    public string Topic { get; }
}
