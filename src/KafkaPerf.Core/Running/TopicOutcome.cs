namespace KafkaPerf.Running;

/// <summary>How a run's topic came to be before the run: whether the run owns it (it created it, so it deletes it), and
/// the run's error when it could not be created or the cluster was not ready for it.</summary>
/// <param name="Owned">Whether the run created the topic; a topic that existed already may be someone else's.</param>
/// <param name="Error">The run's error; <see langword="null"/> when the run can start.</param>
internal sealed record TopicOutcome(bool Owned, string? Error);
