using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Jvm;

/// <summary>JVM options a user adds through the environment, after KafkaPerf's own: <c>KAFKAPERF_BROKER_JVM_OPTIONS</c>
/// for every embedded broker's JVM, <c>KAFKAPERF_JVM_OPTIONS</c> for the in-process JVM of the java clients. Options are
/// separated by spaces and each starts with <c>-</c> (e.g. <c>-XX:TieredStopAtLevel=1</c>, which the project's tests use
/// to halve the JIT's work on two cores). A result names them beside the broker and the JVM they changed.</summary>
internal static class JvmOptionsVariable
{
    public const string Broker = "KAFKAPERF_BROKER_JVM_OPTIONS";
    public const string InProcess = "KAFKAPERF_JVM_OPTIONS";

    /// <summary>The options <paramref name="variable"/> holds; none when it is unset or blank.</summary>
    /// <exception cref="PrerequisiteException">A word of it is not a JVM option.</exception>
    public static IReadOnlyList<string> Read(string variable) => Parse(variable, Environment.GetEnvironmentVariable(variable));

    /// <summary>The options in <paramref name="value"/>, the value of <paramref name="variable"/>.</summary>
    /// <exception cref="PrerequisiteException">A word of it is not a JVM option.</exception>
    internal static IReadOnlyList<string> Parse(string variable, string? value)
    {
        var words = (value ?? string.Empty).Split([' ', '\t', '\n'], StringSplitOptions.RemoveEmptyEntries);
        foreach (var word in words)
        {
            if (!word.StartsWith('-'))
                throw new PrerequisiteException($"{variable}: '{word}' is not a JVM option (each starts with '-', separated by spaces, e.g. -XX:TieredStopAtLevel=1); fix or unset {variable}.");
        }
        return words;
    }

    /// <summary>", JVM options -a -b" for a description, or nothing.</summary>
    public static string Describe(IReadOnlyList<string> options) => options.Count == 0 ? string.Empty : ", JVM options " + string.Join(' ', options);
}
