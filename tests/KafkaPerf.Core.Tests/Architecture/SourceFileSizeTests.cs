namespace KafkaPerf.Core.Tests.Architecture;

/// <summary>No C# file of the repository (sources, tests, samples, benchmarks) grows past what one reader holds at once:
/// a file over the limit is split by what it holds, not trimmed. The JNI call tables are the one named exception
/// (docs/architecture.md, "What was chosen not to move").</summary>
public class SourceFileSizeTests
{
    private const int MaxLines = 450;

    private static readonly string[] Exceptions = ["src/KafkaPerf.Adapters/Jvm/JniEnv.cs"];

    [Fact]
    public void EveryCSharpFile_AtMost450Lines()
    {
        var root = RoomDependencyTests.RepositoryRoot();

        var over = Files(root)
            .Select(path => (Path: Path.GetRelativePath(root, path).Replace('\\', '/'), Lines: File.ReadLines(path).Count()))
            .Where(f => f.Lines > MaxLines && !Exceptions.Contains(f.Path))
            .Select(f => $"{f.Path}: {f.Lines} lines")
            .ToList();

        Assert.True(over.Count == 0, $"Over {MaxLines} lines (split each by what it holds):\n" + string.Join("\n", over));
    }

    [Fact]
    public void Exceptions_StillExistAndStillNeedToBe()
    {
        var root = RoomDependencyTests.RepositoryRoot();

        // An exception that shrank or went away is taken off the list, so that the list stays the truth.
        Assert.All(Exceptions, path => Assert.True(File.ReadLines(Path.Combine(root, path)).Count() > MaxLines, $"{path} is no longer over {MaxLines} lines"));
    }

    private static IEnumerable<string> Files(string root) =>
        new[] { "src", "tests", "samples", "benchmarks" }
            .Select(folder => Path.Combine(root, folder))
            .Where(Directory.Exists)
            .SelectMany(folder => Directory.EnumerateFiles(folder, "*.cs", SearchOption.AllDirectories))
            .Where(path => !path.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !path.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal));
}
