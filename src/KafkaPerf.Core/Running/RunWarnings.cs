namespace KafkaPerf.Running;

/// <summary>How the runner's pieces say a warning: kept in the result and shown as it happens.</summary>
internal static class RunWarnings
{
    internal static void Warn(List<string> warnings, IBenchmarkProgress progress, IEnumerable<string> messages)
    {
        foreach (var message in messages)
        {
            lock (warnings) warnings.Add(message);
            progress.OnWarning(message);
        }
    }

    internal static string Capitalized(string text) => text.Length == 0 ? text : char.ToUpperInvariant(text[0]) + text[1..];
}
