using System.Diagnostics;

namespace KafkaPerf.Tests.Shared;

/// <summary>The Docker engine and the Kafka image the container tests use: the local image eng/build-kafka-image.sh
/// builds from Kafka's jars (eng/install-prerequisites.sh --tests builds it), or the one KAFKAPERF_TEST_KAFKA_IMAGE names.</summary>
internal static class TestDocker
{
    public const string ImageVariable = "KAFKAPERF_TEST_KAFKA_IMAGE";

    public static string Image => Environment.GetEnvironmentVariable(ImageVariable) is { Length: > 0 } image ? image : "kafkaperf-local/apache-kafka:4.3.1";

    /// <summary>Why container tests cannot run here, or <see langword="null"/> when the engine answers and has the image.</summary>
    public static string? WhyUnavailable()
    {
        var (exit, output) = Docker("image", "inspect", "--format", "{{.Id}}", Image);
        if (exit == 0) return null;
        return Docker("info", "--format", "{{.ServerVersion}}").Exit != 0
            ? $"no Docker engine answers here ({output.Trim()}): eng/install-prerequisites.sh --tests starts one where it can"
            : $"the image {Image} is not on this machine: eng/build-kafka-image.sh builds it";
    }

    /// <summary>KafkaPerf's containers of a process, running or not.</summary>
    public static IReadOnlyList<string> ContainersOf(int pid)
    {
        var (_, output) = Docker("ps", "-a", "-q", "--filter", $"label=org.kafkaperf.owner-pid={pid}");
        return output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
    }

    /// <summary>KafkaPerf's containers whose owning process is gone: left behind (other tests' live ones are not).</summary>
    public static IReadOnlyList<string> Orphans()
    {
        var (_, output) = Docker("ps", "-a", "--filter", "label=org.kafkaperf.owner-pid", "--format", "{{.ID}} {{.Label \"org.kafkaperf.owner-pid\"}}");
        return [.. output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(line => line.Split(' '))
            .Where(parts => parts.Length == 2 && int.TryParse(parts[1], out int pid) && !IsRunning(pid))
            .Select(parts => parts[0])];
    }

    private static bool IsRunning(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }

    private static (int Exit, string Output) Docker(params string[] args)
    {
        var start = new ProcessStartInfo("docker") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var arg in args) start.ArgumentList.Add(arg);
        try
        {
            using var process = Process.Start(start)!;
            var stdout = process.StandardOutput.ReadToEndAsync();
            var stderr = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit(TimeSpan.FromSeconds(30)))
            {
                process.Kill(entireProcessTree: true);
                return (-1, "docker did not answer within 30 s");
            }
            return (process.ExitCode, stdout.Result + stderr.Result);
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            return (-1, $"docker is not installed ({ex.Message})");
        }
    }
}
