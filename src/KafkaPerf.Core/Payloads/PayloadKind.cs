namespace KafkaPerf.Payloads;

/// <summary>What the payload bytes look like.</summary>
public enum PayloadKind
{
    /// <summary>Random bytes: incompressible, as in the KNet seed benchmark.</summary>
    Random,

    /// <summary>Web-server access-log lines generated from the seed (combined log format): compressible as real logs
    /// are, as in the codec benchmark of seed 001.</summary>
    AccessLog,

    /// <summary>The bytes of a file (<see cref="Plans.BenchmarkPlan.PayloadFile"/>), repeated or cut to each size.</summary>
    File,
}
