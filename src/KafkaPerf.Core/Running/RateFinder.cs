using System.Globalization;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running;

/// <summary>
/// <c>find-rate</c>: runs <see cref="RateSearch"/> over a rate plan's clients and cells, each probe a run of the plan at
/// one rate (its duration, warm-up, settings, producers and consumers), and gathers every probe's runs into one result
/// with the searches' conclusions, for the usual exporters.
/// </summary>
public static class RateFinder
{
    /// <summary>Searches the highest sustainable rate of every client in every cell of <paramref name="template"/>.</summary>
    /// <param name="template">A validated rate plan; its rates are replaced by the probed ones.</param>
    /// <param name="options">Goals and bounds.</param>
    /// <param name="runner">The runner, on the plan's broker.</param>
    /// <param name="connection">Where clients connect (for the result's environment when no probe ran).</param>
    /// <param name="log">One line per probe, or <see langword="null"/>.</param>
    /// <param name="checkpoints">Receives the result after every probe; <see langword="null"/> for none.</param>
    /// <param name="cancellationToken">Stops the search; what was probed is kept and the result marked cancelled.</param>
    /// <returns>The result: every probe's runs, the cells per offered rate, and <see cref="BenchmarkResult.RateSearches"/>.</returns>
    public static async Task<BenchmarkResult> RunAsync(BenchmarkPlan template, RateSearchOptions options, BenchmarkRunner runner,
        ClusterConnection connection, TextWriter? log, IResultSink? checkpoints = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(template);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(runner);
        var started = DateTimeOffset.UtcNow;
        var duration = template.Duration ?? TimeSpan.FromSeconds(10);
        var targets = new List<RateSearchTarget>();
        foreach (var scenario in template.Scenarios)
            foreach (var variant in template.SettingsVariants)
                foreach (var size in template.PayloadSizes)
                    foreach (var client in template.Clients)
                        targets.Add(new RateSearchTarget(client, scenario, size, variant.Describe()));

        var runs = new List<RunRecord>();
        // The rates probed so far, in order: the result's plan lists them.
        var rates = new SortedSet<double>();
        var clients = new Dictionary<string, ClientInfo>(StringComparer.OrdinalIgnoreCase);
        var warnings = new List<string>();
        EnvironmentInfo? environment = null;
        string? clusterWarmup = null;
        int probeNumber = 0;
        bool cutShort = false;
        string? abortReason = null;
        // Ends the search when the broker went away: no later probe could hold.
        using var abort = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);

        async Task<IReadOnlyList<RunRecord>> Probe(RateSearchTarget target, double rate, CancellationToken token)
        {
            probeNumber++;
            var plan = template with
            {
                Clients = [target.Client],
                References = [],
                Scenarios = [target.Scenario],
                PayloadSizes = [target.PayloadBytes],
                SettingsVariants = [template.SettingsVariants.First(v => v.Describe() == target.Variant)],
                Rates = [rate],
                MessageCounts = [BenchmarkPlan.MeasuredRecords(rate, duration)],
                Duration = duration,
                // The cluster is warmed up once, before the first probe (below).
                ClusterWarmup = TimeSpan.Zero,
                // Each probe's topics are its own, even with --keep-topics.
                TopicPrefix = string.Create(CultureInfo.InvariantCulture, $"{template.TopicPrefix}-probe{probeNumber}"),
            };
            var result = await runner.RunAsync(plan, NullProgress.Instance, token).ConfigureAwait(false);
            environment ??= result.Environment;
            clusterWarmup ??= result.ClusterWarmup;
            foreach (var info in result.Clients) clients.TryAdd(info.Name, info);
            foreach (var warning in result.Warnings.Where(w => !warnings.Contains(w)).ToList())
            {
                warnings.Add(warning);
                log?.WriteLine($"warning: {warning}");
            }
            var measured = result.Runs.Select(r => r with { Sequence = runs.Count + r.Sequence }).ToList();
            runs.AddRange(measured);
            rates.UnionWith(measured.Select(r => r.OfferedRate).OfType<double>());
            if (result.AbortReason is { } reason) abortReason = reason;
            checkpoints?.OnRunCompleted(new ResultIncrement(measured, Rest(inProgress: abortReason is null && !result.Cancelled)));
            if (abortReason is not null)
            {
                cutShort = true;
                await abort.CancelAsync().ConfigureAwait(false);
                abort.Token.ThrowIfCancellationRequested();
            }
            if (result.Cancelled)
            {
                cutShort = true;
                token.ThrowIfCancellationRequested();
            }
            return measured;
        }

        void OnProbe(RateSearchTarget target, RateProbe probe)
        {
            if (log is null) return;
            string latency = probe.ResponseTime is { } r ? string.Create(CultureInfo.InvariantCulture, $"response p99 {r.P99Micros / 1000:0.###} ms") : "no response time";
            log.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"[probe {probeNumber,3}] {target.Scenario.ToString().ToLowerInvariant(),-9} {target.PayloadBytes,7} B  {target.Client,-12} {probe.OfferedRate,12:N0} msg/s  {(probe.Held ? "held" : "failed")}: {(probe.Held || probe.Reason is null || !probe.Reason.StartsWith('p') ? latency : string.Empty)}{(probe.Held ? string.Empty : probe.Reason is { } reason && reason.StartsWith('p') ? reason : $" ({probe.Reason})")}"));
        }

        log?.WriteLine($"kafkaperf: searching the highest rate that holds {string.Join(", ", options.Goals)} for {targets.Count} client(s) and cell(s), {duration.TotalSeconds:0.###} s per probe after a {template.LoadWarmup.TotalSeconds:0.###} s warm-up");
        if (template.ClusterWarmup > TimeSpan.Zero)
            log?.WriteLine(template.ClusterWarmupNotice("before the first probe"));
        IReadOnlyList<RateSearchResult>? searches = null;
        bool cancelled = false;
        if (template.ClusterWarmup > TimeSpan.Zero)
        {
            // By every client of the search in turn, as a run's plan does, not only the first probe's client: an in-process
            // JVM compiles its send path in these rounds too. A plan of no runs is its cluster warm-up alone.
            var warmup = await runner.RunAsync(template with
            {
                References = [],
                Repeat = 0,
                Rates = [targets.Count > 0 ? Math.Clamp(options.StartRate, options.MinRate, options.MaxRate) : template.Rates[0]],
                TopicPrefix = template.TopicPrefix + "-probe0",
            }, log is null ? NullProgress.Instance : new WarmupProgress(new ClusterWarmupLines(log), template), abort.Token).ConfigureAwait(false);
            clusterWarmup = warmup.ClusterWarmup;
            foreach (var warning in warmup.Warnings.Where(w => !warnings.Contains(w)).ToList())
            {
                warnings.Add(warning);
                log?.WriteLine($"warning: {warning}");
            }
            if (warmup.AbortReason is { } reason) abortReason = reason;
            if (warmup.Cancelled || abortReason is not null) return Result(inProgress: false) with { Cancelled = abortReason is null };
        }
        (searches, cancelled) = await RateSearch.RunAsync(targets, options, Probe, OnProbe, abort.Token).ConfigureAwait(false);
        return Result(inProgress: false);

        // The whole result sums up every probe's runs: once at the end, never per probe.
        BenchmarkResult Result(bool inProgress) => ResultSummarizer.Complete(Rest(inProgress), [.. runs]);

        BenchmarkResult Rest(bool inProgress)
        {
            IReadOnlyCollection<double> planRates = rates.Count > 0 ? rates : template.Rates;
            var plan = template with
            {
                Rates = [.. planRates],
                MessageCounts = [.. planRates.Select(r => BenchmarkPlan.MeasuredRecords(r, duration)).Distinct()],
                SearchedRuns = runs.Count,
            };
            return new BenchmarkResult
            {
                StartedAtUtc = started,
                FinishedAtUtc = DateTimeOffset.UtcNow,
                Environment = environment ?? EnvironmentInfo.Capture(connection),
                Plan = plan,
                Clients = [.. plan.Clients.Where(clients.ContainsKey).Select(c => clients[c])],
                Runs = [],
                Cells = [],
                Comparisons = [],
                Warnings = [.. warnings],
                Cancelled = abortReason is null && (cancelled || cutShort),
                AbortReason = abortReason,
                InProgress = inProgress,
                RateSearches = searches,
                ClusterWarmup = clusterWarmup,
            };
        }
    }

    /// <summary>What the search says while it warms the cluster up: its progress lines, nothing else.</summary>
    private sealed class WarmupProgress(ClusterWarmupLines lines, BenchmarkPlan template) : IBenchmarkProgress
    {
        public void OnPlanStarted(BenchmarkPlan plan)
        {
        }

        public void OnRunStarting(RunDescriptor run)
        {
        }

        public void OnRunCompleted(RunDescriptor run, RunRecord record)
        {
        }

        public void OnWarning(string message)
        {
        }

        public void OnClusterWarmupRound(int round, string client, TimeSpan elapsed, TimeSpan length) => lines.OnRound(template, round, client, elapsed);
    }
}
