using System.Globalization;
using System.Net;

namespace KafkaPerf.Adapters.Network;

/// <summary>
/// Which process opened a loopback connection, on Linux: the connecting socket is found in <c>/proc/net/tcp</c> by its
/// two ports, and its inode among the descriptors of the candidate processes. Every node's links to a peer come through
/// the same proxy from the same address, so this is how a partition tells one node's links from another's.
/// </summary>
/// <remarks>Asked once per accepted peer connection (a handful per cluster), never per byte.</remarks>
internal static class LoopbackOwner
{
    /// <summary>Of <paramref name="candidates"/>, the process whose socket is connected from <paramref name="remote"/>
    /// to <paramref name="local"/> (the accepted socket's two ends); <see langword="null"/> when none is, or off Linux.</summary>
    internal static int? Find(IPEndPoint remote, IPEndPoint local, IEnumerable<int> candidates)
    {
        if (!OperatingSystem.IsLinux() || Inode(remote.Port, local.Port) is not { } inode) return null;
        var link = $"socket:[{inode.ToString(CultureInfo.InvariantCulture)}]";
        foreach (int pid in candidates)
        {
            try
            {
                foreach (var fd in Directory.EnumerateFileSystemEntries($"/proc/{pid}/fd"))
                {
                    if (new FileInfo(fd).LinkTarget == link) return pid;
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // The process ended meanwhile, or is not ours to read.
            }
        }
        return null;
    }

    /// <summary>The inode of the socket whose local port is <paramref name="localPort"/> and remote port
    /// <paramref name="remotePort"/> (both on loopback).</summary>
    private static long? Inode(int localPort, int remotePort)
    {
        string local = ":" + localPort.ToString("X4", CultureInfo.InvariantCulture);
        string remote = ":" + remotePort.ToString("X4", CultureInfo.InvariantCulture);
        // A JVM's sockets are IPv6 ones by default, its connections to 127.0.0.1 listed as ::ffff:127.0.0.1 in tcp6.
        foreach (var table in new[] { "/proc/net/tcp", "/proc/net/tcp6" })
        {
            if (Inode(table, local, remote) is { } inode) return inode;
        }
        return null;
    }

    private static long? Inode(string table, string local, string remote)
    {
        try
        {
            foreach (var line in File.ReadLines(table).Skip(1))
            {
                // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
                var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
                if (fields.Length > 9 && fields[1].EndsWith(local, StringComparison.Ordinal) && fields[2].EndsWith(remote, StringComparison.Ordinal)
                    && long.TryParse(fields[9], NumberStyles.None, CultureInfo.InvariantCulture, out long inode) && inode != 0)
                    return inode;
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }
        return null;
    }
}
