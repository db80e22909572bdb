using KafkaPerf.Clients;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Plans;

/// <summary>The consumer group's settings, swept like the client knobs: its rebalance protocol, a classic group's
/// assignor, and static membership; and the faults, of which membership events are kept apart.</summary>
public sealed partial class BenchmarkPlanBuilder
{
    private GroupProtocol[] _groupProtocol = [];
    private GroupAssignor[] _assignor = [];
    private bool[] _staticMembership = [];

    /// <summary>The group's rebalance protocol, classic or consumer (KIP-848); several values sweep it.</summary>
    /// <param name="values">Protocols.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder GroupProtocol(params GroupProtocol[] values) { _groupProtocol = values; return this; }

    /// <summary>A classic group's assignor; several values sweep it. Cells of the consumer protocol, which assigns on the
    /// broker, run without one (a sweep of both protocols and two assignors has three variants).</summary>
    /// <param name="values">Assignors.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Assignor(params GroupAssignor[] values) { _assignor = values; return this; }

    /// <summary>Static membership (a <c>group.instance.id</c> per member); <c>true, false</c> sweeps it.</summary>
    /// <param name="values">Values.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder StaticMembership(params bool[] values) { _staticMembership = values; return this; }

    /// <summary>Faults fired in every measured run at a rate (<see cref="FaultSpec"/>), and the latency goal that
    /// recovery from them is measured against.</summary>
    /// <param name="faults">As <c>--fault</c> spells them, e.g. <c>kill:leader@10s</c>.</param>
    /// <param name="recoveryGoal">E.g. <c>p99&lt;20ms</c>; <see langword="null"/> for none.</param>
    /// <returns>This builder.</returns>
    public BenchmarkPlanBuilder Faults(IEnumerable<string> faults, string? recoveryGoal = null)
    {
        ArgumentNullException.ThrowIfNull(faults);
        var given = faults.ToList();
        // A membership event (join:consumer@10s) acts on the run's group, not on a node: the plan keeps it apart.
        var parsed = given.Where(f => !GroupEventSpec.IsGroupEventText(f)).Select(FaultSpec.TryCanonical).ToList();
        var events = given.Where(GroupEventSpec.IsGroupEventText).Select(GroupEventSpec.TryCanonical).ToList();
        _options = _options with { Faults = parsed, GroupEvents = events, RecoveryGoal = string.IsNullOrWhiteSpace(recoveryGoal) ? null : recoveryGoal.Trim() };
        return this;
    }

    private bool HasGroupSettings => _groupProtocol.Length > 0 || _assignor.Length > 0 || _staticMembership.Length > 0;

    private void CopyGroup(ClientSettings settings)
    {
        _groupProtocol = settings.GroupProtocol is { } p ? [p] : [];
        _assignor = settings.Assignor is { } a ? [a] : [];
        _staticMembership = settings.StaticMembership is { } s ? [s] : [];
    }

    private IEnumerable<ClientSettings> SweepGroup(IEnumerable<ClientSettings> variants)
    {
        variants = Sweep(variants, _groupProtocol, (s, v) => s with { GroupProtocol = v });
        variants = Sweep(variants, _assignor, (s, v) => s with { Assignor = s.GroupProtocol == KafkaPerf.Clients.GroupProtocol.Consumer ? null : v });
        variants = Sweep(variants, _staticMembership, (s, v) => s with { StaticMembership = v });
        // The consumer protocol's cells have no assignor: one of them stands for every assignor of the sweep.
        return variants.Distinct();
    }

    private void ValidateGroupSettings(Action<string> error)
    {
        if (!HasGroupSettings && _options.GroupEvents.Count == 0) return;
        if (_group.Any(g => ((ConsumerGroupKind?)g).IsShare()))
            error("--group-protocol, --assignor, --static-membership and membership events are a consumer group's, not a share group's: leave --group share out.");
        if (_scenarios.Count > 0 && !_scenarios.Contains(ScenarioKind.Consume) && !_scenarios.Contains(ScenarioKind.Roundtrip))
            error("--group-protocol, --assignor and --static-membership are a consumer group's: give --scenarios consume or roundtrip (or both).");
        if (_assignor.Length > 0 && _groupProtocol.Length > 0 && _groupProtocol.All(p => p == KafkaPerf.Clients.GroupProtocol.Consumer))
            error("--assignor is a classic group's: the consumer protocol (KIP-848) assigns partitions on the broker; sweep --group-protocol classic too, or leave --assignor out.");
        if (!_groupProtocol.Contains(KafkaPerf.Clients.GroupProtocol.Consumer)) return;
        foreach (var (client, settings) in _overrides)
            foreach (var key in settings.Keys.Where(k => GroupSettingsText.ClassicOnlyKeys.Contains(k, StringComparer.Ordinal)))
                error($"-X {client}:{key} is refused by the consumer group protocol (KIP-848), where the broker owns sessions, heartbeats and assignment: leave it out, or sweep --group-protocol classic only.");
    }
}
