namespace KafkaPerf.Adapters.Tests;

internal static class TestPaths
{
    /// <summary>The repository root: the first folder above the test binaries that holds eng/fetch-kafka.sh.</summary>
    public static string RepositoryRoot
    {
        get
        {
            for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            {
                if (File.Exists(Path.Combine(dir.FullName, "eng", "fetch-kafka.sh"))) return dir.FullName;
            }
            throw new InvalidOperationException("The repository root was not found above " + AppContext.BaseDirectory);
        }
    }

    /// <summary>A cancellation token that fails a hung test instead of hanging CI.</summary>
    public static CancellationToken Timeout(int minutes = 3) => new CancellationTokenSource(TimeSpan.FromMinutes(minutes)).Token;
}
