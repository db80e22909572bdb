using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios.Load;

/// <summary>
/// What the group's members lived through in a run with membership events: every rebalance callback and every member's
/// start and end, in clock order (rare: a lock and a list), and per partition the longest time without a record in each
/// event's window (every record: two array reads and writes, no allocation, no lock).
/// </summary>
/// <remarks>The figures are the members' own view: what each was told it owns. A partition counts as owned when exactly
/// one live member was assigned it and has not had it revoked.</remarks>
internal sealed class GroupWatch
{
    private readonly IClock _clock;
    private readonly int _partitions;
    private readonly long[] _lastArrival;
    private readonly long[] _longestGap;
    private readonly long[] _redelivered;
    private readonly List<Entry> _log = [];
    private readonly List<long> _windowStarts = [];
    private readonly Lock _lock = new();
    private int _window = -1;

    /// <param name="clock">The run's clock.</param>
    /// <param name="partitions">The topic's partitions.</param>
    /// <param name="windows">The run's events: one window each.</param>
    public GroupWatch(IClock clock, int partitions, int windows)
    {
        _clock = clock;
        _partitions = partitions;
        _lastArrival = new long[partitions];
        _longestGap = new long[partitions * Math.Max(1, windows)];
        _redelivered = new long[Math.Max(1, windows)];
    }

    /// <summary>What a member went through.</summary>
    internal enum EntryKind
    {
        Started,
        Assigned,
        Revoked,
        Lost,
        Left,
        Crashed,
    }

    /// <summary>A record arrived on a partition (a consumer's poll thread; no allocation).</summary>
    /// <param name="partition">Its partition.</param>
    /// <param name="now">The clock.</param>
    public void OnArrival(int partition, long now)
    {
        if ((uint)partition >= (uint)_partitions) return;
        long last = _lastArrival[partition];
        _lastArrival[partition] = now;
        int window = Volatile.Read(ref _window);
        if (window < 0 || last == 0) return;
        ref long longest = ref _longestGap[(window * _partitions) + partition];
        if (now - last > longest) longest = now - last;
    }

    /// <summary>A record arrived that had been read before.</summary>
    public void OnRedelivered()
    {
        int window = Volatile.Read(ref _window);
        if (window >= 0) Interlocked.Increment(ref _redelivered[window]);
    }

    /// <summary>An event fires: its window starts now.</summary>
    /// <param name="window">The event's index.</param>
    /// <returns>The clock at its start.</returns>
    public long BeginWindow(int window)
    {
        long now = _clock.GetTimestamp();
        lock (_lock)
        {
            int previous = Volatile.Read(ref _window);
            Volatile.Write(ref _window, window);
            // A gap still open when a window ends counts in it up to its end (and in the next one whole, once it closes).
            if (previous >= 0) CloseGaps(previous, _windowStarts[^1], now);
            _windowStarts.Add(now);
        }
        return now;
    }

    private void CloseGaps(int window, long from, long to)
    {
        for (int p = 0; p < _partitions; p++)
        {
            long last = Volatile.Read(ref _lastArrival[p]);
            if (last == 0 || last >= to) continue;
            long open = to - Math.Max(last, from);
            ref long longest = ref _longestGap[(window * _partitions) + p];
            // A consumer's thread may be raising it at the same time: a compare-and-swap keeps the larger.
            for (long seen = Volatile.Read(ref longest); open > seen; seen = Volatile.Read(ref longest))
                if (Interlocked.CompareExchange(ref longest, open, seen) == seen) break;
        }
    }

    /// <summary>A member started, was assigned or lost partitions, or ended.</summary>
    /// <param name="member">The member's number, from 1.</param>
    /// <param name="kind">What happened.</param>
    /// <param name="partitions">The partitions, for a rebalance callback.</param>
    public void Log(int member, EntryKind kind, IReadOnlyList<int>? partitions = null)
    {
        long now = _clock.GetTimestamp();
        lock (_lock) _log.Add(new Entry(now, member, kind, partitions is null ? [] : [.. partitions]));
    }

    /// <summary>Whether the member has had an assignment callback since <paramref name="since"/>.</summary>
    public bool AssignedSince(int member, long since)
    {
        lock (_lock) return _log.Any(e => e.Member == member && e.Kind == EntryKind.Assigned && e.At >= since);
    }

    /// <summary>One record per event, from the log.</summary>
    /// <param name="events">Each event's text, what it did, its error and when its action was over (0: never).</param>
    /// <param name="end">The run's end, the last window's end.</param>
    /// <param name="origin">When the run's first record was due: times are seconds from it.</param>
    /// <param name="intervals">The run's series, for the peaks.</param>
    /// <param name="coordinator">The group as its coordinator saw it; <see langword="null"/> when it was not asked.</param>
    /// <param name="coordinatorError">Why it was not asked, when it could not be.</param>
    public IReadOnlyList<RebalanceRecord> Records(IReadOnlyList<(string Event, string? Did, string? Error, long DoneAt)> events, long end, long origin,
        IReadOnlyList<IntervalRecord>? intervals, CoordinatorWatch? coordinator = null, string? coordinatorError = null)
    {
        List<Entry> log;
        List<long> starts;
        lock (_lock)
        {
            log = [.. _log.OrderBy(e => e.At)];
            starts = [.. _windowStarts];
        }
        double Seconds(long ticks) => (double)ticks / _clock.Frequency;
        var records = new List<RebalanceRecord>();
        for (int w = 0; w < events.Count; w++)
        {
            var (text, did, error, doneAt) = events[w];
            if (w >= starts.Count)
            {
                records.Add(new RebalanceRecord { Event = text, Error = error ?? "the run ended before the event's time" });
                continue;
            }
            long from = starts[w], to = w + 1 < starts.Count ? starts[w + 1] : end;
            var state = new GroupState(_partitions);
            foreach (var entry in log.Where(e => e.At < from)) state.Apply(entry);
            var before = state.Owned();
            bool stable = state.IsStable(), everUnstable = false;
            long becameStable = 0;
            var rounds = new Dictionary<int, int>();
            var revoked = new Dictionary<int, HashSet<int>>();
            foreach (var entry in log.Where(e => e.At >= from && e.At < to))
            {
                state.Apply(entry);
                if (entry.Kind == EntryKind.Assigned) rounds[entry.Member] = rounds.GetValueOrDefault(entry.Member) + 1;
                if (entry.Kind is EntryKind.Revoked or EntryKind.Lost)
                    (revoked.TryGetValue(entry.Member, out var set) ? set : revoked[entry.Member] = []).UnionWith(entry.Partitions);
                bool now = state.IsStable();
                if (!now) everUnstable = true;
                if (now && !stable) becameStable = entry.At;
                stable = now;
            }
            var after = state.Owned();
            double? Gap(IEnumerable<int> partitions)
            {
                long longest = 0;
                bool any = false;
                foreach (int p in partitions)
                {
                    any = true;
                    long open = _lastArrival[p] < to ? to - Math.Max(_lastArrival[p], from) : 0;
                    longest = Math.Max(longest, Math.Max(_longestGap[(w * _partitions) + p], open));
                }
                return any ? Seconds(longest) : null;
            }
            var members = before.Keys.Union(after.Keys).Union(rounds.Keys).Order().Select(m =>
            {
                var had = before.GetValueOrDefault(m) ?? [];
                var has = after.GetValueOrDefault(m) ?? [];
                var kept = had.Intersect(has).ToList();
                var gained = has.Except(had).ToList();
                return new RebalanceMember
                {
                    Member = m, Live = state.IsLive(m), Kept = kept.Count, Gained = gained.Count, Gave = had.Except(has).Count(),
                    KeptRevoked = kept.Count(p => revoked.GetValueOrDefault(m)?.Contains(p) == true),
                    AssignmentRounds = rounds.GetValueOrDefault(m), KeptGapSeconds = Gap(kept), GainedGapSeconds = Gap(gained),
                };
            }).ToList();
            double firedAt = Seconds(from - origin);
            string? coordinatorNote = coordinatorError;
            long? settled = coordinator?.SettledAfter(from, to, out coordinatorNote);
            var window = intervals?.Where(i => !i.Warmup && i.StartSeconds + i.LengthSeconds > firedAt && i.StartSeconds < Seconds(to - origin)).ToList() ?? [];
            records.Add(new RebalanceRecord
            {
                Event = text, Did = did, Error = error, FiredAtSeconds = firedAt,
                ActionSeconds = doneAt > 0 ? Seconds(doneAt - from) : null,
                StableAfterSeconds = !stable ? null : everUnstable ? Seconds(becameStable - from) : 0,
                CoordinatorStableAfterSeconds = settled is { } ticks ? Seconds(ticks) : null,
                CoordinatorError = settled is null ? coordinatorNote : null,
                AssignmentRounds = rounds.Count == 0 ? 0 : rounds.Values.Max(), MembersWithSeveralRounds = rounds.Values.Count(r => r > 1),
                LongestKeptGapSeconds = members.Select(m => m.KeptGapSeconds).Max(),
                LongestGainedGapSeconds = members.Select(m => m.GainedGapSeconds).Max(),
                Redelivered = Interlocked.Read(ref _redelivered[w]),
                PeakResponseMicros = window.Select(i => i.ResponseTime?.MaxMicros).Max(),
                PeakLag = window.Select(i => i.Lag).Max(),
                Members = members,
            });
        }
        return records;
    }

    internal readonly record struct Entry(long At, int Member, EntryKind Kind, int[] Partitions);

    /// <summary>The group as its members' callbacks tell it, replayed entry by entry.</summary>
    private sealed class GroupState(int partitions)
    {
        private readonly Dictionary<int, HashSet<int>> _owned = [];
        private readonly Dictionary<int, bool> _live = [];
        private readonly Dictionary<int, bool> _assigned = [];

        public void Apply(Entry entry)
        {
            var owned = _owned.TryGetValue(entry.Member, out var set) ? set : _owned[entry.Member] = [];
            switch (entry.Kind)
            {
                case EntryKind.Started:
                    owned.Clear();
                    _live[entry.Member] = true;
                    _assigned[entry.Member] = false;
                    break;
                case EntryKind.Assigned:
                    owned.UnionWith(entry.Partitions);
                    _assigned[entry.Member] = true;
                    break;
                case EntryKind.Revoked or EntryKind.Lost:
                    owned.ExceptWith(entry.Partitions);
                    break;
                default:
                    _live[entry.Member] = false;
                    owned.Clear();
                    break;
            }
        }

        public bool IsLive(int member) => _live.GetValueOrDefault(member);

        /// <summary>Every partition owned by exactly one live member, and every live member assigned since it started.</summary>
        public bool IsStable()
        {
            var live = _live.Where(p => p.Value).Select(p => p.Key).ToList();
            if (live.Count == 0 || live.Any(m => !_assigned.GetValueOrDefault(m))) return false;
            var owners = new int[partitions];
            foreach (var m in live)
                foreach (var p in _owned[m])
                    if ((uint)p < (uint)partitions) owners[p]++;
            return owners.All(o => o == 1);
        }

        public Dictionary<int, HashSet<int>> Owned() =>
            _owned.Where(p => _live.GetValueOrDefault(p.Key)).ToDictionary(p => p.Key, p => new HashSet<int>(p.Value));
    }
}
