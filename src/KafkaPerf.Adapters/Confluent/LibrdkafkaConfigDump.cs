using System.Reflection;
using System.Runtime.InteropServices;
using Confluent.Kafka;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// The configuration librdkafka really runs with: every property, defaults included, as librdkafka itself reports
/// it (<c>rd_kafka_conf_dump</c> and <c>rd_kafka_topic_conf_dump</c>) for a live client handle, so that what
/// <c>rd_kafka_new</c> settled (e.g. the producer's <c>allow.auto.create.topics</c>) is what the result shows.
/// </summary>
/// <remarks>Confluent.Kafka exposes only the keys that were set. Its handle's native pointer is internal, so it is
/// read by reflection; if that ever fails, the settings are applied to a fresh configuration and dumped instead.</remarks>
internal static unsafe class LibrdkafkaConfigDump
{
    private const int ConfOk = 0;
    private static readonly PropertyInfo? NativeHandle =
        typeof(Handle).GetProperty("LibrdkafkaHandle", BindingFlags.NonPublic | BindingFlags.Instance);

    // Substrings of the names of the properties librdkafka marks sensitive: never written into a result.
    /// <summary>Dumps a client's configuration.</summary>
    /// <param name="binding">The loaded library.</param>
    /// <param name="settings">The settings the client was built with; <c>dotnet.*</c> keys (Confluent.Kafka's own) and
    /// the names as set (librdkafka reports canonical ones, e.g. <c>request.required.acks</c> for <c>acks</c>) are added.</param>
    /// <param name="handle">The client's handle.</param>
    /// <returns>Every key with its value, secrets masked, sorted by key.</returns>
    public static SortedDictionary<string, string> Effective(LibrdkafkaBinding binding, IReadOnlyList<KeyValuePair<string, string>> settings, Handle handle)
    {
        var api = new Api(binding.Handle);
        var result = new SortedDictionary<string, string>(StringComparer.Ordinal);
        if (NativeHandle?.GetValue(handle) is SafeHandle { IsInvalid: false } safe)
        {
            bool added = false;
            safe.DangerousAddRef(ref added);
            try
            {
                ReadLive(api, safe.DangerousGetHandle(), result);
            }
            finally
            {
                if (added) safe.DangerousRelease();
            }
        }
        else
        {
            Fresh(api, settings, result);
        }
        foreach (var (key, value) in settings) result.TryAdd(key, KafkaSecurity.IsSecret(key) ? KafkaSecurity.Hidden : value);
        return result;
    }

    /// <summary>Dumps the configuration of a client created through librdkafka's C API directly (<c>rd_kafka_new</c>), as
    /// the <c>librdkafka</c> client's are.</summary>
    /// <param name="binding">The loaded library.</param>
    /// <param name="settings">The settings the client was built with; the names as set are added.</param>
    /// <param name="nativeHandle">The client's <c>rd_kafka_t</c>.</param>
    /// <returns>Every key with its value, secrets masked, sorted by key.</returns>
    public static SortedDictionary<string, string> Effective(LibrdkafkaBinding binding, IReadOnlyList<KeyValuePair<string, string>> settings, IntPtr nativeHandle)
    {
        var result = new SortedDictionary<string, string>(StringComparer.Ordinal);
        ReadLive(new Api(binding.Handle), nativeHandle, result);
        foreach (var (key, value) in settings) result.TryAdd(key, KafkaSecurity.IsSecret(key) ? KafkaSecurity.Hidden : value);
        return result;
    }

    private static void ReadLive(Api api, IntPtr nativeHandle, SortedDictionary<string, string> result)
    {
        var conf = api.ConfOf(nativeHandle);
        Read(api.TopicConfDump, api.DefaultTopicConf(conf), api.DumpFree, result);
        Read(api.ConfDump, conf, api.DumpFree, result);
    }

    /// <summary>The configuration of a client built from <paramref name="settings"/> without a Confluent.Kafka handle
    /// (librdkafka's share consumer): the settings applied to a fresh configuration and dumped.</summary>
    /// <param name="binding">The loaded library.</param>
    /// <param name="settings">The settings.</param>
    /// <returns>Every key with its value, secrets masked, sorted by key.</returns>
    public static SortedDictionary<string, string> Effective(LibrdkafkaBinding binding, IReadOnlyList<KeyValuePair<string, string>> settings)
    {
        var result = new SortedDictionary<string, string>(StringComparer.Ordinal);
        Fresh(new Api(binding.Handle), settings, result);
        foreach (var (key, value) in settings) result.TryAdd(key, KafkaSecurity.IsSecret(key) ? KafkaSecurity.Hidden : value);
        return result;
    }

    /// <summary>A new librdkafka configuration with every setting applied; the caller owns it.</summary>
    /// <param name="binding">The loaded library.</param>
    /// <param name="settings">The settings (<c>dotnet.*</c> keys are skipped).</param>
    /// <returns>The <c>rd_kafka_conf_t</c>.</returns>
    /// <exception cref="ArgumentException">librdkafka rejects a setting.</exception>
    public static IntPtr NewConf(LibrdkafkaBinding binding, IReadOnlyList<KeyValuePair<string, string>> settings)
    {
        var api = new Api(binding.Handle);
        var conf = api.ConfNew();
        var error = stackalloc byte[512];
        foreach (var (key, value) in settings)
        {
            if (key.StartsWith("dotnet.", StringComparison.Ordinal)) continue;
            if (Set(api, conf, key, value, error) is { } rejected)
            {
                api.ConfDestroy(conf);
                throw new ArgumentException(rejected);
            }
        }
        return conf;
    }

    /// <summary>Destroys a configuration that no client took over.</summary>
    /// <param name="binding">The loaded library.</param>
    /// <param name="conf">The configuration.</param>
    public static void DestroyConf(LibrdkafkaBinding binding, IntPtr conf) => new Api(binding.Handle).ConfDestroy(conf);

    /// <summary>librdkafka's <c>builtin.features</c> (codecs, SASL mechanisms, TLS, …) as the library reports them.</summary>
    /// <param name="library">The loaded library's handle.</param>
    /// <returns>The comma-separated list; empty when it cannot be read.</returns>
    public static string BuiltinFeatures(IntPtr library)
    {
        if (library == IntPtr.Zero || !NativeLibrary.TryGetExport(library, "rd_kafka_conf_get", out var get)) return string.Empty;
        var api = new Api(library);
        var conf = api.ConfNew();
        try
        {
            var name = "builtin.features\0"u8;
            nuint size = 1024;
            var buffer = stackalloc byte[(int)size];
            fixed (byte* key = name)
            {
                return ((delegate* unmanaged[Cdecl]<IntPtr, byte*, byte*, nuint*, int>)get)(conf, key, buffer, &size) == ConfOk
                    ? Marshal.PtrToStringUTF8((IntPtr)buffer) ?? string.Empty
                    : string.Empty;
            }
        }
        finally
        {
            api.ConfDestroy(conf);
        }
    }

    /// <summary>Checks that librdkafka accepts every setting, without creating a client.</summary>
    /// <param name="binding">The loaded library.</param>
    /// <param name="settings">The settings; <c>dotnet.*</c> keys are Confluent.Kafka's and are not checked here.</param>
    /// <returns><see langword="null"/> when all are accepted; otherwise librdkafka's reason for the first one it rejects.</returns>
    public static string? Check(LibrdkafkaBinding binding, IReadOnlyList<KeyValuePair<string, string>> settings)
    {
        var api = new Api(binding.Handle);
        var conf = api.ConfNew();
        try
        {
            var error = stackalloc byte[512];
            foreach (var (key, value) in settings)
            {
                if (key.StartsWith("dotnet.", StringComparison.Ordinal)) continue;
                if (Set(api, conf, key, value, error) is { } rejected) return rejected;
            }
            return null;
        }
        finally
        {
            api.ConfDestroy(conf);
        }
    }

    private static string? Set(Api api, IntPtr conf, string key, string value, byte* error)
    {
        var nativeKey = Marshal.StringToCoTaskMemUTF8(key);
        var nativeValue = Marshal.StringToCoTaskMemUTF8(value);
        try
        {
            return api.ConfSet(conf, (byte*)nativeKey, (byte*)nativeValue, error, 512) == ConfOk
                ? null
                : $"librdkafka rejects {key}={value}: {Marshal.PtrToStringUTF8((IntPtr)error)}";
        }
        finally
        {
            Marshal.FreeCoTaskMem(nativeKey);
            Marshal.FreeCoTaskMem(nativeValue);
        }
    }

    /// <summary>Applies the settings to a fresh configuration and dumps it (what rd_kafka_new may still adjust is not seen).</summary>
    private static void Fresh(Api api, IReadOnlyList<KeyValuePair<string, string>> settings, SortedDictionary<string, string> result)
    {
        var conf = api.ConfNew();
        try
        {
            var error = stackalloc byte[512];
            foreach (var (key, value) in settings)
            {
                if (key.StartsWith("dotnet.", StringComparison.Ordinal)) continue;
                if (Set(api, conf, key, value, error) is { } rejected) throw new ArgumentException(rejected);
            }
            // Topic-level first, then global: where both have a key (compression.codec), the topic's default is
            // "inherit", so the global value is the one in effect.
            var topicConf = api.DefaultTopicConf(conf);
            if (topicConf != IntPtr.Zero)
            {
                Read(api.TopicConfDump, topicConf, api.DumpFree, result);
            }
            else
            {
                topicConf = api.TopicConfNew();
                try
                {
                    Read(api.TopicConfDump, topicConf, api.DumpFree, result);
                }
                finally
                {
                    api.TopicConfDestroy(topicConf);
                }
            }
            Read(api.ConfDump, conf, api.DumpFree, result);
        }
        finally
        {
            api.ConfDestroy(conf);
        }
    }

    private static void Read(
        delegate* unmanaged[Cdecl]<IntPtr, nuint*, byte**> dump, IntPtr conf, delegate* unmanaged[Cdecl]<byte**, nuint, void> free,
        SortedDictionary<string, string> into)
    {
        if (conf == IntPtr.Zero) return;
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
                into[key] = KafkaSecurity.IsSecret(key) ? KafkaSecurity.Hidden : value;
            }
        }
        finally
        {
            free(pairs, count);
        }
    }

    /// <summary>The librdkafka functions used here, from the loaded library.</summary>
    private readonly struct Api(IntPtr library)
    {
        public readonly delegate* unmanaged[Cdecl]<IntPtr> ConfNew = (delegate* unmanaged[Cdecl]<IntPtr>)NativeLibrary.GetExport(library, "rd_kafka_conf_new");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, byte*, byte*, byte*, nuint, int> ConfSet = (delegate* unmanaged[Cdecl]<IntPtr, byte*, byte*, byte*, nuint, int>)NativeLibrary.GetExport(library, "rd_kafka_conf_set");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, nuint*, byte**> ConfDump = (delegate* unmanaged[Cdecl]<IntPtr, nuint*, byte**>)NativeLibrary.GetExport(library, "rd_kafka_conf_dump");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, nuint*, byte**> TopicConfDump = (delegate* unmanaged[Cdecl]<IntPtr, nuint*, byte**>)NativeLibrary.GetExport(library, "rd_kafka_topic_conf_dump");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr> DefaultTopicConf = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr>)NativeLibrary.GetExport(library, "rd_kafka_conf_get_default_topic_conf");
        public readonly delegate* unmanaged[Cdecl]<IntPtr> TopicConfNew = (delegate* unmanaged[Cdecl]<IntPtr>)NativeLibrary.GetExport(library, "rd_kafka_topic_conf_new");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, void> TopicConfDestroy = (delegate* unmanaged[Cdecl]<IntPtr, void>)NativeLibrary.GetExport(library, "rd_kafka_topic_conf_destroy");
        public readonly delegate* unmanaged[Cdecl]<byte**, nuint, void> DumpFree = (delegate* unmanaged[Cdecl]<byte**, nuint, void>)NativeLibrary.GetExport(library, "rd_kafka_conf_dump_free");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, void> ConfDestroy = (delegate* unmanaged[Cdecl]<IntPtr, void>)NativeLibrary.GetExport(library, "rd_kafka_conf_destroy");
        public readonly delegate* unmanaged[Cdecl]<IntPtr, IntPtr> ConfOf = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr>)NativeLibrary.GetExport(library, "rd_kafka_conf");
    }
}
