using System.Diagnostics;
using System.Globalization;
using Confluent.Kafka;
using Confluent.Kafka.Admin;
using KafkaPerf.Adapters.Broker;
using KafkaPerf.Adapters.Confluent;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Tests.Broker;

/// <summary>A three-node embedded cluster whose brokers stay registered through a pause of a minute (the session timeout;
/// 9 s by default): a paused node is then still a broker of the cluster that the others list and clients are sent to, only
/// late - what a slow node is on a busy machine.</summary>
public sealed class ReadinessClusterFixture : ThreeNodeClusterFixture
{
    protected override TimeSpan SessionTimeout => TimeSpan.FromSeconds(60);
}

/// <summary>The connection's readiness on a real three-node cluster: a node stopped (SIGSTOP) while a topic is created
/// learns of it last, and is waited for, with the groups' coordinator on it; one that never learns within the bound is
/// named in one line, and so is the coordinator on it - on the cluster as the tool started it, and as a --bootstrap of
/// one of its brokers.</summary>
public sealed class ClusterReadinessTests(ReadinessClusterFixture fixture) : IClassFixture<ReadinessClusterFixture>
{
    [Fact]
    public async Task WaitUntilReadyAsync_ANodePausedWhileTheTopicIsCreated_WaitsForItThenAConsumerAtEachNodeAloneIsAssignedWithNoError()
    {
        var token = TestPaths.Timeout(4);
        // The groups' coordinator too: the readiness waits for it as well.
        var late = await CoordinatorNotControllerAsync(token);
        var topic = $"kafkaperf-readiness-test-{Guid.NewGuid():N}";
        var groups = fixture.Cluster.Nodes.ToDictionary(n => n.NodeId, n => $"{topic}__group-{n.NodeId}");
        try
        {
            late.Pause(static () => { });
            await CreateAsync(topic, late, token);
            var waited = Stopwatch.StartNew();
            var ready = fixture.Broker.Connection.Readiness!.WaitUntilReadyAsync(topic, [.. groups.Values], TimeSpan.FromMinutes(2), token).AsTask();

            // However slow the machine, a stopped node answers nothing: no readiness while it is stopped.
            await Task.Delay(TimeSpan.FromSeconds(2), token);
            Assert.False(ready.IsCompleted, $"ready while node {late.NodeId} was stopped: {(ready.IsCompleted ? await ready : null)}");
            var resumedAt = waited.Elapsed;
            late.Resume();

            Assert.Null(await ready);
            var total = waited.Elapsed;
            var woke = total - resumedAt;
            // What it costs when every node knows the topic already: its clients made, each broker and coordinator asked once.
            var again = Stopwatch.StartNew();
            Assert.Null(await fixture.Broker.Connection.Readiness!.WaitUntilReadyAsync(topic, [.. groups.Values], TimeSpan.FromMinutes(2), token));
            TestContext.Current.TestOutputHelper!.WriteLine(
                $"readiness: {total.TotalSeconds:0.00} s in all, {woke.TotalSeconds:0.00} s after node {late.NodeId} woke; {again.Elapsed.TotalMilliseconds:0} ms once every node knew the topic");

            // Each node alone, the late one included, answers a new consumer with the topic: assigned, no error.
            var consumers = fixture.Cluster.Nodes.Select(node => Task.Run(() => AssignAsync(node, topic, groups[node.NodeId], token), token)).ToList();
            foreach (var (node, error) in await Task.WhenAll(consumers))
                Assert.True(error is null, $"consumer at node {node} alone: {error}");
        }
        finally
        {
            late.Resume();
            await DeleteAsync(topic);
        }
    }

    [Fact]
    public async Task WaitUntilReadyAsync_BootstrapAtOneBrokerAndAnotherStoppedBeyondTheBound_NamesThatBrokerAndTheCoordinatorOnItInOneLineOnceTheBoundHasPassed()
    {
        var token = TestPaths.Timeout(4);
        var late = await CoordinatorNotControllerAsync(token);
        // As --bootstrap gives it: one broker's address; the others are found in its metadata.
        await using var cluster = await ConnectedBroker.ConnectAsync(
            BrokerSource.Cluster(fixture.Cluster.Nodes.First(n => n != late).BootstrapServer), null, token);
        var topic = $"kafkaperf-readiness-test-{Guid.NewGuid():N}";
        var bound = TimeSpan.FromSeconds(3);
        try
        {
            late.Pause(static () => { });
            await CreateAsync(topic, late, token);
            var waited = Stopwatch.StartNew();

            var why = await cluster.Connection.Readiness!.WaitUntilReadyAsync(topic, [topic + "__group"], bound, token);

            waited.Stop();
            TestContext.Current.TestOutputHelper!.WriteLine($"not ready after {waited.Elapsed.TotalSeconds:0.00} s: {why}");
            Assert.NotNull(why);
            Assert.DoesNotContain('\n', why);
            // The other brokers knew the topic: only the stopped one is named, and the coordinator on it.
            var parts = why.Split("; ");
            Assert.Equal(2, parts.Length);
            Assert.StartsWith($"broker {late.NodeId} ({late.BootstrapServer}) did not know topic '{topic}' after 3 s (", parts[0], StringComparison.Ordinal);
            Assert.StartsWith($"the coordinator of group '{topic}__group' did not answer after 3 s (", parts[1], StringComparison.Ordinal);
            Assert.True(waited.Elapsed >= bound - TimeSpan.FromMilliseconds(50), $"gave up after {waited.Elapsed.TotalSeconds:0.00} s, before its bound");
            // Not a hang: its last requests end at the bound (librdkafka's time limits), then its clients are disposed.
            Assert.True(waited.Elapsed < bound + TimeSpan.FromSeconds(15), $"gave up after {waited.Elapsed.TotalSeconds:0.00} s");
        }
        finally
        {
            late.Resume();
            await DeleteAsync(topic);
        }
    }

    [Fact]
    public async Task WaitUntilReadyAsync_TopicsAskedAboutTogether_EachAnsweredForItself()
    {
        var token = TestPaths.Timeout(4);
        var readiness = fixture.Broker.Connection.Readiness!;
        var topics = Enumerable.Range(0, 4).Select(_ => $"kafkaperf-readiness-test-{Guid.NewGuid():N}").ToList();
        var missing = $"kafkaperf-readiness-test-{Guid.NewGuid():N}";
        try
        {
            using (var admin = new AdminClientBuilder(new AdminClientConfig { BootstrapServers = fixture.Cluster.BootstrapServers }).SetLogHandler(static (_, _) => { }).Build())
                await admin.CreateTopicsAsync(topics.Select(t => new TopicSpecification { Name = t, NumPartitions = 3, ReplicationFactor = 3 })).WaitAsync(token);

            // Asked together, as the runner asks about a cell's topics: they share the cluster's listing, not their answers.
            // The topics that exist get a minute (CI's four test processes on 2 cores once kept a node from learning them
            // within 3 s); the one that does not, 3 s.
            var asks = topics.Append(missing).Select(t => readiness.WaitUntilReadyAsync(t, [t + "__group"],
                TimeSpan.FromSeconds(t == missing ? 3 : 60), token).AsTask()).ToList();
            var answers = await Task.WhenAll(asks);

            Assert.All(answers.Take(topics.Count), a => Assert.Null(a));
            Assert.NotNull(answers[^1]);
            Assert.Contains($"did not know topic '{missing}' after 3 s", answers[^1], StringComparison.Ordinal);
            // And alone again afterwards.
            Assert.Null(await readiness.WaitUntilReadyAsync(topics[0], [topics[0] + "__group"], TimeSpan.FromSeconds(30), token));
        }
        finally
        {
            foreach (var topic in topics) await DeleteAsync(topic);
        }
    }

    /// <summary>The node that leads <c>__consumer_offsets</c> - the coordinator of every group, as the embedded cluster
    /// has one partition of it - made a node other than the active controller: stopping the controller would hold the
    /// whole cluster up until another is elected, not only the node.</summary>
    private async Task<EmbeddedBrokerNode> CoordinatorNotControllerAsync(CancellationToken token)
    {
        // The first group lookup creates __consumer_offsets (a question about a topic that does not exist is enough).
        using (var consumer = new ConsumerBuilder<Ignore, Ignore>(new ConsumerConfig { BootstrapServers = fixture.Cluster.BootstrapServers, GroupId = "kafkaperf-readiness-test" })
            .SetLogHandler(static (_, _) => { }).Build())
        {
            try
            {
                consumer.Committed([new TopicPartition("kafkaperf-readiness-test-none", 0)], TimeSpan.FromSeconds(60));
            }
            catch (KafkaException)
            {
                // Answered with an error for the missing topic, or not at all: the leader is asked below either way.
            }
        }
        var node = fixture.Cluster.Nodes[0];
        for (int moves = 0; ; moves++)
        {
            int controller = int.Parse(await node.AskAsync("controller", TimeSpan.FromSeconds(30), token), CultureInfo.InvariantCulture);
            int leader = -1;
            while (leader < 0)
            {
                try
                {
                    leader = int.Parse((await node.AskAsync("leader __consumer_offsets 0", TimeSpan.FromSeconds(30), token)).Split(' ')[0], CultureInfo.InvariantCulture);
                }
                catch (InvalidOperationException)
                {
                    // Not created yet.
                }
                if (leader < 0) await Task.Delay(200, token);
            }
            if (leader != controller) return fixture.Cluster.Nodes[leader - 1];
            Assert.True(moves < 3, $"the leadership of __consumer_offsets-0 stayed with the active controller, node {controller}");
            await node.AskAsync("move-leader __consumer_offsets 0", TimeSpan.FromSeconds(30), token);
        }
    }

    /// <summary>Creates a three-partition topic, three replicas, through the nodes other than the stopped one.</summary>
    /// <remarks>librdkafka sends CreateTopics to the broker the metadata names as the controller, which in KRaft is any live
    /// broker, the stopped one included: a connection to it never comes up, so the request is never sent and times out,
    /// and a new client (another name drawn) asks again. A request that did get through shows as the topic existing.</remarks>
    private async Task CreateAsync(string topic, EmbeddedBrokerNode stopped, CancellationToken token)
    {
        var bootstrap = string.Join(',', fixture.Cluster.Nodes.Where(n => n != stopped).Select(n => n.BootstrapServer));
        for (int attempt = 1; ; attempt++)
        {
            using var admin = new AdminClientBuilder(new AdminClientConfig { BootstrapServers = bootstrap }).SetLogHandler(static (_, _) => { }).Build();
            try
            {
                await admin.CreateTopicsAsync([new TopicSpecification { Name = topic, NumPartitions = 3, ReplicationFactor = 3 }],
                    new CreateTopicsOptions { RequestTimeout = TimeSpan.FromSeconds(5), OperationTimeout = TimeSpan.FromSeconds(5) }).WaitAsync(token);
                return;
            }
            catch (CreateTopicsException ex) when (ex.Results.All(r => r.Error.Code == ErrorCode.TopicAlreadyExists))
            {
                return;
            }
            catch (KafkaException ex) when (attempt < 12 && (ex is CreateTopicsException create ? create.Results.All(r => r.Error.IsLocalError) : ex.Error.IsLocalError))
            {
                // Sent nowhere (the stopped node was named the controller): ask again.
            }
        }
    }

    /// <summary>A consumer bootstrapped at <paramref name="node"/> alone, in a group of its own, until it is assigned or
    /// fails.</summary>
    private static async Task<(int Node, string? Error)> AssignAsync(EmbeddedBrokerNode node, string topic, string group, CancellationToken token)
    {
        await using var client = new ConfluentClientFactory().Create(new KafkaEndpoint(node.BootstrapServer));
        using var consumer = client.CreateConsumer(new ConsumerSpec(topic, group, new ClientSettings(), UsePrefetch: false)
        {
            StallTimeout = TimeSpan.FromSeconds(60),
            Cancellation = token,
        });
        var sink = new AssignmentSink();
        consumer.StartPolling(sink);
        try
        {
            var outcome = await Task.WhenAny(sink.Assigned.Task, sink.Failed.Task).WaitAsync(token);
            return (node.NodeId, outcome == sink.Failed.Task ? await sink.Failed.Task : null);
        }
        finally
        {
            consumer.StopPolling();
        }
    }

    private async Task DeleteAsync(string topic)
    {
        using var admin = new AdminClientBuilder(new AdminClientConfig { BootstrapServers = fixture.Cluster.BootstrapServers }).SetLogHandler(static (_, _) => { }).Build();
        try
        {
            await admin.DeleteTopicsAsync([topic], new DeleteTopicsOptions { RequestTimeout = TimeSpan.FromSeconds(30), OperationTimeout = TimeSpan.FromSeconds(30) });
        }
        catch (DeleteTopicsException ex) when (ex.Results.All(r => r.Error.Code == ErrorCode.UnknownTopicOrPart))
        {
            // Never created.
        }
    }

    private sealed class AssignmentSink : IRecordSink
    {
        public TaskCompletionSource Assigned { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public TaskCompletionSource<string> Failed { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public void OnAssigned() => Assigned.TrySetResult();

        public void OnRecord(long key, ReadOnlySpan<byte> value)
        {
        }

        public void OnError(string reason) => Failed.TrySetResult(reason);
    }
}
