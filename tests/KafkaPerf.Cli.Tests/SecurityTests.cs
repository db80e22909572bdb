using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace KafkaPerf.Cli.Tests;

/// <summary>The secured embedded cluster and a secured --bootstrap cluster, end to end with the built tool: every client
/// and reference tool produces and consumes over TLS and SASL, no secret leaks, and wrong settings end in one line.</summary>
public partial class SecurityTests
{
    private static readonly string[] Everyone = ["confluent", "java", "kcat", "kafka-tools"];

    [Theory]
    [InlineData("ssl", null)]
    [InlineData("sasl-plaintext", "SCRAM-SHA-256")]
    public async Task Run_SecuredEmbeddedCluster_EveryClientAndToolProducesAndConsumes(string security, string? mechanism)
    {
        var work = Directory.CreateTempSubdirectory("kafkaperf-security-");
        try
        {
            var output = Path.Combine(work.FullName, "out");
            List<string> args = ["run", "--security", security, "--clients", "confluent,java", "--references", "kcat,kafka-tools",
                "--scenarios", "produce,consume", "--sizes", "100", "--messages", "1000", "--repeat", "1", "--broker-heap", "256",
                "--format", "json", "--output", output];
            if (mechanism is not null) args.AddRange(["--sasl-mechanism", mechanism]);

            var (exit, _, stderr) = await CliProcess.RunAsync(Private(work), [.. args]);

            Assert.True(exit == 0, stderr);
            AssertEveryoneProducedAndConsumed(File.ReadAllText(Directory.GetFiles(output, "*.json").Single()), security);
        }
        finally
        {
            work.Delete(recursive: true);
        }
    }

    /// <summary>SASL_SSL with SCRAM-SHA-512: every client and tool produces and consumes, and no secret leaks while the
    /// run goes on (one secured run for both: each takes a minute or more on two cores). A class of its own (as is <see cref="WrongSettings"/>): xUnit
    /// runs a class's tests one after another, and each of these secured runs takes a minute or more, so they run beside
    /// each other and the other classes instead of in one line.</summary>
    public sealed class Secrets
    {
        [Fact]
        public async Task Run_SaslSsl_EveryClientAndToolProducesAndConsumesAndThePasswordAppearsInNoOutputLogOrProcessList()
        {
            var work = Directory.CreateTempSubdirectory("kafkaperf-security-");
            string password = "kp-secret-" + Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(8));
            try
            {
                var output = Path.Combine(work.FullName, "out");
                var environment = Private(work);
                environment["KAFKAPERF_SASL_USERNAME"] = "bench-user";
                environment["KAFKAPERF_SASL_PASSWORD"] = password;
                using var cli = CliProcess.Start(environment,
                    "run", "--security", "sasl-ssl", "--sasl-mechanism", "SCRAM-SHA-512", "--clients", "confluent,java",
                    "--references", "kcat,kafka-tools", "--scenarios", "produce,consume", "--sizes", "100", "--messages", "1000", "--repeat", "1",
                    "--broker-heap", "256", "--otel", "console", "--output", output);

                // While it runs: every process's command line, the environment of every process it started, and every log of
                // the cluster's nodes, sampled until it ends.
                var leaks = new List<string>();
                var tools = new HashSet<string>();
                while (!cli.Process.HasExited)
                {
                    Sample(cli.Process.Id, password, work.FullName, leaks, tools);
                    await Task.Delay(50);
                }
                cli.Process.WaitForExit();

                Assert.True(cli.Process.ExitCode == 0, cli.Stderr);
                Assert.Empty(leaks);
                // The sampler did see the reference tools and the broker, with their secrets in files, not on the command line.
                Assert.Contains("kcat", tools);
                Assert.Contains("ProducerPerformance", tools);
                Assert.Contains("broker", tools);
                Assert.DoesNotContain(password, cli.Stdout, StringComparison.Ordinal);
                Assert.DoesNotContain(password, cli.Stderr, StringComparison.Ordinal);
                var files = Directory.GetFiles(output, "*", SearchOption.AllDirectories);
                Assert.NotEmpty(files);
                foreach (var file in files) Assert.DoesNotContain(password, File.ReadAllText(file), StringComparison.Ordinal);
                // The clients' effective configurations in the result show that a password was set, not what it is.
                var result = File.ReadAllText(files.Single(f => f.EndsWith(".json", StringComparison.Ordinal)));
                AssertEveryoneProducedAndConsumed(result, "sasl-ssl");
                Assert.Contains("\"sasl.password\": \"[hidden]\"", result, StringComparison.Ordinal);
                Assert.Contains("\"sasl.jaas.config\": \"[hidden]\"", result, StringComparison.Ordinal);
                Assert.Contains("\"sasl.username\": \"bench-user\"", result, StringComparison.Ordinal);
            }
            finally
            {
                work.Delete(recursive: true);
            }
        }
    }

    /// <summary>Wrong security settings against the clusters of the broker command.</summary>
    public sealed class WrongSettings
    {
        [Fact]
        public async Task Run_WrongSecurityAgainstAClusterOfTheBrokerCommand_OneLineEach()
        {
            var work = Directory.CreateTempSubdirectory("kafkaperf-security-");
            try
            {
                var secured = Private(work);
                secured["KAFKAPERF_SASL_PASSWORD"] = "right-password";
                using var tls = CliProcess.Start(secured, "broker", "--security", "sasl-ssl", "--broker-heap", "256");
                using var plain = CliProcess.Start(Private(work), "broker", "--broker-heap", "256");
                using var ready = new CancellationTokenSource(TimeSpan.FromMinutes(2));
                var tlsBootstrap = await tls.FirstLine.WaitAsync(ready.Token);
                var plainBootstrap = await plain.FirstLine.WaitAsync(ready.Token);
                await WaitUntilAsync(() => CaFile().IsMatch(tls.Stderr), TimeSpan.FromSeconds(10));
                var ca = CaFile().Match(tls.Stderr).Groups[1].Value;
                Assert.True(File.Exists(ca), tls.Stderr);
                Assert.DoesNotContain("right-password", tls.Stderr + tls.Stdout, StringComparison.Ordinal);

                async Task<(int Exit, string Stderr, TimeSpan Took)> Run(string password, params string[] extra) => await RunTo("out", password, extra);

                async Task<(int Exit, string Stderr, TimeSpan Took)> RunTo(string folder, string password, params string[] extra)
                {
                    var environment = Private(work);
                    if (password.Length > 0)
                    {
                        environment["KAFKAPERF_SASL_USERNAME"] = "kafkaperf";
                        environment["KAFKAPERF_SASL_PASSWORD"] = password;
                    }
                    long started = Stopwatch.GetTimestamp();
                    var (exit, _, stderr) = await CliProcess.RunAsync(environment,
                        ["run", "--clients", "confluent", "--scenarios", "produce", "--sizes", "100", "--messages", "100", "--repeat", "1",
                            "--output", Path.Combine(work.FullName, folder), .. extra]);
                    return (exit, stderr, Stopwatch.GetElapsedTime(started));
                }

                // The right settings work: the cluster is fine, so what follows is the settings' fault.
                var good = await RunTo("good", "right-password", "--bootstrap", tlsBootstrap, "--security", "sasl-ssl", "--ssl-ca", ca, "--stall-timeout", "20s");
                Assert.True(good.Exit == 0, good.Stderr);

                var wrongPassword = await Run("wrong-password", "--bootstrap", tlsBootstrap, "--security", "sasl-ssl", "--ssl-ca", ca);
                AssertOneLine(wrongPassword, "refused the PLAIN login of user 'kafkaperf'");

                var untrusted = await Run("right-password", "--bootstrap", tlsBootstrap, "--security", "sasl-ssl");
                AssertOneLine(untrusted, "a certificate this client does not trust");

                var missingCa = await Run("right-password", "--bootstrap", tlsBootstrap, "--security", "sasl-ssl", "--ssl-ca", Path.Combine(work.FullName, "none.pem"));
                AssertOneLine(missingCa, "does not exist: give the PEM file of the CA");

                var tlsOnPlain = await Run("right-password", "--bootstrap", plainBootstrap, "--security", "ssl", "--ssl-ca", ca);
                AssertOneLine(tlsOnPlain, "does not speak SSL");

                var plainOnTls = await Run("right-password", "--bootstrap", tlsBootstrap, "--security", "sasl-plaintext");
                AssertOneLine(plainOnTls, "does not speak SASL_PLAINTEXT");

                var noCredentials = await Run(string.Empty, "--bootstrap", tlsBootstrap, "--security", "sasl-ssl", "--ssl-ca", ca);
                AssertOneLine(noCredentials, "needs credentials");

                Assert.False(Directory.Exists(Path.Combine(work.FullName, "out")) && Directory.EnumerateFileSystemEntries(Path.Combine(work.FullName, "out")).Any(),
                    "a refused run left files behind");
            }
            finally
            {
                work.Delete(recursive: true);
            }
        }
    }

    private static void AssertOneLine((int Exit, string Stderr, TimeSpan Took) result, string expected)
    {
        Assert.True(result.Exit == 2, $"exit {result.Exit}: {result.Stderr}");
        var lines = result.Stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Where(l => !l.StartsWith("kafkaperf: checking", StringComparison.Ordinal)).ToList();
        var line = Assert.Single(lines);
        Assert.Contains(expected, line, StringComparison.Ordinal);
        // Within the stall timeout (30 s by default), not at the end of some longer wait.
        Assert.True(result.Took < TimeSpan.FromSeconds(30), $"took {result.Took.TotalSeconds:0.0} s: {line}");
    }

    /// <summary>Every client and reference tool produced and consumed on the cluster, over the protocol asked for.</summary>
    private static void AssertEveryoneProducedAndConsumed(string resultJson, string security)
    {
        using var json = JsonDocument.Parse(resultJson);
        var root = json.RootElement;
        string protocol = security.ToUpperInvariant().Replace('-', '_');
        Assert.Contains($"clients on {protocol}", root.GetProperty("environment").GetProperty("brokerDescription").GetString(), StringComparison.Ordinal);
        var runs = root.GetProperty("runs").EnumerateArray().Where(r => !r.GetProperty("isWarmup").GetBoolean()).ToList();
        foreach (var client in Everyone)
        {
            foreach (var scenario in new[] { "produce", "consume" })
            {
                var run = Assert.Single(runs, r => r.GetProperty("client").GetString() == client && r.GetProperty("scenario").GetString() == scenario);
                Assert.True(run.GetProperty("succeeded").GetBoolean(), $"{client} {scenario}: {run}");
                if (scenario == "consume") Assert.Equal(1000, run.GetProperty("received").GetInt64());
            }
        }
    }

    /// <summary>A temporary folder of the test's own, so that the cluster's data (and its logs) are found and go with it.</summary>
    private static Dictionary<string, string?> Private(DirectoryInfo work) => new()
    {
        ["TMPDIR"] = work.FullName,
        ["KAFKAPERF_SASL_USERNAME"] = null,
        ["KAFKAPERF_SASL_PASSWORD"] = null,
    };

    private static void Sample(int cliPid, string password, string tmp, List<string> leaks, HashSet<string> tools)
    {
        string cliCommandLine;
        try
        {
            cliCommandLine = File.ReadAllText($"/proc/{cliPid}/cmdline").Replace('\0', ' ');
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return;
        }
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out int pid) || pid == cliPid) continue;
            string commandLine;
            try
            {
                commandLine = File.ReadAllText(Path.Combine(directory, "cmdline")).Replace('\0', ' ');
                if (commandLine.Contains(password, StringComparison.Ordinal)) leaks.Add($"command line of {pid}: {commandLine}");
                // A child the CLI has forked but not yet exec'd is still a copy of the CLI (its command line and the
                // environment the user gave it); only what the child runs after exec, with the environment the CLI
                // chose for it, can leak.
                if (commandLine == cliCommandLine) continue;
                if (!commandLine.Contains(tmp, StringComparison.Ordinal) && !commandLine.Contains("kcat", StringComparison.Ordinal)
                    && !commandLine.Contains("keytool", StringComparison.Ordinal)) continue;
                // Only this run's tools count as seen (their files are in its temporary folder): other tests run beside it.
                bool ours = commandLine.Contains(tmp, StringComparison.Ordinal);
                if (ours && commandLine.Contains("kcat", StringComparison.Ordinal)) tools.Add("kcat");
                if (ours && commandLine.Contains("ProducerPerformance", StringComparison.Ordinal)) tools.Add("ProducerPerformance");
                if (ours && commandLine.Contains("EmbeddedBrokerMain", StringComparison.Ordinal)) tools.Add("broker");
                if (File.ReadAllText(Path.Combine(directory, "environ")).Contains(password, StringComparison.Ordinal))
                    leaks.Add($"environment of {pid}: {commandLine}");
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // The process ended meanwhile.
            }
        }
        foreach (var log in SafeLogs(tmp))
        {
            try
            {
                using var reader = new StreamReader(new FileStream(log, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete));
                if (reader.ReadToEnd().Contains(password, StringComparison.Ordinal)) leaks.Add($"log {log}");
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Deleted meanwhile.
            }
        }
    }

    private static string[] SafeLogs(string root)
    {
        try
        {
            return Directory.GetFiles(root, "*.log", SearchOption.AllDirectories);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }

    private static async Task WaitUntilAsync(Func<bool> condition, TimeSpan timeout)
    {
        var deadline = Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        while (!condition() && Stopwatch.GetTimestamp() < deadline) await Task.Delay(50);
    }

    [GeneratedRegex(@", CA (\S+\.pem)")]
    private static partial Regex CaFile();
}
