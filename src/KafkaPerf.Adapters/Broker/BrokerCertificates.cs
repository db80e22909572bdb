using System.Diagnostics;
using System.Security.Cryptography;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// The embedded cluster's own TLS material, made with the JDK's <c>keytool</c> in the cluster's data folder (and deleted
/// with it): one self-signed certificate for <c>localhost</c> and <c>127.0.0.1</c>, which every node presents, in a
/// PKCS#12 keystore; the same certificate in PEM is what clients trust. The keystore's password is random and reaches
/// keytool through its environment, never its command line.
/// </summary>
internal sealed record BrokerCertificates(string KeystorePath, string StorePassword, string CaFile)
{
    private const string PasswordVariable = "KAFKAPERF_KEYSTORE_PASSWORD";
    private static readonly TimeSpan ToolTimeout = TimeSpan.FromSeconds(60);

    /// <summary>Makes the keystore and the CA file in <paramref name="folder"/>.</summary>
    /// <param name="java">The <c>java</c> executable; <c>keytool</c> is beside it.</param>
    /// <param name="folder">Where they go (created, readable by this user only).</param>
    /// <exception cref="PrerequisiteException">keytool is missing or failed.</exception>
    public static BrokerCertificates Create(string java, string folder)
    {
        var keytool = Path.Combine(Path.GetDirectoryName(java) ?? string.Empty, OperatingSystem.IsWindows() ? "keytool.exe" : "keytool");
        if (!File.Exists(keytool))
            throw new PrerequisiteException($"keytool was not found beside '{java}': the embedded cluster's TLS needs a full JDK (set JAVA_HOME to one).");
        PrivateFile.RestrictFolder(folder);
        var certificates = new BrokerCertificates(Path.Combine(folder, "broker.p12"), Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(16)),
            Path.Combine(folder, "ca.pem"));
        certificates.Run(keytool,
        [
            "-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-validity", "30",
            "-dname", "CN=localhost,O=KafkaPerf embedded cluster", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
            "-keystore", certificates.KeystorePath, "-storetype", "PKCS12", "-storepass:env", PasswordVariable,
        ]);
        certificates.Run(keytool,
        [
            "-exportcert", "-rfc", "-alias", "broker", "-keystore", certificates.KeystorePath, "-storetype", "PKCS12",
            "-storepass:env", PasswordVariable, "-file", certificates.CaFile,
        ]);
        return certificates;
    }

    private void Run(string keytool, string[] arguments)
    {
        var start = new ProcessStartInfo(keytool)
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
        };
        foreach (var argument in arguments) start.ArgumentList.Add(argument);
        start.Environment[PasswordVariable] = StorePassword;
        ChildEnvironment.RemoveSecrets(start);
        using var process = Process.Start(start) ?? throw new PrerequisiteException($"keytool at '{keytool}' could not be started.");
        process.StandardInput.Close();
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(ToolTimeout))
        {
            process.Kill(entireProcessTree: true);
            throw new PrerequisiteException($"keytool {arguments[0]} did not finish within {ToolTimeout.TotalSeconds:0} s.");
        }
        if (process.ExitCode != 0)
        {
            var said = (output.Result + " " + error.Result).Replace('\n', ' ').Trim();
            throw new PrerequisiteException($"keytool {arguments[0]} failed with exit code {process.ExitCode}: {said}");
        }
    }
}
