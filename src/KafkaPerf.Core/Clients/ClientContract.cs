using System.Reflection;

namespace KafkaPerf.Clients;

/// <summary>
/// The version of the client contract (<see cref="IBenchClientFactory"/>, <see cref="IBenchClient"/> and what they use):
/// KafkaPerf.Core's assembly version, major.minor. A plugin built against the same major and an equal or lower minor
/// runs; any other is refused before anything starts. A change that would break a built plugin raises the major; one
/// that only adds raises the minor.
/// </summary>
public static class ClientContract
{
    /// <summary>This build's contract version.</summary>
    public static Version Version { get; } = typeof(IBenchClientFactory).Assembly.GetName().Version is { } v ? new Version(v.Major, v.Minor) : new Version(0, 0);

    /// <summary>KafkaPerf's release (its package version, e.g. 2.2.0), which results name; its major and minor are the contract's version.</summary>
    public static string Release { get; } =
        typeof(IBenchClientFactory).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion.Split('+')[0] ?? "0.0.0";

    /// <summary>What a plugin built against an older major must change to run on this one, in a few words that end a
    /// refusal; <see langword="null"/> when nothing is known about that major (a newer one, say).</summary>
    /// <param name="built">The KafkaPerf.Core version the plugin references.</param>
    /// <returns>E.g. for 1.x: that a factory's <c>Create</c> now receives a <see cref="KafkaEndpoint"/>.</returns>
    public static string? WhatChanged(Version built)
    {
        ArgumentNullException.ThrowIfNull(built);
        return built.Major == 1 && Version.Major == 2
            ? $"since 2.0 {nameof(IBenchClientFactory)}.{nameof(IBenchClientFactory.Create)} receives a {nameof(KafkaEndpoint)} (bootstrap servers, security, stall timeout) instead of ClientConnection, whose faults, probes and broker watch are no longer a client's; change that parameter"
            : null;
    }

    /// <summary>Whether a plugin built against <paramref name="built"/> can run on this contract.</summary>
    /// <param name="built">The KafkaPerf.Core version the plugin references.</param>
    /// <returns><see langword="true"/> when the majors are equal and the plugin's minor is not above this one's.</returns>
    public static bool Accepts(Version built)
    {
        ArgumentNullException.ThrowIfNull(built);
        return built.Major == Version.Major && built.Minor <= Version.Minor;
    }
}
