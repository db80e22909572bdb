using System.Diagnostics;

namespace KafkaPerf.Adapters.Tests.Broker;

/// <summary>eng/fetch-kafka.sh: every way it can fail says so in one line. Each run writes only into a temporary folder.</summary>
public class FetchKafkaScriptTests
{
    [Fact]
    public async Task Fetch_MirrorIsNotAFolder_OneLine()
    {
        var (exit, stderr) = await RunAsync(new() { ["KAFKAPERF_MAVEN_MIRROR"] = "/nonexistent/maven-repo" });

        Assert.NotEqual(0, exit);
        Assert.Equal("fetch-kafka: KAFKAPERF_MAVEN_MIRROR is '/nonexistent/maven-repo', which is not a folder: point it at a local Maven repository, or unset it to use Maven's own settings.", stderr.Trim());
    }

    [Fact]
    public async Task Fetch_MirrorWithoutKafka_OneLine()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-mirror-");
        try
        {
            var (exit, stderr) = await RunAsync(new() { ["KAFKAPERF_MAVEN_MIRROR"] = folder.FullName });

            Assert.NotEqual(0, exit);
            Assert.Single(Lines(stderr));
            Assert.Contains("holds no org/apache/kafka", stderr, StringComparison.Ordinal);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Fetch_MirrorMissingTheArtifacts_MavenFailsInOneLineAndNothingIsLeftAsJars()
    {
        var mirror = Directory.CreateTempSubdirectory("kafkaperf-mirror-");
        var dest = Directory.CreateTempSubdirectory("kafkaperf-fetch-");
        try
        {
            Directory.CreateDirectory(Path.Combine(mirror.FullName, "org", "apache", "kafka"));
            var libs = Path.Combine(dest.FullName, "libs");

            var (exit, stderr) = await RunAsync(new() { ["KAFKAPERF_MAVEN_MIRROR"] = mirror.FullName }, "--dest", libs);

            Assert.NotEqual(0, exit);
            var failure = Assert.Single(Lines(stderr), l => !l.Contains("resolving", StringComparison.Ordinal));
            Assert.StartsWith("fetch-kafka: Maven could not fetch Kafka's jars (", failure, StringComparison.Ordinal);
            Assert.Contains("KAFKAPERF_MAVEN_MIRROR", failure, StringComparison.Ordinal);
            Assert.False(Directory.Exists(libs));
            Assert.False(Directory.Exists(libs + ".partial"));
        }
        finally
        {
            mirror.Delete(recursive: true);
            dest.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Fetch_KafkaHomeWithoutJars_OneLine()
    {
        var (exit, stderr) = await RunAsync(new() { ["KAFKAPERF_KAFKA_HOME"] = "/nonexistent/kafka" });

        Assert.NotEqual(0, exit);
        Assert.Equal("fetch-kafka: KAFKAPERF_KAFKA_HOME is '/nonexistent/kafka', but its libs/ holds no kafka-clients jar: point it at an unpacked Apache Kafka distribution, or unset it to fetch the jars with Maven.", stderr.Trim());
    }

    [Fact]
    public async Task Fetch_NoMavenOnPath_OneLineSayingHowToInstallIt()
    {
        // A PATH with every tool of /usr/bin and /bin except mvn.
        var bin = Directory.CreateTempSubdirectory("kafkaperf-nomvn-");
        var dest = Directory.CreateTempSubdirectory("kafkaperf-fetch-");
        try
        {
            foreach (var folder in new[] { "/usr/bin", "/bin" })
            {
                foreach (var tool in Directory.EnumerateFiles(folder))
                {
                    var link = Path.Combine(bin.FullName, Path.GetFileName(tool));
                    if (Path.GetFileName(tool) != "mvn" && !File.Exists(link)) File.CreateSymbolicLink(link, tool);
                }
            }

            var (exit, stderr) = await RunAsync(new() { ["PATH"] = bin.FullName }, "--dest", Path.Combine(dest.FullName, "libs"));

            Assert.NotEqual(0, exit);
            Assert.StartsWith("fetch-kafka: Maven (mvn) is not installed", Assert.Single(Lines(stderr)), StringComparison.Ordinal);
        }
        finally
        {
            bin.Delete(recursive: true);
            dest.Delete(recursive: true);
        }
    }

    private static string[] Lines(string text) => text.Split('\n', StringSplitOptions.RemoveEmptyEntries);

    private static async Task<(int Exit, string Stderr)> RunAsync(Dictionary<string, string> environment, params string[] args)
    {
        var start = new ProcessStartInfo("bash") { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        start.ArgumentList.Add(Path.Combine(TestPaths.RepositoryRoot, "eng", "fetch-kafka.sh"));
        foreach (var arg in args) start.ArgumentList.Add(arg);
        start.Environment.Remove("KAFKAPERF_MAVEN_MIRROR");
        start.Environment.Remove("KAFKAPERF_KAFKA_HOME");
        foreach (var (key, value) in environment) start.Environment[key] = value;
        using var process = Process.Start(start)!;
        var stderr = process.StandardError.ReadToEndAsync();
        await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync(TestPaths.Timeout());
        return (process.ExitCode, await stderr);
    }
}
