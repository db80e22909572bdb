using System.Runtime.InteropServices;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// The configuration librdkafka really runs with: every property, defaults included, as librdkafka itself reports
/// it (<c>rd_kafka_conf_dump</c> and <c>rd_kafka_topic_conf_dump</c>) after the given settings are applied.
/// </summary>
/// <remarks>Confluent.Kafka exposes only the keys that were set; a result must say what every other key defaulted to.</remarks>
internal static unsafe class LibrdkafkaConfigDump
{
    private const int ConfOk = 0;

    /// <summary>Applies <paramref name="settings"/> to a fresh librdkafka configuration and dumps it whole.</summary>
    /// <param name="binding">The loaded library.</param>
    /// <param name="settings">The client's settings; <c>dotnet.*</c> keys (Confluent.Kafka's own) are kept as given.</param>
    /// <returns>Every key with its value, secrets masked, sorted by key.</returns>
    /// <exception cref="ArgumentException">librdkafka rejected a setting; the message names it.</exception>
    public static SortedDictionary<string, string> Effective(LibrdkafkaBinding binding, IEnumerable<KeyValuePair<string, string>> settings)
    {
        var h = binding.Handle;
        var confNew = (delegate* unmanaged<IntPtr>)NativeLibrary.GetExport(h, "rd_kafka_conf_new");
        var confSet = (delegate* unmanaged<IntPtr, byte*, byte*, byte*, nuint, int>)NativeLibrary.GetExport(h, "rd_kafka_conf_set");
        var confDump = (delegate* unmanaged<IntPtr, nuint*, byte**>)NativeLibrary.GetExport(h, "rd_kafka_conf_dump");
        var topicConfDump = (delegate* unmanaged<IntPtr, nuint*, byte**>)NativeLibrary.GetExport(h, "rd_kafka_topic_conf_dump");
        var defaultTopicConf = (delegate* unmanaged<IntPtr, IntPtr>)NativeLibrary.GetExport(h, "rd_kafka_conf_get_default_topic_conf");
        var topicConfNew = (delegate* unmanaged<IntPtr>)NativeLibrary.GetExport(h, "rd_kafka_topic_conf_new");
        var topicConfDestroy = (delegate* unmanaged<IntPtr, void>)NativeLibrary.GetExport(h, "rd_kafka_topic_conf_destroy");
        var dumpFree = (delegate* unmanaged<byte**, nuint, void>)NativeLibrary.GetExport(h, "rd_kafka_conf_dump_free");
        var confDestroy = (delegate* unmanaged<IntPtr, void>)NativeLibrary.GetExport(h, "rd_kafka_conf_destroy");

        var result = new SortedDictionary<string, string>(StringComparer.Ordinal);
        var conf = confNew();
        try
        {
            var error = stackalloc byte[512];
            foreach (var (key, value) in settings)
            {
                if (key.StartsWith("dotnet.", StringComparison.Ordinal))
                {
                    result[key] = value;
                    continue;
                }
                var nativeKey = Marshal.StringToCoTaskMemUTF8(key);
                var nativeValue = Marshal.StringToCoTaskMemUTF8(value);
                try
                {
                    if (confSet(conf, (byte*)nativeKey, (byte*)nativeValue, error, 512) != ConfOk)
                        throw new ArgumentException($"librdkafka rejected {key}={value}: {Marshal.PtrToStringUTF8((IntPtr)error)}");
                }
                finally
                {
                    Marshal.FreeCoTaskMem(nativeKey);
                    Marshal.FreeCoTaskMem(nativeValue);
                }
            }
            // Topic-level first, then global: where both have a key (compression.codec), the topic's default is
            // "inherit", so the global value is the one in effect.
            var topicConf = defaultTopicConf(conf);
            if (topicConf != IntPtr.Zero)
            {
                Read(topicConfDump, topicConf, dumpFree, result);
            }
            else
            {
                topicConf = topicConfNew();
                try
                {
                    Read(topicConfDump, topicConf, dumpFree, result);
                }
                finally
                {
                    topicConfDestroy(topicConf);
                }
            }
            Read(confDump, conf, dumpFree, result);
            // librdkafka reports canonical names (request.required.acks for acks): the names as set are kept beside them.
            foreach (var (key, value) in settings) result.TryAdd(key, IsSecret(key) ? "***" : value);
        }
        finally
        {
            confDestroy(conf);
        }
        return result;
    }

    private static void Read(
        delegate* unmanaged<IntPtr, nuint*, byte**> dump, IntPtr conf, delegate* unmanaged<byte**, nuint, void> free,
        SortedDictionary<string, string> into)
    {
        nuint count;
        var pairs = dump(conf, &count);
        try
        {
            for (nuint i = 0; i + 1 < count; i += 2)
            {
                var key = Marshal.PtrToStringUTF8((IntPtr)pairs[i]) ?? string.Empty;
                var value = Marshal.PtrToStringUTF8((IntPtr)pairs[i + 1]) ?? string.Empty;
                // Callback and pointer slots (socket_cb, default_topic_conf, …) are addresses, not settings.
                if (key.EndsWith("_cb", StringComparison.Ordinal) || key is "default_topic_conf" or "opaque") continue;
                into[key] = IsSecret(key) ? "***" : value;
            }
        }
        finally
        {
            free(pairs, count);
        }
    }

    private static bool IsSecret(string key) =>
        key.Contains("password", StringComparison.OrdinalIgnoreCase) || key.Contains("secret", StringComparison.OrdinalIgnoreCase)
        || key.EndsWith(".key.pem", StringComparison.Ordinal) || key == "sasl.oauthbearer.config";
}
