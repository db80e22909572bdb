namespace KafkaPerf.Cli;

/// <summary>Named exit codes of <c>dotnet kafkaperf</c>.</summary>
internal static class ExitCodes
{
    /// <summary>Everything ran and every run succeeded.</summary>
    public const int Success = 0;

    /// <summary>The plan ran, but at least one measured run failed (loss, duplicates, a stall, an error).</summary>
    public const int RunsFailed = 1;

    /// <summary>Bad input or a missing prerequisite (Java, Kafka's jars, librdkafka, an unreachable --bootstrap): nothing ran.</summary>
    public const int BadInput = 2;

    /// <summary>The embedded broker did not start; the message carries the tail of its log. Nothing ran.</summary>
    public const int BrokerFailed = 3;

    /// <summary>Cancelled with Ctrl+C; results gathered so far were saved.</summary>
    public const int Cancelled = 130;
}
