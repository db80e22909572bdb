using System.Diagnostics;
using System.Globalization;
using Confluent.Kafka;
using Confluent.Kafka.Admin;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// A cluster's readiness for a run, asked with Confluent.Kafka for every client alike: the brokers the cluster lists in
/// its metadata; the topic's partitions, each with a leader; each broker in turn until it knows the topic; and each of the
/// run's groups' coordinator until it answers - all at once, within one bound.
/// </summary>
/// <remarks>
/// <para>A broker is asked about the topic with a DescribeConfigs request for that broker and the topic together, which
/// librdkafka sends to that broker only, and which the broker answers from its own copy of the cluster's metadata ("unknown
/// topic" until it has learned it). A metadata request cannot be aimed: librdkafka sends it to any broker it has learned
/// of, and from version 2.10 it no longer keeps the bootstrap connection once it has. A broker knows a new topic with all
/// its partitions and their leaders at once (the controller writes them in one batch of its log, which a broker applies
/// whole). A user not allowed to describe the topic's configuration is not held up: such a broker counts as ready once it
/// answers.</para>
/// <para>Thread-safe; each call makes its clients and disposes them.</para>
/// </remarks>
/// <param name="bootstrapServers">The cluster (<c>host:port,…</c>).</param>
/// <param name="security">How clients reach its listener; plain TCP when <see langword="null"/>.</param>
public sealed class ConfluentClusterReadiness(string bootstrapServers, KafkaSecurity? security = null) : IClusterReadiness
{
    /// <summary>The pause before asking again a broker that answered without the topic, or a coordinator that was not there.</summary>
    private static readonly TimeSpan Retry = TimeSpan.FromMilliseconds(50);

    /// <summary>The first request's time limit; each request not answered in time doubles the next one's, within what is
    /// left of the bound.</summary>
    private static readonly TimeSpan FirstAttempt = TimeSpan.FromSeconds(1);

    /// <summary>No request is given longer than this (the bound is usually shorter).</summary>
    private static readonly TimeSpan LongestAttempt = TimeSpan.FromMinutes(10);

    /// <summary>The shortest time a request is given, so that a bound that has just run out still asks once.</summary>
    private static readonly TimeSpan ShortestAttempt = TimeSpan.FromMilliseconds(100);

    private readonly KafkaSecurity _security = security ?? KafkaSecurity.Plaintext;

    private readonly Lock _gate = new();

    // The cluster's listing (brokers, and the admin client that asked) of the calls in progress with one cancellation: the
    // runner asks about a cell's topics all at once, and an admin client started per call (0.06 s each, racing every
    // bootstrap server) was most of what a batch of twelve cost. A call alone, as after healing, starts its own, as before.
    private Listing? _listing;

    /// <inheritdoc />
    /// <remarks>A request that is not answered is asked again with twice the time, within what is left of the bound: a
    /// loaded machine that takes seconds to answer is slow, not unready, and a broker that answers again (a node that
    /// woke, a coordinator that moved) is asked again soon. A blocking request in progress ignores a cancellation until its
    /// own time limit; the caller stops waiting for it at once, and its thread ends by itself.</remarks>
    public async ValueTask<string?> WaitUntilReadyAsync(string topic, IReadOnlyList<string> groups, TimeSpan timeout, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrEmpty(topic);
        ArgumentNullException.ThrowIfNull(groups);
        ConfluentNativeLibrary.EnsureLoaded();
        long deadline = Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        string after = string.Create(CultureInfo.InvariantCulture, $"after {timeout.TotalSeconds:0.#} s");
        var listing = Join(topic, deadline, after, cancellationToken);
        try
        {
            var (admin, brokers, noCluster) = await listing.Cluster.ConfigureAwait(false);
            if (admin is null) return noCluster;
            var checks = brokers.Select(b => BrokerKnowsAsync(admin, b, topic, deadline, after, cancellationToken))
                .Append(Blocking(() => PartitionsLed(admin, topic, deadline, after, cancellationToken), cancellationToken))
                .Concat(groups.Distinct(StringComparer.Ordinal).Select(g => Blocking(() => CoordinatorAnswers(g, topic, deadline, after, cancellationToken), cancellationToken)));
            var failures = (await Task.WhenAll(checks).ConfigureAwait(false)).OfType<string>().ToList();
            return failures.Count == 0 ? null : string.Join("; ", failures);
        }
        finally
        {
            Leave(listing);
        }
    }

    /// <summary>The listing of the calls in progress with this cancellation, or a new one.</summary>
    private Listing Join(string topic, long deadline, string after, CancellationToken cancellationToken)
    {
        lock (_gate)
        {
            if (_listing is { } shared && shared.Token == cancellationToken)
            {
                shared.Users++;
                return shared;
            }
            var listing = new Listing(ClusterAsync(topic, deadline, after, cancellationToken), cancellationToken);
            // A call with another cancellation keeps the earlier listing's to itself and its own callers.
            _listing ??= listing;
            return listing;
        }
    }

    /// <summary>The last call of a listing disposes its admin client (a listing that was cancelled disposed its own).</summary>
    private void Leave(Listing listing)
    {
        lock (_gate)
        {
            if (--listing.Users > 0) return;
            if (_listing == listing) _listing = null;
        }
        if (listing.Cluster.IsCompletedSuccessfully && listing.Cluster.Result.Admin is { } admin) PollWakeup.DisposeAdmin(admin);
    }

    /// <summary>The cluster's brokers and the admin client that listed them, for the calls that share them.</summary>
    private sealed class Listing(Task<(IAdminClient? Admin, IReadOnlyList<BrokerMetadata> Brokers, string? Failure)> cluster, CancellationToken token)
    {
        public Task<(IAdminClient? Admin, IReadOnlyList<BrokerMetadata> Brokers, string? Failure)> Cluster { get; } = cluster;

        public CancellationToken Token { get; } = token;

        /// <summary>Calls using it; guarded by the readiness's gate.</summary>
        public int Users { get; set; } = 1;
    }

    /// <summary>The brokers the cluster lists, and the admin client that asked, from whichever bootstrap server answers
    /// first: one that is stopped or slow (it may be the very node that is late) holds nothing up.</summary>
    private async Task<(IAdminClient? Admin, IReadOnlyList<BrokerMetadata> Brokers, string? Failure)> ClusterAsync(
        string topic, long deadline, string after, CancellationToken cancellationToken)
    {
        var race = new Race();
        var asks = bootstrapServers.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)
            .Select(address => Task.Factory.StartNew(() => ListBrokers(address, topic, deadline, race, cancellationToken),
                CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default))
            .ToList();
        string? why = null;
        var waiting = asks.ToList();
        try
        {
            while (waiting.Count > 0)
            {
                var done = await Task.WhenAny(waiting).WaitAsync(cancellationToken).ConfigureAwait(false);
                waiting.Remove(done);
                var (admin, brokers, reason) = await done.ConfigureAwait(false);
                if (admin is not null) return (admin, brokers!, null);
                why ??= reason;
            }
        }
        catch (OperationCanceledException)
        {
            // Nobody takes a client any more: one that won meanwhile is disposed, and none wins after this.
            race.Close();
            foreach (var ask in asks)
                _ = ask.ContinueWith(static t =>
                {
                    if (t.Result.Admin is { } admin) PollWakeup.DisposeAdmin(admin);
                }, CancellationToken.None, TaskContinuationOptions.OnlyOnRanToCompletion, TaskScheduler.Default);
            throw;
        }
        return (null, [], $"no broker at {bootstrapServers} answered a metadata request {after} ({why ?? "no answer"})");
    }

    /// <summary>Asks one bootstrap server for the cluster's brokers until it answers, another one has, or the time is up;
    /// the winner keeps its client for the rest.</summary>
    private (IAdminClient? Admin, IReadOnlyList<BrokerMetadata>? Brokers, string? Why) ListBrokers(
        string address, string topic, long deadline, Race race, CancellationToken cancellationToken)
    {
        var seen = new LastError();
        var admin = Admin(address, seen);
        bool handedOver = false;
        var attempt = FirstAttempt;
        string why = "no answer";
        try
        {
            while (!race.IsOver && !cancellationToken.IsCancellationRequested)
            {
                try
                {
                    var metadata = admin.GetMetadata(topic, Limit(attempt, deadline));
                    if (metadata.Brokers.Count > 0)
                    {
                        if (!race.TryWin()) break;
                        handedOver = true;
                        return (admin, metadata.Brokers, null);
                    }
                    why = "it listed no broker";
                }
                catch (KafkaException ex)
                {
                    why = seen.Describe(ex.Error);
                    attempt = Next(attempt, ex.Error);
                }
                if (Stopwatch.GetTimestamp() >= deadline) break;
                Thread.Sleep(Retry);
            }
            return (null, null, why);
        }
        finally
        {
            if (!handedOver) PollWakeup.DisposeAdmin(admin);
        }
    }

    /// <summary>Asks one broker, and only it, until it knows the topic.</summary>
    /// <returns><see langword="null"/> once it does; otherwise the line that says it did not.</returns>
    private static async Task<string?> BrokerKnowsAsync(IAdminClient admin, BrokerMetadata broker, string topic, long deadline, string after,
        CancellationToken cancellationToken)
    {
        // The broker resource sends the request to that broker; the topic resource is what it is asked about.
        ConfigResource[] resources =
        [
            new() { Type = ResourceType.Broker, Name = broker.BrokerId.ToString(CultureInfo.InvariantCulture) },
            new() { Type = ResourceType.Topic, Name = topic },
        ];
        var attempt = FirstAttempt;
        string why = "no answer";
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                await admin.DescribeConfigsAsync(resources, new DescribeConfigsOptions { RequestTimeout = Limit(attempt, deadline) })
                    .WaitAsync(cancellationToken).ConfigureAwait(false);
                return null;
            }
            catch (DescribeConfigsException ex)
            {
                var answer = ex.Results.FirstOrDefault(r => r.ConfigResource.Type == ResourceType.Topic);
                // Only the topic's part says what the broker knows: an error about the broker's own configuration (a user
                // not allowed to read it) does not.
                if (answer is null || !answer.Error.IsError || answer.Error.Code == ErrorCode.TopicAuthorizationFailed) return null;
                why = answer.Error.Code == ErrorCode.UnknownTopicOrPart ? "it does not know it yet" : answer.Error.Reason;
                attempt = Next(attempt, answer.Error);
            }
            catch (KafkaException ex)
            {
                why = Reason(ex.Error);
                attempt = Next(attempt, ex.Error);
            }
            if (Stopwatch.GetTimestamp() >= deadline)
                return $"broker {broker.BrokerId} ({Address(broker)}) did not know topic '{topic}' {after} ({why})";
            await Task.Delay(Retry, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>Asks the cluster (any broker that knows the topic) until every partition of the topic has a leader.</summary>
    private static string? PartitionsLed(IAdminClient admin, string topic, long deadline, string after, CancellationToken cancellationToken)
    {
        var attempt = FirstAttempt;
        string why = "no answer";
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                if (Knows(admin.GetMetadata(topic, Limit(attempt, deadline)), topic, out why)) return null;
            }
            catch (KafkaException ex)
            {
                why = Reason(ex.Error);
                attempt = Next(attempt, ex.Error);
            }
            if (Stopwatch.GetTimestamp() >= deadline)
                return $"topic '{topic}' was not led on every partition {after} ({why})";
            Thread.Sleep(Retry);
        }
    }

    /// <summary>Asks the group's coordinator for the group's committed offset of the topic's partition 0 until it answers:
    /// the question goes to the coordinator only, which the consumer finds first (on a new cluster that lookup creates
    /// <c>__consumer_offsets</c>, which takes seconds); a group that does not exist yet has none, and nothing joins it.</summary>
    /// <remarks>Not the admin client's DescribeConsumerGroups: librdkafka's admin requests to a coordinator abort the
    /// process when one that timed out is answered late (<c>rd_kafka_enq_once_del_source_return: Assertion `eonce->refcnt
    /// > 0' failed</c>; librdkafka issue 4605) - it did so here twice, asked with 1 s limits while the coordinator's node
    /// was stopped.</remarks>
    private string? CoordinatorAnswers(string group, string topic, long deadline, string after, CancellationToken cancellationToken)
    {
        var seen = new LastError();
        var config = new List<KeyValuePair<string, string>>
        {
            new("bootstrap.servers", bootstrapServers), new("client.id", "kafkaperf-readiness"), new("group.id", group),
            new("enable.auto.commit", "false"), new("allow.auto.create.topics", "false"),
        };
        config.AddRange(ConfluentSettings.Security(_security));
        using var consumer = new ConsumerBuilder<Ignore, Ignore>(config)
            .SetLogHandler((_, log) => seen.Observe(log.Message))
            .SetErrorHandler((_, error) => seen.Observe(error.Reason))
            .Build();
        TopicPartition[] partition = [new(topic, 0)];
        var attempt = FirstAttempt;
        string why = "no answer";
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                consumer.Committed(partition, Limit(attempt, deadline));
                return null;
            }
            catch (TopicPartitionOffsetException ex) when (ex.Results.All(r => !NoCoordinator(r.Error)))
            {
                // An error the coordinator itself gave for the partition is an answer.
                return null;
            }
            catch (KafkaException ex)
            {
                why = seen.Describe(ex.Error);
                attempt = Next(attempt, ex.Error);
            }
            if (Stopwatch.GetTimestamp() >= deadline)
                return $"the coordinator of group '{group}' did not answer {after} ({why})";
            Thread.Sleep(Retry);
        }
    }

    /// <summary>Whether the answer lists the topic with every partition led and no error; otherwise what is missing.</summary>
    internal static bool Knows(Metadata metadata, string topic, out string state)
    {
        var found = metadata.Topics.FirstOrDefault(t => t.Topic == topic);
        if (found is null)
        {
            state = "not listed";
            return false;
        }
        if (found.Error.IsError)
        {
            state = found.Error.Reason;
            return false;
        }
        if (found.Partitions.Count == 0)
        {
            state = "no partitions";
            return false;
        }
        if (found.Partitions.FirstOrDefault(p => p.Leader < 0 || p.Error.IsError) is { } partition)
        {
            state = partition.Error.IsError ? $"partition {partition.PartitionId}: {partition.Error.Reason}" : $"partition {partition.PartitionId} had no leader";
            return false;
        }
        state = string.Empty;
        return true;
    }

    /// <summary>Errors that mean no coordinator answered: none found yet, not the coordinator (any more), still loading,
    /// or librdkafka's own (a timeout, a broken connection).</summary>
    private static bool NoCoordinator(Error error) => error.IsError && (error.IsLocalError
        || error.Code is ErrorCode.GroupCoordinatorNotAvailable or ErrorCode.NotCoordinatorForGroup or ErrorCode.GroupLoadInProgress);

    private static string Address(BrokerMetadata broker) =>
        broker.Host.Contains(':', StringComparison.Ordinal) ? $"[{broker.Host}]:{broker.Port}" : $"{broker.Host}:{broker.Port}";

    private static string Reason(Error error) => error.Code == ErrorCode.Local_TimedOut ? "no answer" : error.Reason;

    /// <summary>A request's time limit: <paramref name="attempt"/>, within what is left of the bound.</summary>
    private static TimeSpan Limit(TimeSpan attempt, long deadline)
    {
        var left = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), deadline);
        var limit = attempt < left ? attempt : left;
        return limit > ShortestAttempt ? limit : ShortestAttempt;
    }

    /// <summary>The next request's time limit after <paramref name="error"/>: twice as long when the last one was not
    /// answered in time.</summary>
    private static TimeSpan Next(TimeSpan attempt, Error error) =>
        error.Code == ErrorCode.Local_TimedOut && attempt < LongestAttempt ? attempt * 2 : attempt;

    /// <summary>An admin client whose log and errors are kept for the line, not written to the console.</summary>
    private IAdminClient Admin(string bootstrap, LastError seen)
    {
        var config = ConfluentSettings.Admin(bootstrap, _security);
        config.Set("client.id", "kafkaperf-readiness");
        return new AdminClientBuilder(config)
            .SetLogHandler((_, log) => seen.Observe(log.Message))
            .SetErrorHandler((_, error) => seen.Observe(error.Reason))
            .Build();
    }

    /// <summary>A blocking call on a thread of its own; the caller stops waiting for it when cancelled.</summary>
    private static Task<T> Blocking<T>(Func<T> call, CancellationToken cancellationToken) =>
        Task.Factory.StartNew(call, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default).WaitAsync(cancellationToken);

    /// <summary>Which bootstrap server's client lists the brokers first; once the caller has stopped waiting, nobody.</summary>
    private sealed class Race
    {
        private int _over;

        public bool IsOver => Volatile.Read(ref _over) != 0;

        public bool TryWin() => Interlocked.Exchange(ref _over, 1) == 0;

        public void Close() => Interlocked.Exchange(ref _over, 1);
    }

    /// <summary>What librdkafka last said about a connection (a refused connect, a failed handshake), to say why an
    /// answer did not come.</summary>
    private sealed class LastError
    {
        private volatile string? _said;

        public void Observe(string message) => _said = message;

        public string Describe(Error error)
        {
            string reason = Reason(error);
            return _said is { } said && error.IsLocalError ? $"{reason}; last: {said}" : reason;
        }
    }
}
