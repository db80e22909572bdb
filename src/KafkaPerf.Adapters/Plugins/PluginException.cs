namespace KafkaPerf.Adapters.Plugins;

/// <summary>A plugin cannot be used: a missing path, a file that is not a .NET assembly, a contract of another version,
/// no client inside, a client that cannot be created, or a name taken. The message is one line that says what and what
/// to do; nothing has started.</summary>
public sealed class PluginException : Exception
{
    /// <summary>Creates the exception.</summary>
    public PluginException()
    {
    }

    /// <summary>Creates the exception with its one line.</summary>
    /// <param name="message">What is wrong and what to do.</param>
    public PluginException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with its one line and its cause.</summary>
    /// <param name="message">What is wrong and what to do.</param>
    /// <param name="innerException">The cause.</param>
    public PluginException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
