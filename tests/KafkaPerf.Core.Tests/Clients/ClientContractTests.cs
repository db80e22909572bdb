using System.Reflection;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;

namespace KafkaPerf.Core.Tests.Clients;

public class ClientContractTests
{
    [Fact]
    public void Version_IsKafkaPerfCoresAssemblyVersion()
    {
        var assembly = typeof(IBenchClientFactory).Assembly.GetName().Version!;

        Assert.Equal(new Version(assembly.Major, assembly.Minor), ClientContract.Version);
        Assert.Equal(new Version(2, 2), ClientContract.Version);
    }

    [Theory]
    [InlineData("2.0.0.0", true)]
    [InlineData("2.0.3.0", true)]
    [InlineData("2.1.0.0", true)]
    [InlineData("2.2.0.0", true)]
    [InlineData("2.3.0.0", false)]
    [InlineData("1.2.0.0", false)]
    [InlineData("1.0.0.0", false)]
    [InlineData("3.0.0.0", false)]
    public void Accepts_TheSameMajorAndNoHigherMinor(string built, bool accepted)
    {
        Assert.Equal(accepted, ClientContract.Accepts(Version.Parse(built)));
    }

    [Theory]
    [InlineData("1.0.0.0", true)]
    [InlineData("1.2.0.0", true)]
    [InlineData("3.0.0.0", false)]
    public void WhatChanged_NamesTheEndpointForA1xPluginOnly(string built, bool named)
    {
        var change = ClientContract.WhatChanged(Version.Parse(built));

        Assert.Equal(named, change is not null);
        if (named) Assert.Contains("receives a KafkaEndpoint (bootstrap servers, security, stall timeout) instead of ClientConnection", change, StringComparison.Ordinal);
    }

    [Fact]
    public void Endpoint_HoldsOnlyWhereAndHowToConnect()
    {
        var properties = typeof(KafkaEndpoint).GetProperties(BindingFlags.Public | BindingFlags.Instance).Select(p => p.Name).Order(StringComparer.Ordinal);

        Assert.Equal(["BootstrapServers", "Security", "StallTimeout"], properties);
    }

    [Fact]
    public void ClusterConnection_GivesClientsItsBootstrapSecurityAndStallTimeout()
    {
        var security = new KafkaSecurity(SecurityProtocol.SaslPlaintext, username: "u", password: "p");
        var connection = new ClusterConnection("a:9092,b:9092") { Security = security, StallTimeout = TimeSpan.FromSeconds(7), Brokers = 2 };

        Assert.Equal(new KafkaEndpoint("a:9092,b:9092") { Security = security, StallTimeout = TimeSpan.FromSeconds(7) }, connection.Endpoint);
    }

    /// <summary>Every type a plugin's code is handed or must hand back, through the factory and everything reachable from
    /// it (parameters, results, properties, base types), lies in the contract's namespace or in what it measures; none of
    /// the cluster's (faults, probes, readiness, the broker's exit) or the runner's.</summary>
    [Fact]
    public void Contract_ReachesNoTypeOfTheClusterOrTheRunner()
    {
        var seen = new HashSet<Type>();
        var queue = new Queue<Type>([typeof(IBenchClientFactory), typeof(IBenchClientFactoryProvider)]);
        while (queue.TryDequeue(out var type))
        {
            if (type.IsGenericType && !type.IsGenericTypeDefinition)
            {
                foreach (var argument in type.GetGenericArguments()) queue.Enqueue(argument);
                continue;
            }
            if (type.HasElementType) { queue.Enqueue(type.GetElementType()!); continue; }
            if (type.Assembly != typeof(IBenchClientFactory).Assembly || !seen.Add(type)) continue;
            const BindingFlags Flags = BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
            foreach (var method in type.GetMethods(Flags))
            {
                queue.Enqueue(method.ReturnType);
                foreach (var parameter in method.GetParameters()) queue.Enqueue(parameter.ParameterType);
            }
            foreach (var property in type.GetProperties(Flags)) queue.Enqueue(property.PropertyType);
            foreach (var ctor in type.GetConstructors()) foreach (var parameter in ctor.GetParameters()) queue.Enqueue(parameter.ParameterType);
            foreach (var face in type.GetInterfaces()) queue.Enqueue(face);
            if (type.BaseType is { } b) queue.Enqueue(b);
        }

        var namespaces = seen.Select(t => t.Namespace).Distinct().Order(StringComparer.Ordinal).ToList();
        Assert.Contains(typeof(KafkaEndpoint), seen);
        Assert.DoesNotContain(typeof(ClusterConnection), seen);
        Assert.All(namespaces, n => Assert.True(n is "KafkaPerf.Clients" or "KafkaPerf.Clients.InMemory" or "KafkaPerf.Measurement",
            $"the client contract reaches {n}: {string.Join(", ", seen.Where(t => t.Namespace == n).Select(t => t.Name))}"));
    }
}
