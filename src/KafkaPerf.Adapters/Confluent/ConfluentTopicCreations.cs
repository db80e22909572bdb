using Confluent.Kafka;
using Confluent.Kafka.Admin;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// Topics asked for at once go to the cluster in one CreateTopics request: while one request is out, the topics asked for
/// meanwhile wait and go together in the next. The broker reads one request per connection at a time, so the twelve
/// topics of a cell, created together by the runner, took twelve round trips of the controller in twelve requests
/// (357-374 ms on the embedded broker) and one in a single request (31-67 ms).
/// </summary>
/// <param name="admin">The client's admin client: one connection.</param>
/// <param name="timeout">Each request's time limit, and the controller's.</param>
internal sealed class ConfluentTopicCreations(IAdminClient admin, TimeSpan timeout)
{
    private readonly Lock _gate = new();
    private List<(TopicSpecification Topic, TaskCompletionSource Created)> _waiting = [];
    private bool _sending;

    /// <summary>Creates a topic, with the others asked for at the same time.</summary>
    /// <param name="topic">The topic.</param>
    /// <returns>Done when the controller has created it.</returns>
    /// <exception cref="TopicExistsException">The topic exists already.</exception>
    /// <exception cref="KafkaException">The cluster refused it, or did not answer.</exception>
    public Task CreateAsync(TopicSpecification topic)
    {
        var created = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        bool send;
        lock (_gate)
        {
            _waiting.Add((topic, created));
            send = !_sending;
            _sending = true;
        }
        if (send) _ = Task.Run(SendWaitingAsync);
        return created.Task;
    }

    /// <summary>Sends what is waiting, in one request, and again for what came meanwhile, until nothing waits.</summary>
    private async Task SendWaitingAsync()
    {
        while (true)
        {
            List<(TopicSpecification Topic, TaskCompletionSource Created)> batch;
            lock (_gate)
            {
                if (_waiting.Count == 0)
                {
                    _sending = false;
                    return;
                }
                (batch, _waiting) = (_waiting, []);
            }
            try
            {
                await admin.CreateTopicsAsync(batch.Select(b => b.Topic),
                    new CreateTopicsOptions { RequestTimeout = timeout, OperationTimeout = timeout }).ConfigureAwait(false);
                foreach (var (_, created) in batch) created.TrySetResult();
            }
            catch (CreateTopicsException ex)
            {
                // Each topic has its own outcome: one that exists fails its own caller only.
                foreach (var (topic, created) in batch)
                {
                    var report = ex.Results.FirstOrDefault(r => r.Topic == topic.Name);
                    if (report is null || report.Error.Code == ErrorCode.NoError) created.TrySetResult();
                    else if (report.Error.Code == ErrorCode.TopicAlreadyExists) created.TrySetException(new TopicExistsException(topic.Name, ex));
                    else created.TrySetException(new KafkaException(report.Error));
                }
            }
            catch (Exception ex)
            {
                foreach (var (_, created) in batch) created.TrySetException(ex);
            }
        }
    }
}
