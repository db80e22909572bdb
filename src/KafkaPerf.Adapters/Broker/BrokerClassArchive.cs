using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// The broker JVMs' class-data-sharing archive (JDK AppCDS): the classes a broker loads while it starts, parsed and
/// verified once and mapped by every later broker JVM, which cuts the CPU a node spends starting by about a third -
/// what makes a three-node cluster start in seconds on two cores. The first start without an archive writes one when its
/// first node ends (<c>-XX:ArchiveClassesAtExit</c>); later starts map it (<c>-XX:SharedArchiveFile</c>). It is named
/// after the Java executable and the jars, so another JDK or other jars make a new one, and a JVM that finds it unusable
/// starts without it. It affects how fast classes load, not how the broker runs.
/// </summary>
internal sealed class BrokerClassArchive
{
    private const string FolderName = "class-archives";

    /// <summary>Archives kept: the most recently used. Each is about 50 MB, and every other JDK, jar set or checkout (the
    /// jars' paths and times enter the name) makes a new one, so without a limit they pile up in the temporary folder
    /// (66 of them, 3.3 GB, on a machine that ran the tests from many clones).</summary>
    internal const int Kept = 4;
    private readonly string _path;
    private readonly string? _writing;

    private BrokerClassArchive(string path, string? writing)
    {
        _path = path;
        _writing = writing;
    }

    /// <summary>The archive for these Java and jars, in <paramref name="root"/>; <see langword="null"/> when it cannot be
    /// used (the folder cannot be written).</summary>
    /// <param name="root">The brokers' data root.</param>
    /// <param name="java">The Java executable.</param>
    /// <param name="classPath">The broker's class path.</param>
    /// <param name="jarFiles">The files on it, whose sizes and times enter the name.</param>
    /// <param name="write">Whether to write the archive when there is none yet.</param>
    /// <returns>The archive, or <see langword="null"/>.</returns>
    public static BrokerClassArchive? For(string root, string java, string classPath, IEnumerable<string> jarFiles, bool write)
    {
        try
        {
            var identity = new StringBuilder().Append(java).Append('\n').Append(Stamp(java)).Append('\n').Append(classPath).Append('\n');
            foreach (var jar in jarFiles.Order(StringComparer.Ordinal)) identity.Append(jar).Append(' ').Append(Stamp(jar)).Append('\n');
            var name = Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(identity.ToString())))[..16];
            var folder = Path.Combine(root, FolderName);
            Directory.CreateDirectory(folder);
            // An owner killed with SIGKILL leaves its node's archive half-made: gone after an hour.
            foreach (var stale in Directory.EnumerateFiles(folder, "*.tmp").Where(f => File.GetLastWriteTimeUtc(f) < DateTime.UtcNow.AddHours(-1)))
                File.Delete(stale);
            var path = Path.Combine(folder, name + ".jsa");
            bool exists = File.Exists(path);
            // Its time says when it was last used: the archives used least recently go first.
            if (exists) Touch(path);
            Prune(folder, path);
            return exists ? new BrokerClassArchive(path, null)
                : !write ? null
                : new BrokerClassArchive(path, Path.Combine(folder, $"{name}.{Environment.ProcessId}-{Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4))}.tmp"));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The JVM option for node <paramref name="nodeId"/>: map the archive, or (the first node, when there is no
    /// archive yet) write it at exit; <see langword="null"/> for none.</summary>
    /// <param name="nodeId">From 1.</param>
    /// <returns>The option.</returns>
    public string? OptionFor(int nodeId) => _writing is null ? "-XX:SharedArchiveFile=" + _path
        : nodeId == 1 ? "-XX:ArchiveClassesAtExit=" + _writing : null;

    /// <summary>After the nodes have ended: an archive written by the first node becomes the archive, unless another
    /// process made one meanwhile; a partial one (a node killed) is removed.</summary>
    /// <param name="cleanExit">Whether the first node ended by itself (its archive is whole).</param>
    public void Complete(bool cleanExit)
    {
        if (_writing is null) return;
        try
        {
            if (cleanExit && File.Exists(_writing) && new FileInfo(_writing).Length > 0 && !File.Exists(_path)) File.Move(_writing, _path);
        }
        catch (IOException)
        {
            // Another process moved its own first; ours goes below.
        }
        catch (UnauthorizedAccessException)
        {
            // Not ours to write: the next start writes one again.
        }
        try
        {
            File.Delete(_writing);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Left for the next sweep.
        }
    }

    private static void Touch(string path)
    {
        try
        {
            File.SetLastWriteTimeUtc(path, DateTime.UtcNow);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Not ours to touch: it is still used, only pruned sooner.
        }
    }

    /// <summary>Deletes all but the <see cref="Kept"/> most recently used archives, never <paramref name="current"/>. A JVM
    /// that maps a deleted archive keeps its mapping; one that starts on a name just deleted starts without it.</summary>
    /// <param name="folder">The archives' folder.</param>
    /// <param name="current">The archive this start uses or will write.</param>
    internal static void Prune(string folder, string current)
    {
        var others = Directory.EnumerateFiles(folder, "*.jsa")
            .Where(f => !string.Equals(f, current, StringComparison.Ordinal))
            .OrderByDescending(File.GetLastWriteTimeUtc)
            .Skip(Kept - 1);
        foreach (var old in others)
        {
            try
            {
                File.Delete(old);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Another user's, or gone meanwhile.
            }
        }
    }

    private static string Stamp(string file)
    {
        var info = new FileInfo(file);
        return info.Exists ? string.Create(CultureInfo.InvariantCulture, $"{info.Length}@{info.LastWriteTimeUtc.Ticks}") : "missing";
    }
}
