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

    /// <summary>The broker failed under the plan: the embedded broker did not start (the message carries the tail of its
    /// log, nothing ran), it exited during the plan, or a <c>--bootstrap</c> cluster stopped answering for the stall
    /// timeout. The runs finished before were saved; the remaining runs were not attempted.</summary>
    public const int BrokerFailed = 3;

    /// <summary><c>compare</c>'s gate: a cell of the candidate is slower beyond the allowed percentage.</summary>
    public const int Slower = 4;

    /// <summary>The plan ran and its files were written, but the results store (<c>--store</c>) did not take the result;
    /// <c>history import</c> adds the files later.</summary>
    public const int StoreFailed = 5;

    /// <summary>Cancelled with Ctrl+C (SIGINT); results gathered so far were saved. SIGTERM ends with 143.</summary>
    public const int Cancelled = 130;
}
