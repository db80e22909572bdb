namespace KafkaPerf.Clusters;

/// <summary>How a broker process the plan started has ended.</summary>
/// <param name="What">E.g. <c>the embedded broker exited (killed by SIGKILL)</c>.</param>
/// <param name="LogPath">A copy of its log that outlives the tool, or <see langword="null"/>.</param>
public sealed record BrokerExit(string What, string? LogPath)
{
    /// <summary>One line for the result and the screen.</summary>
    /// <param name="when">E.g. <c>during run 5</c>.</param>
    /// <returns>E.g. <c>the embedded broker exited (killed by SIGKILL) during run 5; its log: /out/x-broker.log</c>.</returns>
    public string Describe(string when) => LogPath is null ? $"{What} {when}" : $"{What} {when}; its log: {LogPath}";
}
