using System.Text.RegularExpressions;

namespace KafkaPerf.Core.Tests.Architecture;

/// <summary>
/// The rooms of a project (its top-level source folders) use each other one way only. A room uses another when one of
/// its files names it: a <c>using</c> directive, a fully qualified name, or a name qualified by the room
/// (<c>Plans.BenchmarkPlan</c> inside <c>KafkaPerf.Running</c>). Read from the source text, so the rule holds for the next
/// change too: a change that closes a circle fails here, naming the files that close it.
/// </summary>
public class RoomDependencyTests
{
    [Theory]
    [InlineData("src/KafkaPerf.Core", "KafkaPerf")]
    [InlineData("src/KafkaPerf.Adapters", "KafkaPerf.Adapters")]
    public void Rooms_UseEachOtherOneWayOnly(string project, string rootNamespace)
    {
        var graph = RoomGraph.Read(Path.Combine(RepositoryRoot(), project), rootNamespace);

        var circles = graph.Circles();

        Assert.True(circles.Count == 0, $"Rooms of {project} use each other in a circle:\n" + string.Join("\n", circles));
    }

    [Fact]
    public void Core_HasTheRoomsItsArchitectureNames()
    {
        var graph = RoomGraph.Read(Path.Combine(RepositoryRoot(), "src/KafkaPerf.Core"), "KafkaPerf");

        // docs/architecture.md describes these rooms and this order; a new room is added there too.
        Assert.Equal(
            ["Clients", "Measurement", "Payloads", "Plans", "Reporting", "Running", "Scenarios", "Statistics", "Telemetry"],
            graph.Rooms.Order(StringComparer.Ordinal));
        Assert.Empty(graph.Uses("Measurement"));
        Assert.Empty(graph.Uses("Statistics"));
        Assert.DoesNotContain("Scenarios", graph.Uses("Clients"));
        Assert.DoesNotContain("Running", graph.Uses("Reporting"));
    }

    [Fact]
    public void RoomGraph_FindsACircleThroughUsingsAndQualifiedNames()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-rooms-");
        try
        {
            Write(folder, "A/One.cs", "using KafkaPerf.B;\nnamespace KafkaPerf.A;\npublic sealed class One { }\n");
            Write(folder, "B/Two.cs", "namespace KafkaPerf.B;\npublic sealed class Two { public C.Three? Three { get; init; } }\n");
            Write(folder, "C/Three.cs", "namespace KafkaPerf.C;\npublic sealed class Three { public KafkaPerf.A.One? One { get; init; } }\n");
            Write(folder, "D/Four.cs", "namespace KafkaPerf.D;\npublic sealed class Four { public Clients.Where? X { get; init; } }\n");

            var graph = RoomGraph.Read(folder.FullName, "KafkaPerf");

            var circle = Assert.Single(graph.Circles());
            Assert.Contains("A -> B (A/One.cs)", circle, StringComparison.Ordinal);
            Assert.Contains("B -> C (B/Two.cs)", circle, StringComparison.Ordinal);
            Assert.Contains("C -> A (C/Three.cs)", circle, StringComparison.Ordinal);
            Assert.Empty(graph.Uses("D"));
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    private static void Write(DirectoryInfo folder, string path, string text)
    {
        var file = new FileInfo(Path.Combine(folder.FullName, path));
        file.Directory!.Create();
        File.WriteAllText(file.FullName, text);
    }

    internal static string RepositoryRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, "KafkaPerf.sln"))) return dir.FullName;
        throw new InvalidOperationException("The repository root (KafkaPerf.sln) is not above the test's folder.");
    }
}

/// <summary>Which room's files name which other rooms, read from source text.</summary>
internal sealed partial class RoomGraph
{
    private readonly Dictionary<string, Dictionary<string, string>> _uses = new(StringComparer.Ordinal);

    public IReadOnlyCollection<string> Rooms => _uses.Keys;

    /// <summary>The rooms <paramref name="room"/> uses.</summary>
    public IReadOnlyCollection<string> Uses(string room) => _uses.TryGetValue(room, out var uses) ? uses.Keys : [];

    public static RoomGraph Read(string projectFolder, string rootNamespace)
    {
        var graph = new RoomGraph();
        var files = Directory.EnumerateFiles(projectFolder, "*.cs", SearchOption.AllDirectories)
            .Where(f => !IsBuildOutput(Path.GetRelativePath(projectFolder, f)))
            .Select(f => (Room: RoomOf(Path.GetRelativePath(projectFolder, f)), Path: Path.GetRelativePath(projectFolder, f).Replace('\\', '/'), Text: File.ReadAllText(f)))
            .Where(f => f.Room is not null)
            .ToList();
        foreach (var room in files.Select(f => f.Room!).Distinct()) graph._uses[room] = new(StringComparer.Ordinal);
        var prefix = rootNamespace + ".";
        foreach (var (fileRoom, path, text) in files)
        {
            var room = fileRoom!;
            var code = Comments().Replace(text, string.Empty);
            foreach (var other in graph._uses.Keys.Where(r => r != room))
            {
                bool uses = Regex.IsMatch(code, $@"(?<![\w.]){Regex.Escape(prefix + other)}\b")
                    || (NamespaceOf(code)?.StartsWith(rootNamespace, StringComparison.Ordinal) == true
                        && Regex.IsMatch(code, $@"(?<![\w.""]){Regex.Escape(other)}\.(?:\w+\.)*?(?:{string.Join('|', TypesOf(files, other))})\b"));
                if (uses) graph._uses[room].TryAdd(other, path);
            }
        }
        return graph;
    }

    /// <summary>Every circle, as its edges with the first file that makes each.</summary>
    public IReadOnlyList<string> Circles()
    {
        var circles = new List<string>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var start in _uses.Keys.Order(StringComparer.Ordinal))
        {
            var path = new List<string>();
            Walk(start, start, path, new HashSet<string>(StringComparer.Ordinal), circles, seen);
        }
        return circles;
    }

    private void Walk(string start, string room, List<string> path, HashSet<string> onPath, List<string> circles, HashSet<string> seen)
    {
        path.Add(room);
        onPath.Add(room);
        foreach (var (next, file) in _uses[room])
        {
            if (next == start)
            {
                var rooms = path.Append(start).ToList();
                // Each circle once, from its smallest room.
                var key = string.Join(">", Rotate(path));
                if (seen.Add(key))
                    circles.Add(string.Join(", ", rooms.Zip(rooms.Skip(1), (a, b) => $"{a} -> {b} ({_uses[a][b]})")));
            }
            else if (!onPath.Contains(next) && string.CompareOrdinal(next, start) > 0)
            {
                Walk(start, next, path, onPath, circles, seen);
            }
        }
        path.RemoveAt(path.Count - 1);
        onPath.Remove(room);
    }

    private static IEnumerable<string> Rotate(List<string> path)
    {
        int first = path.IndexOf(path.Min(StringComparer.Ordinal)!);
        return path.Skip(first).Concat(path.Take(first));
    }

    private static string? RoomOf(string relative)
    {
        var parts = relative.Replace('\\', '/').Split('/');
        return parts.Length > 1 ? parts[0] : null;
    }

    private static bool IsBuildOutput(string relative) =>
        relative.StartsWith("bin" + Path.DirectorySeparatorChar, StringComparison.Ordinal) || relative.StartsWith("obj" + Path.DirectorySeparatorChar, StringComparison.Ordinal);

    private static string? NamespaceOf(string code) => NamespaceLine().Match(code) is { Success: true } m ? m.Groups[1].Value : null;

    private static IEnumerable<string> TypesOf(IEnumerable<(string? Room, string Path, string Text)> files, string room) =>
        files.Where(f => f.Room == room).SelectMany(f => TypeDeclaration().Matches(f.Text).Select(m => m.Groups[1].Value)).Distinct(StringComparer.Ordinal).DefaultIfEmpty("(?!)");

    [GeneratedRegex(@"//[^\n]*|/\*.*?\*/", RegexOptions.Singleline)]
    private static partial Regex Comments();

    [GeneratedRegex(@"^namespace ([\w.]+);", RegexOptions.Multiline)]
    private static partial Regex NamespaceLine();

    [GeneratedRegex(@"\b(?:class|record|struct|interface|enum)\s+(?:struct\s+|class\s+)?(\w+)")]
    private static partial Regex TypeDeclaration();
}
