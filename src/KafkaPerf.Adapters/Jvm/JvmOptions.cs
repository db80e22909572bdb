using System.Globalization;

namespace KafkaPerf.Adapters.Jvm;

/// <summary>How the in-process JVM is created.</summary>
public sealed record JvmOptions
{
    /// <summary>Maximum Java heap in MB (<c>-Xmx</c>); default 1024.</summary>
    public int HeapMegabytes { get; init; } = 1024;

    /// <summary>Jar files and folders of classes, in order (no wildcards: the JVM itself does not expand them).</summary>
    public IReadOnlyList<string> ClassPath { get; init; } = [];

    /// <summary>Further JVM options, e.g. <c>-Xcheck:jni</c> or <c>-XX:+UseParallelGC</c>, after KafkaPerf's own.</summary>
    public IReadOnlyList<string> ExtraOptions { get; init; } = [];

    /// <summary>A Java installation to load <c>libjvm</c> from; <c>KAFKAPERF_JVM</c>, <c>JAVA_HOME</c> or <c>PATH</c> when <see langword="null"/>.</summary>
    public string? JavaHome { get; init; }

    /// <summary>The option strings given to <c>JNI_CreateJavaVM</c>.</summary>
    /// <remarks><c>-Xrs</c> leaves SIGINT and SIGTERM to .NET, so Ctrl+C cancels a run instead of running Java's shutdown hooks.</remarks>
    public IReadOnlyList<string> ToJvmArguments()
    {
        var arguments = new List<string>
        {
            "-Xrs",
            "-Xmx" + HeapMegabytes.ToString(CultureInfo.InvariantCulture) + "m",
            "-Djava.class.path=" + string.Join(Path.PathSeparator, ClassPath),
        };
        arguments.AddRange(ExtraOptions);
        return arguments;
    }
}
