namespace KafkaPerf.Measurement;

/// <summary>Marks where one timed section starts and stops; calls nest (the outermost pair counts).</summary>
public interface ISectionProfiler
{
    /// <summary>The section starts: called right before the clock starts.</summary>
    void Enable();

    /// <summary>The section stopped: called right after the clock stopped and the readings were taken.</summary>
    void Disable();
}
