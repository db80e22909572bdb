using System.Diagnostics;

namespace KafkaPerf.Adapters;

/// <summary>What KafkaPerf keeps from the environment of every process it starts (brokers, reference tools, keytool).</summary>
public static class ChildEnvironment
{
    /// <summary>Variables that may hold a secret: the user's credentials stay with KafkaPerf; a child that needs them gets
    /// them in a file of its own.</summary>
    internal static readonly string[] SecretVariables = [PasswordVariable, UsernameVariable, "KAFKAPERF_STORE_POSTGRES"];

    /// <summary>The SASL user, when no credentials file is named.</summary>
    public const string UsernameVariable = "KAFKAPERF_SASL_USERNAME";

    /// <summary>The SASL password, when no credentials file is named.</summary>
    public const string PasswordVariable = "KAFKAPERF_SASL_PASSWORD";

    /// <summary>Removes <see cref="SecretVariables"/> from a child's environment.</summary>
    /// <param name="start">The child's start information.</param>
    internal static void RemoveSecrets(ProcessStartInfo start)
    {
        foreach (var name in SecretVariables) start.Environment.Remove(name);
    }
}
