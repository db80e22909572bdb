namespace KafkaPerf.Adapters;

/// <summary>Files and folders that only this user can read: configurations that hold passwords, keystores.</summary>
public static class PrivateFile
{
    private const UnixFileMode FileMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
    private const UnixFileMode FolderMode = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;

    /// <summary>Writes (or replaces) a UTF-8 file, without a byte-order mark, created readable by its owner only.</summary>
    /// <param name="path">The file.</param>
    /// <param name="text">Its content.</param>
    public static void Write(string path, string text)
    {
        var options = new FileStreamOptions { Mode = System.IO.FileMode.Create, Access = FileAccess.Write };
        if (!OperatingSystem.IsWindows()) options.UnixCreateMode = FileMode;
        using var writer = new StreamWriter(path, new System.Text.UTF8Encoding(false), options);
        writer.Write(text);
    }

    /// <summary>Writes <c>key=value</c> lines.</summary>
    /// <param name="path">The file.</param>
    /// <param name="properties">The lines.</param>
    public static void WriteProperties(string path, IEnumerable<KeyValuePair<string, string>> properties) =>
        Write(path, string.Concat(properties.Select(p => $"{p.Key}={p.Value}\n")));

    /// <summary>Makes a folder readable by its owner only (it may exist already).</summary>
    /// <param name="folder">The folder.</param>
    public static void RestrictFolder(string folder)
    {
        Directory.CreateDirectory(folder);
        if (!OperatingSystem.IsWindows()) File.SetUnixFileMode(folder, FolderMode);
    }
}
