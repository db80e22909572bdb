namespace KafkaPerf.Adapters.Jvm;

/// <summary>A Java exception, thrown in the JVM and carried into .NET with its class, message and stack trace.</summary>
public sealed class JavaException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="javaClass">The Java class name, e.g. <c>org.apache.kafka.common.config.ConfigException</c>.</param>
    /// <param name="javaMessage">The Java message (<c>getMessage()</c>), possibly <see langword="null"/>.</param>
    /// <param name="javaStackTrace">The Java stack trace as <c>printStackTrace</c> writes it, causes included.</param>
    public JavaException(string javaClass, string? javaMessage, string javaStackTrace)
        : base(javaMessage is null ? javaClass : $"{javaClass}: {javaMessage}")
    {
        JavaClass = javaClass;
        JavaMessage = javaMessage;
        JavaStackTrace = javaStackTrace;
    }

    /// <summary>Creates the exception with a generic message.</summary>
    public JavaException() : this("java.lang.Throwable", null, string.Empty)
    {
    }

    /// <summary>Creates the exception with a message only.</summary>
    /// <param name="message">The message.</param>
    public JavaException(string message) : this("java.lang.Throwable", message, string.Empty)
    {
    }

    /// <summary>Creates the exception with a message and a .NET cause.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The cause.</param>
    public JavaException(string message, Exception innerException) : base(message, innerException)
    {
        JavaClass = "java.lang.Throwable";
        JavaMessage = message;
        JavaStackTrace = string.Empty;
    }

    /// <summary>The Java class of the exception.</summary>
    public string JavaClass { get; }

    /// <summary>The Java message; <see langword="null"/> when it had none.</summary>
    public string? JavaMessage { get; }

    /// <summary>The Java stack trace, causes included.</summary>
    public string JavaStackTrace { get; }

    /// <summary>Whether the Java exception is of this class (by name, not by inheritance).</summary>
    /// <param name="javaClass">A fully qualified Java class name.</param>
    public bool Is(string javaClass) => string.Equals(JavaClass, javaClass, StringComparison.Ordinal);

    /// <inheritdoc />
    public override string? StackTrace =>
        string.IsNullOrEmpty(JavaStackTrace) ? base.StackTrace : $"{JavaStackTrace.TrimEnd()}{Environment.NewLine}   --- .NET ---{Environment.NewLine}{base.StackTrace}";
}
