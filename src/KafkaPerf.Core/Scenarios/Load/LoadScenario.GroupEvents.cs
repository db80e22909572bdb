using System.Diagnostics;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios.Load;

/// <summary>The group's members and its membership events: a thread of its own fires each event at its time, counted
/// from the start of the measured part, while the producers send and the other members read.</summary>
public sealed partial class LoadScenario
{
    private sealed partial class LoadRun
    {
        private readonly GroupWatch? _group;
        private readonly Queue<(IBenchConsumer Consumer, LoadRecordSink Sink)> _joiners = new();
        private readonly Dictionary<int, (IBenchConsumer Consumer, LoadRecordSink Sink)> _live = [];
        private readonly CancellationTokenSource _eventsOver = new();
        private (string? Did, string? Error, long DoneAt)[] _outcomes = [];
        private Thread? _events;
        private CoordinatorWatch? _coordinator;
        private string? _coordinatorError;
        private int _liveCount;

        /// <summary>A member of the group, created but not subscribed: its records reach a sink of its own.</summary>
        private (IBenchConsumer Consumer, LoadRecordSink Sink) NewMember(int member)
        {
            var sink = new LoadRecordSink(_state, _verifier!, _positions!, recordLatency: Kind == ScenarioKind.Roundtrip, Complete, member, _group);
            var consumer = _context.CreateConsumer(Token, _state.Breakdown ? _state.AddBreakdownSource : null, _context.InstanceIdOf(member));
            return (consumer, sink);
        }

        /// <summary>Subscribes a member: from now on it counts among the group's.</summary>
        private void StartMember((IBenchConsumer Consumer, LoadRecordSink Sink) member)
        {
            lock (_consumersLock) _consumers = [.. _consumers, member];
            _live[member.Sink.Member] = member;
            Interlocked.Increment(ref _liveCount);
            _group?.Log(member.Sink.Member, GroupWatch.EntryKind.Started);
            member.Consumer.StartPolling(member.Sink);
        }

        /// <summary>Opens the coordinator's describer (an admin client) before the timed section; a cluster that cannot be
        /// asked leaves the figures to the members' callbacks, and says why.</summary>
        private void OpenCoordinator()
        {
            if (_group is null || _context.GroupCoordinator is not { } view) return;
            try
            {
                var timeout = TimeSpan.FromSeconds(Math.Min(5, _context.StallTimeout.TotalSeconds));
                _coordinator = new CoordinatorWatch(view.Open(_context.GroupId, _context.Topic), _state.Clock, _context.Partitions,
                    () => Volatile.Read(ref _liveCount), timeout);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                _coordinatorError = $"the coordinator could not be asked: {ExceptionNames.TypeName(ex)}: {ex.Message}";
            }
        }

        private void StartEvents()
        {
            if (_group is null) return;
            _coordinator?.Start();
            _outcomes = new (string?, string?, long)[_context.GroupEvents.Count];
            _events = new Thread(FireEvents) { IsBackground = true, Name = "kafkaperf-group-events" };
            _events.Start();
        }

        /// <summary>Ends the events: one not fired yet never fires; one under way (a leave waiting for the broker) is waited
        /// for up to the stall timeout.</summary>
        private void StopEvents()
        {
            _coordinator?.Stop();
            if (_events is null) return;
            _eventsOver.Cancel();
            if (!_events.Join(_context.StallTimeout + TimeSpan.FromSeconds(5)))
                Trace.TraceWarning("kafkaperf: the membership events' thread did not end in time.");
            _events = null;
        }

        private void FireEvents()
        {
            var events = _context.GroupEvents;
            for (int i = 0; i < events.Count; i++)
            {
                var e = events[i];
                if (!WaitUntil(_state.WarmupEnd + Ticks(e.At)))
                {
                    _outcomes[i] = (null, "the run ended before the event's time", 0);
                    return;
                }
                _outcomes[i] = (null, "still under way when the run ended", 0);
                _group!.BeginWindow(i);
                try
                {
                    var did = Fire(e);
                    _outcomes[i] = (did, null, _state.Clock.GetTimestamp());
                }
                catch (Exception ex) when (ex is not OutOfMemoryException)
                {
                    _outcomes[i] = (null, $"{ExceptionNames.TypeName(ex)}: {ex.Message}", 0);
                }
            }
        }

        private string Fire(GroupEventSpec e)
        {
            switch (e.Kind)
            {
                case GroupEventKind.Join:
                    var joiner = _joiners.Dequeue();
                    StartMember(joiner);
                    return $"member {joiner.Sink.Member} subscribed";
                case GroupEventKind.Leave:
                    int leaving = End(crash: false);
                    return _context.Settings.StaticMembership == true ? $"member {leaving} closed (a static member does not leave)" : $"member {leaving} closed and left the group";
                case GroupEventKind.Crash:
                    return $"member {End(crash: true)} stopped without leaving or committing";
                case GroupEventKind.Busy:
                    int busy = FirstLive();
                    _live[busy].Sink.BusyUntil(_state.Clock.GetTimestamp() + Ticks(e.For!.Value), _eventsOver.Token);
                    return $"member {busy} busy for {e.For.Value.TotalSeconds:0.###} s from its next record, still in the group";
                case GroupEventKind.Restart:
                    int restarted = FirstLive();
                    Restart(restarted, e.For);
                    return $"member {restarted} closed and was created again{Away(e.For)}";
                default:
                    var members = _live.Keys.Order().ToList();
                    foreach (var member in members)
                    {
                        long started = Restart(member, e.For);
                        // The next member goes once this one has partitions again, as a rolling deploy waits for readiness.
                        if (!ProgressWait.Until(() => _group!.AssignedSince(member, started) || _eventsOver.IsCancellationRequested, () => 0, _context.StallTimeout, Token))
                            return $"{members.IndexOf(member) + 1} of {members.Count} members restarted; member {member} had no partitions {_context.StallTimeout.TotalSeconds:0.#} s after it";
                    }
                    return $"{members.Count} members restarted one after another{Away(e.For)}";
            }
        }

        private static string Away(TimeSpan? away) => away is { } t && t > TimeSpan.Zero ? $", {t.TotalSeconds:0.###} s later" : string.Empty;

        /// <summary>The live member with the lowest number: the one leave, crash and restart act on.</summary>
        private int FirstLive() => _live.Count == 0 ? throw new InvalidOperationException("no member is left in the group") : _live.Keys.Min();

        /// <summary>Ends the first live member (leaving, or as if it died).</summary>
        /// <returns>Its number.</returns>
        private int End(bool crash)
        {
            int member = FirstLive();
            End(member, crash);
            return member;
        }

        /// <summary>Closes a member (leaving, or as if it died) and takes it out of the live ones.</summary>
        private void End(int member, bool crash)
        {
            if (!_live.Remove(member, out var entry)) throw new InvalidOperationException($"member {member} is not in the group");
            var target = entry.Consumer as IGroupMember ?? throw new NotSupportedException("the client's consumer cannot leave or crash on purpose");
            Interlocked.Decrement(ref _liveCount);
            if (crash) target.Crash();
            else target.Leave();
            _group!.Log(member, crash ? GroupWatch.EntryKind.Crashed : GroupWatch.EntryKind.Left);
        }

        /// <summary>Closes a member, waits <paramref name="away"/>, and creates and subscribes it again under the same number
        /// (and instance id); returns when it subscribed.</summary>
        private long Restart(int member, TimeSpan? away)
        {
            End(member, crash: false);
            if (away is { } t && t > TimeSpan.Zero) _eventsOver.Token.WaitHandle.WaitOne(t);
            var again = NewMember(member);
            long started = _state.Clock.GetTimestamp();
            StartMember(again);
            return started;
        }

        private bool WaitUntil(long due)
        {
            while (!_eventsOver.IsCancellationRequested)
            {
                long left = due - _state.Clock.GetTimestamp();
                if (left <= 0) return true;
                double ms = (double)left * 1000 / _state.Clock.Frequency;
                _eventsOver.Token.WaitHandle.WaitOne(TimeSpan.FromMilliseconds(Math.Clamp(ms - 1, 0, 100)));
            }
            return false;
        }

        private long Ticks(TimeSpan time) => (long)(time.TotalSeconds * _state.Clock.Frequency);

        private IReadOnlyList<RebalanceRecord>? RebalanceRecords()
        {
            if (_group is null) return null;
            long end = Volatile.Read(ref _completedAt) is var completed and > 0 ? completed : _state.Clock.GetTimestamp();
            var events = _context.GroupEvents.Select((e, i) => (e.ToString(), _outcomes[i].Did, _outcomes[i].Error, _outcomes[i].DoneAt)).ToList();
            return _group.Records(events, end, _schedule.Start, _sampler.Intervals, _coordinator, _coordinatorError);
        }
    }
}
