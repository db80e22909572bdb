namespace KafkaPerf.Cli.Tests.Plugins;

/// <summary>The repository's folder, for tests that read or write its files.</summary>
internal static class RepositoryFiles
{
    /// <summary>The folder that holds KafkaPerf.sln.</summary>
    public static string Root { get; } = Find();

    private static string Find()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, "KafkaPerf.sln"))) return dir.FullName;
        throw new InvalidOperationException("The repository root (KafkaPerf.sln) is not above the test's folder.");
    }
}
