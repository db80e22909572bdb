namespace KafkaPerf.Cli;

/// <summary>How the tool reports what went wrong: one line each, and with <c>--verbose</c> the exception behind it.</summary>
internal static class CliErrors
{
    /// <summary>Whether <c>--verbose</c> was given: errors then carry their exception's stack trace.</summary>
    public static bool Verbose { get; set; }

    /// <summary>Writes an error (one line per line of the message) and, with <c>--verbose</c>, the exception behind it.</summary>
    /// <param name="exitCode">The exit code to return.</param>
    /// <param name="message">What is wrong and what to do.</param>
    /// <param name="exception">The exception behind it, if any.</param>
    /// <returns><paramref name="exitCode"/>.</returns>
    public static int Fail(int exitCode, string message, Exception? exception = null)
    {
        foreach (var line in message.Split(Environment.NewLine)) Console.Error.WriteLine($"kafkaperf: {line}");
        if (Verbose && exception is not null) Console.Error.WriteLine(exception.ToString());
        return exitCode;
    }

    /// <summary>Bad input or a missing prerequisite: exit code 2.</summary>
    /// <param name="message">What is wrong and what to do.</param>
    /// <param name="exception">The exception behind it, if any.</param>
    /// <returns>2.</returns>
    public static int BadInput(string message, Exception? exception = null) => Fail(ExitCodes.BadInput, message, exception);

    /// <summary>An error nobody foresaw: one line naming it, the stack trace with <c>--verbose</c>.</summary>
    /// <param name="exception">The exception.</param>
    /// <returns>1.</returns>
    public static int Unexpected(Exception exception)
    {
        ArgumentNullException.ThrowIfNull(exception);
        Console.Error.WriteLine($"kafkaperf: unexpected error: {exception.GetType().Name}: {exception.Message.ReplaceLineEndings(" ")}"
            + (Verbose ? string.Empty : " (--verbose shows the stack trace; please report it)"));
        if (Verbose) Console.Error.WriteLine(exception.ToString());
        return ExitCodes.RunsFailed;
    }
}
