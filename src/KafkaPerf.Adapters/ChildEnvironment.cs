using System.Diagnostics;

namespace KafkaPerf.Adapters;

/// <summary>What KafkaPerf keeps from the environment of every process it starts (brokers, reference tools, keytool).</summary>
internal static class ChildEnvironment
{
    /// <summary>Variables that may hold a secret: the user's credentials stay with KafkaPerf; a child that needs them gets
    /// them in a file of its own.</summary>
    internal static readonly string[] SecretVariables = ["KAFKAPERF_SASL_PASSWORD", "KAFKAPERF_SASL_USERNAME"];

    /// <summary>Removes <see cref="SecretVariables"/> from a child's environment.</summary>
    /// <param name="start">The child's start information.</param>
    internal static void RemoveSecrets(ProcessStartInfo start)
    {
        foreach (var name in SecretVariables) start.Environment.Remove(name);
    }
}
