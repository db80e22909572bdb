using KafkaPerf.Clients;
namespace KafkaPerf.Adapters.Jvm;

/// <summary>Finds the Java installation to run: <c>JAVA_HOME</c> first, then the <c>java</c> on <c>PATH</c>.</summary>
public static class JavaLocator
{
    /// <summary>The standard variable naming a Java installation.</summary>
    public const string JavaHomeVariable = "JAVA_HOME";

    /// <summary>Finds the <c>java</c> launcher.</summary>
    /// <param name="javaHome">A Java installation to use; <c>JAVA_HOME</c> when <see langword="null"/>.</param>
    /// <returns>The full path of the <c>java</c> executable.</returns>
    /// <exception cref="PrerequisiteException">No Java was found, or <c>JAVA_HOME</c> names a folder without one.</exception>
    public static string FindJavaExecutable(string? javaHome = null)
    {
        javaHome ??= Environment.GetEnvironmentVariable(JavaHomeVariable);
        var executable = OperatingSystem.IsWindows() ? "java.exe" : "java";
        if (!string.IsNullOrWhiteSpace(javaHome))
        {
            var candidate = Path.Combine(javaHome, "bin", executable);
            return File.Exists(candidate)
                ? candidate
                : throw new PrerequisiteException(
                    $"JAVA_HOME is '{javaHome}', but it has no bin/{executable}: point JAVA_HOME at a Java 17+ installation, or unset it to use the java on PATH.");
        }
        foreach (var folder in (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            var candidate = Path.Combine(folder, executable);
            if (File.Exists(candidate)) return candidate;
        }
        throw new PrerequisiteException(
            "Java 17 or newer was not found (JAVA_HOME is unset and no java is on PATH): install it (Debian/Ubuntu: apt-get install openjdk-17-jre-headless) or set JAVA_HOME; or use an existing cluster with --bootstrap.");
    }
}
