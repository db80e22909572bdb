using System.Diagnostics;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios.Load;

/// <summary>
/// The group as its coordinator sees it, through a run with membership events: a thread of its own describes the group
/// every <see cref="Period"/> (the Admin API, never a client's thread) and keeps whether it was settled each time
/// (<see cref="GroupDescription.IsSettled"/>). Each event's figure is the time from the event to the answer after which
/// the coordinator had the group settled to the window's end.
/// </summary>
/// <remarks>The resolution is the period plus the request's round trip: a moment counts from the answer that showed it.
/// A brief unsettled spell between two answers goes unseen (a static member's quick restart may).</remarks>
internal sealed class CoordinatorWatch : IDisposable
{
    /// <summary>How often the coordinator is asked.</summary>
    internal static readonly TimeSpan Period = TimeSpan.FromMilliseconds(100);

    private readonly IGroupDescriber _describer;
    private readonly IClock _clock;
    private readonly int _partitions;
    private readonly Func<int> _liveMembers;
    private readonly TimeSpan _requestTimeout;
    private readonly List<(long At, string? Unsettled)> _answers = [];
    private readonly Lock _lock = new();
    private readonly CancellationTokenSource _over = new();
    private Thread? _thread;
    private bool _abandoned;

    /// <param name="describer">Asks the coordinator; owned from now on.</param>
    /// <param name="clock">The run's clock.</param>
    /// <param name="partitions">The topic's partitions.</param>
    /// <param name="liveMembers">How many members are live now (subscribed, not left or crashed).</param>
    /// <param name="requestTimeout">How long one request may take.</param>
    public CoordinatorWatch(IGroupDescriber describer, IClock clock, int partitions, Func<int> liveMembers, TimeSpan requestTimeout)
    {
        _describer = describer;
        _clock = clock;
        _partitions = partitions;
        _liveMembers = liveMembers;
        _requestTimeout = requestTimeout;
    }

    /// <summary>Starts asking.</summary>
    public void Start()
    {
        _thread = new Thread(Watch) { IsBackground = true, Name = "kafkaperf-group-coordinator" };
        _thread.Start();
    }

    /// <summary>Stops asking (a request in progress is waited for up to its timeout).</summary>
    public void Stop()
    {
        _over.Cancel();
        if (_thread is { } thread && !thread.Join(_requestTimeout + TimeSpan.FromSeconds(5)))
        {
            // Its request is still in progress: the describer is left to it, not disposed under it.
            Trace.TraceWarning("kafkaperf: the group coordinator's watch did not end in time.");
            _abandoned = true;
        }
        _thread = null;
    }

    private void Watch()
    {
        while (!_over.IsCancellationRequested)
        {
            GroupDescription answer;
            try
            {
                answer = _describer.Describe(_requestTimeout);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                answer = new GroupDescription { Error = $"{ExceptionNames.TypeName(ex)}: {ex.Message}" };
            }
            // The live count is read after the answer: a member that started meanwhile is not in it yet, and counts as unsettled.
            Observe(answer, _liveMembers(), _clock.GetTimestamp());
            _over.Token.WaitHandle.WaitOne(Period);
        }
    }

    /// <summary>Keeps one answer.</summary>
    /// <param name="answer">What the coordinator said.</param>
    /// <param name="live">How many members were live when it came.</param>
    /// <param name="at">When it came.</param>
    internal void Observe(GroupDescription answer, int live, long at)
    {
        string? unsettled = answer.IsSettled(_partitions, live) ? null : Unsettled(answer, live);
        lock (_lock) _answers.Add((at, unsettled));
    }

    /// <summary>Why an answer did not show the group settled, in a few words.</summary>
    private string Unsettled(GroupDescription answer, int live)
    {
        if (answer.Error is { } error) return error;
        int assigned = answer.Members.SelectMany(m => m.Assigned).Where(p => (uint)p < (uint)_partitions).Distinct().Count();
        int behind = answer.Members.Count(m => m.Target is { } target && !target.Order().SequenceEqual(m.Assigned.Order()));
        return $"{answer.State}, {answer.Members.Count} member(s) listed for {live} live, {assigned} of {_partitions} partitions assigned"
            + (behind > 0 ? $", {behind} member(s) short of their target" : string.Empty);
    }

    /// <summary>From <paramref name="from"/> to the answer after which the group was settled to <paramref name="to"/>, in
    /// clock ticks; 0 when no answer in the window showed it unsettled; <see langword="null"/> when the last answer did,
    /// or none came.</summary>
    /// <param name="from">The window's start.</param>
    /// <param name="to">The window's end.</param>
    /// <param name="unsettled">Why not, when the figure is missing: what the window's last answer showed.</param>
    public long? SettledAfter(long from, long to, out string? unsettled)
    {
        List<(long At, string? Unsettled)> window;
        lock (_lock) window = [.. _answers.Where(a => a.At >= from && a.At < to)];
        if (window.Count == 0)
        {
            unsettled = "the coordinator did not answer in the window";
            return null;
        }
        unsettled = window[^1].Unsettled is { } last ? $"not settled by the end: {last}" : null;
        if (unsettled is not null) return null;
        int lastUnsettled = window.FindLastIndex(a => a.Unsettled is not null);
        return lastUnsettled < 0 ? 0 : window[lastUnsettled + 1].At - from;
    }

    public void Dispose()
    {
        Stop();
        if (_abandoned) return;
        _over.Dispose();
        _describer.Dispose();
    }
}
