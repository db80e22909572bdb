using System.Globalization;

namespace KafkaPerf.Clients;

/// <summary>Building a client's configuration as an ordered list of <c>key=value</c> pairs, where a later value of a key
/// replaces the earlier one: the parity tables of every client adapter apply their knobs, then the overrides.</summary>
public static class ConfigList
{
    /// <summary>Sets a key, replacing any earlier value.</summary>
    /// <param name="config">The configuration.</param>
    /// <param name="key">The key.</param>
    /// <param name="value">Its value.</param>
    public static void Set(this List<KeyValuePair<string, string>> config, string key, string value)
    {
        ArgumentNullException.ThrowIfNull(config);
        config.RemoveAll(pair => pair.Key == key);
        config.Add(new(key, value));
    }

    /// <summary>Sets a key to a whole number, written invariantly.</summary>
    /// <param name="config">The configuration.</param>
    /// <param name="key">The key.</param>
    /// <param name="value">Its value.</param>
    public static void Set(this List<KeyValuePair<string, string>> config, string key, int value) =>
        config.Set(key, value.ToString(CultureInfo.InvariantCulture));

    /// <summary>Applies the client's own <c>key=value</c> overrides last, so they win over the common knobs.</summary>
    /// <param name="config">The configuration.</param>
    /// <param name="settings">The settings whose overrides apply.</param>
    /// <returns><paramref name="config"/>.</returns>
    public static List<KeyValuePair<string, string>> WithOverrides(this List<KeyValuePair<string, string>> config, ClientSettings settings)
    {
        ArgumentNullException.ThrowIfNull(config);
        ArgumentNullException.ThrowIfNull(settings);
        foreach (var (key, value) in settings.Overrides) config.Set(key, value);
        return config;
    }
}
