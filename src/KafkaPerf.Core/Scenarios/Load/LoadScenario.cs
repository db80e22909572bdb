using System.Diagnostics;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Scenarios.Load;

/// <summary>
/// Produce, roundtrip (and consume) with several producers and consumers, at a rate or as a burst, with a time series.
/// </summary>
/// <remarks>
/// <para>N producer instances, each created, used and disposed on a thread of its own, share the records: producer p
/// sends records p, p + N, p + 2N, … (keys are record numbers, unique across producers). With a rate they follow one
/// uniform schedule (<see cref="SendSchedule"/>); as a burst each sends as fast as its client takes records. Everything
/// starts together once every producer (and every consumer's assignment) is ready; no client or process starts inside the
/// timed section.</para>
/// <para>M consumers join one group on a topic with at least M partitions. Every key is checked exactly once across
/// them; the read ends when every key has arrived or every partition has been read past its last acknowledged offset
/// (the keys not seen are then proven lost), and a read that stalls before either leaves them <em>not verified</em>.</para>
/// <para>Latency: response time from when each timed record was due, service time from when it was actually sent,
/// and the send delay between the two - for produce at the acknowledgement, for roundtrip at the arrival. A burst has
/// no due time: its latency is the service time.</para>
/// </remarks>
public sealed partial class LoadScenario : IScenario
{
    private const int CancellationCheckMask = (1 << 10) - 1;
    // The schedule starts a little after every producer is ready, so that none is late for record 0.
    private static readonly TimeSpan StartLead = TimeSpan.FromMilliseconds(5);
    private static readonly TimeSpan ProducerRelease = TimeSpan.FromMinutes(1);

    private LoadScenario(ScenarioKind kind) => Kind = kind;

    /// <summary>The scenario this runs.</summary>
    public ScenarioKind Kind { get; }

    /// <summary>Whether a run takes this scenario rather than the single-producer burst of <see cref="Scenario"/>: a rate,
    /// several producers or several consumers.</summary>
    /// <param name="context">The run.</param>
    /// <returns><see langword="true"/> for a load run.</returns>
    public static bool Applies(ScenarioContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return Applies(context.Load, context.Producers, context.Consumers);
    }

    /// <summary>Whether a run of this load, producers and consumers is a load run.</summary>
    internal static bool Applies(RateLoad? load, int producers, int consumers) => load is not null || producers > 1 || consumers > 1;

    /// <summary>The load scenario of a kind.</summary>
    /// <param name="kind">Produce, consume or roundtrip.</param>
    /// <returns>The scenario.</returns>
    public static LoadScenario For(ScenarioKind kind) => new(kind);

    /// <summary>Runs once, blocking the calling thread until done, failed or cancelled.</summary>
    /// <param name="context">Client, topic, payload, load and settings.</param>
    /// <param name="cancellationToken">Cancels the run.</param>
    /// <returns>What was measured.</returns>
    /// <exception cref="OperationCanceledException">The token was cancelled.</exception>
    public RunRecord Run(ScenarioContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (context.Load is not null && Kind == ScenarioKind.Consume)
            throw new ArgumentException("A consume reads a filled topic as fast as it can: a rate applies to produce and roundtrip.", nameof(context));
        var schedule = new SendSchedule(context.Load, context.Clock.Frequency, context.MessageCount);
        var state = new LoadState(schedule, context.Clock)
        {
            Faults = context.Faults, Breakdown = context.Breakdown, Runtime = context.Breakdown ? context.Client as IRuntimeProbe : null,
            Broker = context.Breakdown ? context.BrokerBreakdown : null,
            // The read-back after a run with faults proves against the fault watch's ledger; a run that reads its own
            // records against one of its own.
            Acknowledged = context.Faults?.Acknowledged ?? (Kind == ScenarioKind.Produce ? null : context.NewAcknowledgedOffsets(schedule.TotalRecords)),
        };
        using var run = new LoadRun(this, context, state, cancellationToken);
        return run.Execute();
    }

    /// <summary>The state of one run; disposing it stops every thread and client it started.</summary>
    private sealed partial class LoadRun : IDisposable
    {
        private readonly LoadScenario _scenario;
        private readonly ScenarioContext _context;
        private readonly LoadState _state;
        private readonly SendSchedule _schedule;
        private readonly CancellationTokenSource _stop;
        private readonly ManualResetEventSlim _start = new();
        private readonly ManualResetEventSlim _release = new();
        private readonly ManualResetEventSlim _complete = new();
        private readonly List<ProducerWorker> _producers = [];
        // Copied on write: membership events add members while the run's waits read them.
        private (IBenchConsumer Consumer, LoadRecordSink Sink)[] _consumers = [];
        private readonly Lock _consumersLock = new();
        private readonly IntervalSampler _sampler;
        private ConcurrentKeyVerifier? _verifier;
        private ReadPositions? _positions;
        private long _readFrom;
        private string? _readStopped;
        private long _completedAt;
        private long _backlogRecords;
        private long _backlogOrigin;
        private long _backlogReachedAt;
        private long _consumersReadyAt;

        public LoadRun(LoadScenario scenario, ScenarioContext context, LoadState state, CancellationToken cancellationToken)
        {
            _scenario = scenario;
            _context = context;
            _state = state;
            _schedule = state.Schedule;
            _stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            _group = context.GroupEvents.Count > 0 ? new GroupWatch(context.Clock, context.Partitions, context.GroupEvents.Count) : null;
            _sampler = new IntervalSampler(state, context.Load?.Interval ?? context.Interval, context.Payload.Length, scenario.Kind != ScenarioKind.Produce, scenario.Kind == ScenarioKind.Roundtrip);
        }

        private ScenarioKind Kind => _scenario.Kind;

        private CancellationToken Token => _stop.Token;

        public RunRecord Execute()
        {
            long total = _schedule.TotalRecords;
            string? error = Kind == ScenarioKind.Consume ? Fill() : null;
            if (error is not null) return new RunRecord { Sent = total, Error = error, Producers = _context.Producers, Consumers = _context.Consumers };

            // A backlog: the consumers start once that many records are acknowledged (AwaitBacklog), not before the first send.
            long? backlog = Kind == ScenarioKind.Roundtrip && _schedule.IsRate && _context.Settings.BacklogBytes is { } bytes
                ? Math.Max(1, (bytes + Math.Max(1, _context.Payload.Length) - 1) / Math.Max(1, _context.Payload.Length)) : null;
            if (Kind != ScenarioKind.Produce)
            {
                _verifier = new ConcurrentKeyVerifier(total);
                _positions = _context.NewReadPositions();
                if (backlog is null) error = StartConsumers();
            }
            if (error is null && Kind != ScenarioKind.Consume) error = StartProducers();
            if (error is not null) return Failed(error);

            var counters = ClientCounters.Start(_context);
            long now = _state.Clock.GetTimestamp();
            long origin = now + (long)(StartLead.TotalSeconds * _state.Clock.Frequency);
            _schedule.Start = origin;
            _state.WarmupEnd = _schedule.IsRate ? _schedule.DueAt(_schedule.WarmupRecords) : origin;
            var startedAtUtc = DateTimeOffset.UtcNow + TimeSpan.FromSeconds(_state.Ticks.ToSeconds(origin - now));
            _context.Faults?.OnStarted(origin, _state.WarmupEnd);
            // A warm-up at the rate is part of the run but of no figure: the resources and the client's counters of the
            // measured part are read again when it ends, on the sampler's thread (a few reads, none on a sending thread).
            // Only at a rate: a consume run's series starts before its origin, and its figures include the group join.
            ClientCounters? measuredCounters = null;
            _sampler.Start(Kind == ScenarioKind.Consume ? now : origin, _state.WarmupEnd,
                _schedule.IsRate ? () => Volatile.Write(ref measuredCounters, ReadCountersOrNull()) : null);
            _start.Set();
            StartEvents();

            if (backlog is { } records) error = AwaitBacklog(records, origin);
            error ??= Kind switch
            {
                ScenarioKind.Produce => AwaitProducers(),
                ScenarioKind.Roundtrip => AwaitProducers() ?? AwaitArrivals(),
                _ => AwaitArrivals(),
            };
            StopEvents();
            _sampler.Stop();
            var measured = Volatile.Read(ref measuredCounters);
            var (perMessage, resources) = measured is not null
                ? measured.Stop(_schedule.MeasuredRecords, _sampler.AllocatedBytesSinceWarmupEnd, recordsOnTopic: total)
                : counters.Stop(_schedule.MeasuredRecords, _sampler.AllocatedBytes, recordsOnTopic: total);
            return Measure(error, startedAtUtc, perMessage, resources);
        }

        /// <summary>Fills the topic before a consume (untimed, one producer, as the burst consume does).</summary>
        private string? Fill()
        {
            var prefill = new DeliveryCounter(_context.Clock, _schedule.TotalRecords, trackLatency: false, _state.Acknowledged);
            using var watch = new StallWatch(_context.StallTimeout, Token);
            try
            {
                watch.Watch("creating the producer that fills the topic", static () => 0);
                using var producer = _context.CreateProducer(prefill, watch.Token, measured: false);
                if (ProduceScenario.SendAndFlush(producer, _schedule.TotalRecords, _context.Payload, prefill, watch, Token) is { } stall)
                    return watch.Describe($"filling the topic before consuming, {stall}");
            }
            catch (Exception ex) when (ProduceScenario.Interrupted(ex, watch, Token))
            {
                ProduceScenario.ThrowIfCancelled(ex, Token);
                return watch.Describe("filling the topic before consuming, no record sent");
            }
            return prefill.DescribeShortfall(_schedule.TotalRecords, "filling the topic before consuming");
        }

        private string? StartConsumers()
        {
            _readFrom = _state.Clock.GetTimestamp();
            for (int i = 0; i < _context.Consumers; i++) StartMember(NewMember(i + 1));
            // A member that joins at an event is created now, outside the timed section; it subscribes at the event.
            foreach (var _ in _context.GroupEvents.Where(e => e.Kind == GroupEventKind.Join)) _joiners.Enqueue(NewMember(_context.Consumers + _joiners.Count + 1));
            OpenCoordinator();
            // A share group's members are told of no assignment (they signal it with their first records), and records
            // sent before they join are theirs all the same (the group reads from the topic's start).
            if (Kind == ScenarioKind.Consume || _context.Settings.Group.IsShare()) return null;
            // Roundtrip: every consumer has its partitions before the first record is sent (a group with more consumers
            // than partitions would leave some without: the runner gives the topic at least as many partitions).
            bool assigned = ProgressWait.Until(() => _consumers.All(c => c.Sink.AssignedAt != 0 || c.Sink.Error is not null),
                () => _consumers.Count(c => c.Sink.AssignedAt != 0), _context.StallTimeout, Token);
            return _consumers.Select(c => c.Sink.Error).FirstOrDefault(e => e is not null) is { } consumerError ? $"consumer error before the first send: {consumerError}"
                : assigned ? null
                : $"{_consumers.Count(c => c.Sink.AssignedAt != 0)} of {_consumers.Length} consumers had partitions assigned after {_context.StallTimeout.TotalSeconds:0.#} s";
        }

        private string? StartProducers()
        {
            bool recordLatency = Kind == ScenarioKind.Produce && _context.Client.Capabilities.HasFlag(ClientCapabilities.DeliveryLatency);
            int count = _context.Producers;
            for (int p = 0; p < count; p++)
            {
                long records = p < _schedule.TotalRecords ? ((_schedule.TotalRecords - p - 1) / count) + 1 : 0;
                var worker = new ProducerWorker(this, p, new LoadDeliverySink(_state, recordLatency, records), records);
                _producers.Add(worker);
                worker.Start();
            }
            // Creating a client's producer fetches metadata and connects: bounded by the stall timeout, with progress
            // meaning one more producer ready.
            bool ready;
            try
            {
                ready = ProgressWait.Until(() => _producers.All(w => w.Ready.IsSet), () => _producers.Count(w => w.Ready.IsSet), _context.StallTimeout, Token);
            }
            catch (OperationCanceledException) when (_producers.Any(w => w.Error is { } e && e is not OperationCanceledException))
            {
                // A producer that could not be made stops the others: its error is the run's, not a cancellation of the plan.
                ready = false;
            }
            if (_producers.FirstOrDefault(w => w.Error is not null) is { } failed)
                return $"producer {failed.Index + 1} of {count} could not start: {ExceptionNames.TypeName(failed.Error!)}: {failed.Error!.Message}";
            return ready ? null : $"{_producers.Count(w => w.Ready.IsSet)} of {count} producers were ready after {_context.StallTimeout.TotalSeconds:0.#} s";
        }

        /// <summary>A backlog run: waits until the producers have <paramref name="records"/> acknowledged (nothing is read
        /// yet), then starts the consumers, which read from the topic's start while the producers go on.</summary>
        private string? AwaitBacklog(long records, long origin)
        {
            long Acknowledged() => _producers.Sum(w => w.Sink.Acknowledged);
            bool reached = ProgressWait.Until(() => Acknowledged() >= records || _producers.All(w => w.Done.IsSet),
                Acknowledged, _context.StallTimeout, Token);
            if (Acknowledged() < records)
                return reached ? $"the backlog of {records} records was never reached: the producers had {Acknowledged()} acknowledged when they ended"
                    : $"stalled building the backlog: {Acknowledged()} of {records} records acknowledged, nothing new for {_context.StallTimeout.TotalSeconds:0.#} s";
            _backlogReachedAt = _state.Clock.GetTimestamp();
            var error = StartConsumers();
            _consumersReadyAt = _state.Clock.GetTimestamp();
            _backlogOrigin = origin;
            _backlogRecords = records;
            return error;
        }

        /// <summary>Waits until every producer has sent and flushed; progress is any record sent or acknowledged.</summary>
        private string? AwaitProducers()
        {
            bool done = ProgressWait.Until(() => _producers.All(w => w.Done.IsSet),
                () => _producers.Sum(w => w.Sent.Value + w.Sink.Acknowledged), _context.StallTimeout, Token);
            if (_producers.FirstOrDefault(w => w.Error is not null) is { } failed)
            {
                if (failed.Error is OperationCanceledException && !Token.IsCancellationRequested) return "a producer was cancelled";
                Token.ThrowIfCancellationRequested();
                return $"producer {failed.Index + 1} of {_producers.Count} failed: {ExceptionNames.TypeName(failed.Error!)}: {failed.Error!.Message}";
            }
            if (!done)
            {
                long sent = _producers.Sum(w => w.Sent.Value), acknowledged = _producers.Sum(w => w.Sink.Acknowledged);
                return $"stalled: {sent} of {_schedule.TotalRecords} records sent, {acknowledged} acknowledged, nothing new for {_context.StallTimeout.TotalSeconds:0.#} s";
            }
            long failedRecords = _producers.Sum(w => w.Sink.Failed);
            long delivered = _producers.Sum(w => w.Sink.Acknowledged);
            return delivered >= _schedule.TotalRecords ? null
                : failedRecords > 0 ? $"{delivered} of {_schedule.TotalRecords} records acknowledged, {failedRecords} failed (first error: {_producers.Select(w => w.Sink.FirstError).First(e => e is not null)})."
                : $"{delivered} of {_schedule.TotalRecords} records acknowledged after the flush.";
        }

        /// <summary>Waits until every key has arrived, or - keys missing - every partition has been read past its last
        /// acknowledged offset (the producers are done by then: the ends are known); progress is any record consumed.</summary>
        private string? AwaitArrivals()
        {
            bool done = ProgressWait.Until(_complete, () => DeliveryProof.ReadToTheEnd(_state.Acknowledged!, _positions!),
                () => _consumers.Sum(c => c.Sink.Consumed), _context.StallTimeout, Token);
            if (_consumers.Select(c => c.Sink.Error).FirstOrDefault(e => e is not null) is { } consumerError)
            {
                _readStopped = "the consumer failed";
                return $"consumer error after {_verifier!.Distinct} of {_schedule.TotalRecords} records: {consumerError}";
            }
            if (done) return null;
            _readStopped = $"nothing new for {_context.StallTimeout.TotalSeconds:0.#} s";
            return _consumers.All(c => c.Sink.AssignedAt == 0)
                ? $"no partition was assigned within {_context.StallTimeout.TotalSeconds:0.#} s"
                : $"stalled: {_verifier!.Distinct} of {_schedule.TotalRecords} records arrived ({_consumers.Sum(c => c.Sink.Consumed)} with duplicates), nothing new for {_context.StallTimeout.TotalSeconds:0.#} s";
        }

        private void Complete(long at)
        {
            Interlocked.CompareExchange(ref _completedAt, at, 0);
            _complete.Set();
        }

        /// <summary>The counters at the warm-up's end; <see langword="null"/> when a reading failed (a client being torn
        /// down): the run's figures then come from its start, warm-up included.</summary>
        private ClientCounters? ReadCountersOrNull()
        {
            try
            {
                return ClientCounters.Start(_context);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                return null;
            }
        }

        private RunRecord Measure(string? error, DateTimeOffset startedAtUtc, IReadOnlyDictionary<string, double>? perMessage, RunResources resources)
        {
            long total = _schedule.TotalRecords;
            long measured = _schedule.MeasuredRecords;
            var ticks = _state.Ticks;
            // The measured section: from the first measured record's due time (a burst: the start) to the last
            // acknowledgement (produce) or arrival (roundtrip, consume: from the first assignment).
            long end = Kind == ScenarioKind.Produce ? _producers.Max(w => w.Sink.CompletedAt) : Volatile.Read(ref _completedAt);
            long begin = Kind == ScenarioKind.Consume ? _consumers.Where(c => c.Sink.AssignedAt != 0).Select(c => c.Sink.AssignedAt).DefaultIfEmpty(0).Min() : _state.WarmupEnd;
            double elapsed = error is null && end > begin ? ticks.ToSeconds(end - begin) : double.NaN;
            double? achieved = null;
            if (_schedule.Load is { } load && _producers.Count > 0)
            {
                // Records really sent in the measured part, over the time from the first one's due time to the last send
                // (plus one schedule step, so a sender exactly on time achieves exactly the offered rate).
                long lastSend = _producers.Max(w => w.LastSendAt);
                double window = ticks.ToSeconds(lastSend - _state.WarmupEnd) + (1 / load.RecordsPerSecond);
                achieved = window > 0 ? measured / window : null;
            }
            long delivered = _producers.Sum(w => w.Sink.Acknowledged);
            var verifier = _verifier;
            var read = verifier is null || _state.Acknowledged is not { } acknowledged ? ReadOutcome.Complete
                : DeliveryProof.Judge(acknowledged.Keys.CountNotIn(verifier), acknowledged, _positions!,
                    ticks.ToSeconds(_state.Clock.GetTimestamp() - (_readFrom != 0 ? _readFrom : _state.Clock.GetTimestamp())),
                    stoppedBecause: _readStopped ?? (error is not null && _readFrom == 0 ? "the consumers never started" : error is not null ? "the run failed first" : null));
            return new RunRecord
            {
                ElapsedSeconds = elapsed,
                Sent = Kind == ScenarioKind.Consume ? total : _producers.Sum(w => w.Sent.Value),
                Delivered = Kind == ScenarioKind.Consume ? total : delivered,
                Received = _consumers.Sum(c => c.Sink.Consumed),
                Duplicates = verifier?.Duplicates ?? 0,
                Unexpected = verifier?.Unexpected ?? 0,
                Error = error,
                OfferedRate = _schedule.Load?.RecordsPerSecond,
                AchievedRate = achieved,
                ResponseTimeHistogram = _schedule.IsRate && _sampler.ResponseTotal.TotalCount > 0 ? _sampler.ResponseTotal : null,
                ServiceTimeHistogram = _sampler.ServiceTotal.TotalCount > 0 ? _sampler.ServiceTotal : null,
                SendDelayHistogram = _schedule.IsRate && _sampler.SendDelayTotal.TotalCount > 0 ? _sampler.SendDelayTotal : null,
                LatencyHistogram = _schedule.IsRate ? (_sampler.ResponseTotal.TotalCount > 0 ? _sampler.ResponseTotal : null) : (_sampler.ServiceTotal.TotalCount > 0 ? _sampler.ServiceTotal : null),
                LatencySampleStride = _schedule.SampleStride,
                Intervals = _sampler.Intervals,
                StartedAtUtc = startedAtUtc,
                WarmupRecords = _schedule.WarmupRecords,
                Producers = _context.Producers,
                Consumers = _context.Consumers,
                ServiceTimeMissed = _state.Ring.Missed,
                PrefetchEnabled = _consumers.Length > 0 && _consumers[0].Consumer.PrefetchEnabled,
                ProducerConfig = _producers.FirstOrDefault()?.Config,
                ConsumerConfig = _consumers.Length > 0 ? _consumers[0].Consumer.EffectiveConfig : null,
                CountersPerMessage = perMessage,
                Resources = resources,
                Rebalances = RebalanceRecords(),
                Backlog = _backlogRecords > 0 && _schedule.Load is { } offered
                    ? BacklogRecord.From(_backlogRecords, ticks.ToSeconds(_backlogReachedAt - _backlogOrigin), ticks.ToSeconds(_consumersReadyAt - _backlogOrigin),
                        _sampler.Intervals, offered.RecordsPerSecond)
                    : null,
            }.With(read);
        }

        private RunRecord Failed(string error) => new()
        {
            ElapsedSeconds = double.NaN,
            Sent = _producers.Sum(w => w.Sent.Value),
            Delivered = _producers.Sum(w => w.Sink.Acknowledged),
            Received = _consumers.Sum(c => c.Sink.Consumed),
            Error = error,
            Producers = _context.Producers,
            Consumers = _context.Consumers,
        };

        public void Dispose()
        {
            // Every producer thread ends: not started yet, sending, flushing or waiting to dispose its producer.
            _stop.Cancel();
            StopEvents();
            _start.Set();
            _release.Set();
            foreach (var worker in _producers)
            {
                if (!worker.Join(ProducerRelease))
                    Trace.TraceWarning($"kafkaperf: producer {worker.Index + 1} did not end within {ProducerRelease.TotalSeconds:0} s.");
            }
            foreach (var (consumer, _) in _consumers.Concat(_joiners))
            {
                consumer.StopPolling();
                consumer.Dispose();
            }
            _sampler.Dispose();
            _eventsOver.Dispose();
            _stop.Dispose();
            _start.Dispose();
            _release.Dispose();
            _complete.Dispose();
        }

    }
}
