using System.Text.RegularExpressions;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// The Apache Kafka jars the embedded broker, Kafka's perf tools and the Java clients run from:
/// <c>KAFKAPERF_KAFKA_HOME/libs</c> when that variable names a Kafka distribution, otherwise the jars that
/// <c>eng/fetch-kafka.sh</c> fetched with Maven and the build placed beside the assemblies (<c>kafka/libs</c>).
/// </summary>
/// <param name="LibsDirectory">The folder holding the jars.</param>
/// <param name="KafkaVersion">The Kafka version, read from the <c>kafka-clients</c> jar's name.</param>
/// <param name="Origin">Where the jars came from, for results and error messages.</param>
public sealed partial record KafkaJars(string LibsDirectory, string KafkaVersion, string Origin)
{
    /// <summary>The variable naming an unpacked Apache Kafka distribution whose <c>libs/</c> is used as is.</summary>
    public const string KafkaHomeVariable = "KAFKAPERF_KAFKA_HOME";

    /// <summary>The jar with KafkaPerf's own Java code (the broker launcher), built by the project.</summary>
    public static string ProjectJar => Path.Combine(AppContext.BaseDirectory, "kafka", "kafkaperf-java.jar");

    /// <summary>Finds the jars.</summary>
    /// <param name="kafkaHome">A Kafka distribution to use; <c>KAFKAPERF_KAFKA_HOME</c> when <see langword="null"/>.</param>
    /// <returns>The jars.</returns>
    /// <exception cref="PrerequisiteException">The named distribution has no jars, or none were fetched.</exception>
    public static KafkaJars Locate(string? kafkaHome = null)
    {
        kafkaHome ??= Environment.GetEnvironmentVariable(KafkaHomeVariable);
        if (!string.IsNullOrWhiteSpace(kafkaHome))
        {
            var libs = Path.Combine(kafkaHome, "libs");
            return TryRead(libs, $"{KafkaHomeVariable} ({kafkaHome})")
                ?? throw new PrerequisiteException(
                    $"{KafkaHomeVariable} is '{kafkaHome}', but '{libs}' holds no kafka-clients jar: point it at an unpacked Apache Kafka distribution, or unset it to use the jars fetched by eng/fetch-kafka.sh.");
        }
        var fetched = Path.Combine(AppContext.BaseDirectory, "kafka", "libs");
        return TryRead(fetched, "Maven (eng/fetch-kafka.sh)")
            ?? throw new PrerequisiteException(
                $"Apache Kafka's jars are not in '{fetched}': run eng/fetch-kafka.sh (it needs Maven) and rebuild, or set {KafkaHomeVariable} to an unpacked Kafka distribution.");
    }

    /// <summary>The class path of these jars plus KafkaPerf's own jar.</summary>
    /// <returns>A <c>java -cp</c> value.</returns>
    /// <exception cref="PrerequisiteException">KafkaPerf's own jar was not built.</exception>
    public string ClassPathWithProjectJar()
    {
        if (!File.Exists(ProjectJar))
            throw new PrerequisiteException($"KafkaPerf's Java launcher '{ProjectJar}' is missing: rebuild the project with a JDK (javac) on PATH.");
        return string.Join(Path.PathSeparator, Path.Combine(LibsDirectory, "*"), ProjectJar);
    }

    private static KafkaJars? TryRead(string libs, string origin)
    {
        if (!Directory.Exists(libs)) return null;
        foreach (var jar in Directory.EnumerateFiles(libs, "kafka-clients-*.jar"))
        {
            var match = ClientsJar().Match(Path.GetFileName(jar));
            if (match.Success) return new KafkaJars(libs, match.Groups[1].Value, origin);
        }
        return null;
    }

    [GeneratedRegex(@"^kafka-clients-(\d[^-]*(?:-[A-Za-z0-9.]+)?)\.jar$")]
    private static partial Regex ClientsJar();
}
