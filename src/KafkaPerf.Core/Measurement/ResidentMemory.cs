using System.Globalization;

namespace KafkaPerf.Measurement;

/// <summary>This process's resident memory (RSS): what the .NET heap cannot show, such as a native library's buffers
/// (librdkafka's queues) or an in-process JVM's heap.</summary>
public static class ResidentMemory
{
    private static readonly long PageBytes = Environment.SystemPageSize;

    /// <summary>Resident bytes now, from <c>/proc/self/statm</c>; <see langword="null"/> where the system has no such file.</summary>
    /// <returns>The bytes.</returns>
    /// <remarks>Allocates (a file read, tens of microseconds): read at the edges of a timed section, outside the readings of
    /// CPU time and allocated bytes.</remarks>
    public static long? Now()
    {
        try
        {
            var fields = File.ReadAllText("/proc/self/statm").Split(' ', 3);
            return fields.Length >= 2 && long.TryParse(fields[1], NumberStyles.None, CultureInfo.InvariantCulture, out var pages) ? pages * PageBytes : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
