using System.Globalization;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running;

/// <summary>How the search for the highest sustainable rate proceeds.</summary>
public sealed record RateSearchOptions
{
    /// <summary>The latency goals on response time; every one must hold.</summary>
    public required IReadOnlyList<LatencyGoal> Goals { get; init; }

    /// <summary>The first rate probed, in records per second.</summary>
    public double StartRate { get; init; } = 1_000;

    /// <summary>No rate above this is probed.</summary>
    public double MaxRate { get; init; } = 10_000_000;

    /// <summary>No rate below this is probed: when it fails too, no rate holds.</summary>
    public double MinRate { get; init; } = 1;

    /// <summary>The search stops when the first failing rate is within this fraction above the last holding one (0.05: 5 %).</summary>
    public double Precision { get; init; } = 0.05;

    /// <summary>The most probes per client and cell.</summary>
    public int MaxProbes { get; init; } = 16;

    /// <summary>A probe holds only when every run sent at least 1 − this fraction of the offered rate (0.01: 99 %).</summary>
    public double AchievedTolerance { get; init; } = 0.01;
}

/// <summary>What the search probes: one client in one cell (scenario, payload size, settings variant).</summary>
/// <param name="Client">The client.</param>
/// <param name="Scenario">Produce or roundtrip.</param>
/// <param name="PayloadBytes">The payload size.</param>
/// <param name="Variant">The settings variant's label.</param>
public sealed record RateSearchTarget(string Client, ScenarioKind Scenario, int PayloadBytes, string Variant);

/// <summary>
/// The highest sustainable rate: for each client and cell, the highest offered rate at which every latency goal holds on
/// response time and the achieved rate stays within 1 % of the offered one. Rates double from the start rate until one
/// fails (or halve until one holds), then the interval between the last rate that held and the first that failed is
/// narrowed geometrically until they are within the precision. Clients take turns probe by probe, so that a drift of the
/// machine does not favour one.
/// </summary>
public static class RateSearch
{
    /// <summary>Why a probe whose runs succeeded failed when none of them measured response time.</summary>
    internal const string NoResponseTime = "no response time was measured";

    /// <summary>Runs the searches.</summary>
    /// <param name="targets">Every client and cell to search.</param>
    /// <param name="options">Goals and bounds.</param>
    /// <param name="probe">Runs one target at one rate and returns its runs (measured ones; their histograms in memory).</param>
    /// <param name="onProbe">Told of every probe as it is judged (progress); may be <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops the search; the probes done so far are returned.</param>
    /// <returns>One result per target, in order, and whether the search was cut short.</returns>
    public static async Task<(IReadOnlyList<RateSearchResult> Results, bool Cancelled)> RunAsync(
        IReadOnlyList<RateSearchTarget> targets, RateSearchOptions options,
        Func<RateSearchTarget, double, CancellationToken, Task<IReadOnlyList<RunRecord>>> probe,
        Action<RateSearchTarget, RateProbe>? onProbe, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(targets);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(probe);
        var states = targets.Select(t => new SearchState(t, options)).ToList();
        bool cancelled = false;
        try
        {
            while (states.Any(s => s.Next is not null))
            {
                foreach (var state in states.Where(s => s.Next is not null).ToList())
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    double rate = state.Next!.Value;
                    var runs = await probe(state.Target, rate, cancellationToken).ConfigureAwait(false);
                    var judged = Judge(rate, runs, options);
                    state.Record(judged);
                    onProbe?.Invoke(state.Target, judged);
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            cancelled = true;
        }
        return ([.. states.Select(s => s.Result(cancelled))], cancelled);
    }

    /// <summary>Whether a probe held: every run succeeded, sent at the offered rate within the tolerance, and the merged
    /// response time meets every goal.</summary>
    /// <param name="rate">The offered rate.</param>
    /// <param name="runs">The probe's runs.</param>
    /// <param name="options">Goals and tolerance.</param>
    /// <returns>The judged probe.</returns>
    public static RateProbe Judge(double rate, IReadOnlyList<RunRecord> runs, RateSearchOptions options)
    {
        ArgumentNullException.ThrowIfNull(runs);
        ArgumentNullException.ThrowIfNull(options);
        var sequences = runs.Select(r => r.Sequence).ToList();
        var merged = Histograms.Merge(runs.Select(r => r.ResponseTimeHistogram));
        var latency = merged is null ? null : LatencySummary.From(merged, unitsPerMicrosecond: 1000);
        double? achieved = runs.Where(r => r.AchievedRate is not null).Select(r => r.AchievedRate!.Value).DefaultIfEmpty(double.NaN).Min() is var a && double.IsFinite(a) ? a : null;
        string F(double value) => value.ToString("N0", CultureInfo.InvariantCulture).Replace(",", " ", StringComparison.Ordinal);
        if (runs.Count == 0) return new RateProbe(rate, false, "no run", achieved, latency, sequences);
        if (runs.FirstOrDefault(r => !r.Succeeded) is { } failed)
            return new RateProbe(rate, false, $"run {failed.Sequence} failed: {failed.Error}", achieved, latency, sequences);
        // No response time says nothing of any rate, whatever was sent: the search stops on it.
        if (merged is null) return new RateProbe(rate, false, NoResponseTime, achieved, latency, sequences);
        if (achieved is { } sent && sent < rate * (1 - options.AchievedTolerance))
            return new RateProbe(rate, false, $"sent {F(sent)} msg/s, under {100 * (1 - options.AchievedTolerance):0.#} % of the offered rate", achieved, latency, sequences);
        foreach (var goal in options.Goals)
        {
            if (!goal.IsMet(merged, out var measured))
                return new RateProbe(rate, false, string.Create(CultureInfo.InvariantCulture, $"p{goal.Percentile:0.###} {measured.TotalMilliseconds:0.###} ms, not under {goal.Limit.TotalMilliseconds:0.###} ms"), achieved, latency, sequences);
        }
        return new RateProbe(rate, true, "held", achieved, latency, sequences);
    }

    private sealed class SearchState(RateSearchTarget target, RateSearchOptions options)
    {
        private readonly List<RateProbe> _probes = [];
        private double? _held;
        private double? _failed;

        public RateSearchTarget Target => target;

        public double? Next { get; private set; } = Math.Clamp(options.StartRate, options.MinRate, options.MaxRate);

        public void Record(RateProbe probe)
        {
            _probes.Add(probe);
            if (probe.Held) _held = Math.Max(_held ?? 0, probe.OfferedRate);
            else _failed = Math.Min(_failed ?? double.MaxValue, probe.OfferedRate);
            Next = _probes.Count >= options.MaxProbes || Unmeasured ? null : Choose();
        }

        // Runs that succeeded without a response time (a client that reports no delivery, in produce) say nothing about
        // the rate: a lower one would measure nothing either.
        private bool Unmeasured => _probes is [.., { Held: false, Reason: NoResponseTime }];

        private double? Choose()
        {
            if (_failed is null)
            {
                // Every probe held: double, up to the maximum once.
                double last = _held!.Value;
                return last >= options.MaxRate ? null : Math.Min(last * 2, options.MaxRate);
            }
            if (_held is null)
            {
                double first = _failed.Value;
                return first <= options.MinRate ? null : Math.Max(first / 2, options.MinRate);
            }
            if (_failed.Value <= _held.Value * (1 + options.Precision)) return null;
            // Geometric: rates span decades, and the knee is as likely in any part of one.
            return Math.Round(Math.Sqrt(_held.Value * _failed.Value));
        }

        public RateSearchResult Result(bool cancelled)
        {
            string conclusion = cancelled && Next is not null ? "cut short by a cancellation"
                : Unmeasured ? $"no response time was measured at {F(_probes[^1].OfferedRate)} msg/s, so no rate can be judged"
                    + (target.Scenario == ScenarioKind.Produce ? $": {target.Client} reports no delivery of what it sends; search the roundtrip scenario (--scenarios roundtrip)" : string.Empty)
                : _held is null ? $"no rate held the goal, down to {F(_failed ?? options.MinRate)} msg/s"
                : _failed is null ? $"every rate held, up to {F(_held.Value)} msg/s (the maximum probed)"
                : _failed.Value <= _held.Value * (1 + options.Precision)
                    ? $"highest sustainable rate between {F(_held.Value)} (held) and {F(_failed.Value)} msg/s (failed)"
                    : $"between {F(_held.Value)} (held) and {F(_failed.Value)} msg/s (failed) after {_probes.Count} probes";
            return new RateSearchResult
            {
                Client = target.Client,
                Scenario = target.Scenario,
                PayloadBytes = target.PayloadBytes,
                Variant = target.Variant,
                Goals = [.. options.Goals.Select(g => g.ToString())],
                HighestHeld = _held,
                LowestFailed = _failed,
                Probes = _probes,
                Conclusion = conclusion,
            };
        }

        private static string F(double value) => value.ToString("N0", CultureInfo.InvariantCulture).Replace(",", " ", StringComparison.Ordinal);
    }
}
