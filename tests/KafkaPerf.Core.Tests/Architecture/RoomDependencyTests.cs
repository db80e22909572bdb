using System.Text.RegularExpressions;

namespace KafkaPerf.Core.Tests.Architecture;

/// <summary>
/// The rooms of a project (its source folders, sub-folders each a room of their own: <c>Scenarios/Load</c> is the room
/// <c>Scenarios.Load</c>) use each other one way only. A room uses another when one of
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
            ["Clients", "Clusters", "Measurement", "Payloads", "Plans", "Reporting", "Running", "Scenarios", "Statistics", "Telemetry"],
            graph.Rooms.Select(r => r.Split('.')[0]).Distinct().Order(StringComparer.Ordinal));
        Assert.Empty(graph.Uses("Measurement"));
        Assert.Empty(graph.Uses("Statistics"));
        Assert.DoesNotContain("Scenarios", graph.Uses("Clients"));
        // The client contract reaches no further than the endpoint: faults, probes and readiness are the runner's.
        Assert.DoesNotContain("Clusters", graph.Uses("Clients"));
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

    [Fact]
    public void RoomGraph_SeesASubRoomAndItsParentInACircle()
    {
        var folder = Directory.CreateTempSubdirectory("kafkaperf-rooms-");
        try
        {
            // The parent names the sub-room's type by a partial name; the sub-room sees its parent's types without a using.
            Write(folder, "A/One.cs", "namespace KafkaPerf.A;\npublic sealed class One { public Sub.Two? Two { get; init; } }\n");
            Write(folder, "A/Sub/Two.cs", "namespace KafkaPerf.A.Sub;\npublic sealed class Two { public One? One { get; init; } }\n");
            Write(folder, "A/Other/Three.cs", "using KafkaPerf.A.Sub;\nnamespace KafkaPerf.A.Other;\npublic sealed class Three { public Two? Two { get; init; } }\n");

            var graph = RoomGraph.Read(folder.FullName, "KafkaPerf");

            var circle = Assert.Single(graph.Circles());
            Assert.Contains("A -> A.Sub (A/One.cs)", circle, StringComparison.Ordinal);
            Assert.Contains("A.Sub -> A (A/Sub/Two.cs)", circle, StringComparison.Ordinal);
            // A using of the sub-room is a use of the sub-room, not of its parent.
            Assert.Equal(["A.Sub"], graph.Uses("A.Other"));
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
        var types = graph._uses.Keys.ToDictionary(r => r, r => string.Join('|', TypesOf(files, r)), StringComparer.Ordinal);
        foreach (var (fileRoom, path, text) in files)
        {
            var room = fileRoom!;
            var code = Strings().Replace(Comments().Replace(text, string.Empty), "\"\"");
            bool inProject = NamespaceOf(code)?.StartsWith(rootNamespace, StringComparison.Ordinal) == true;
            foreach (var other in graph._uses.Keys.Where(r => r != room))
            {
                // A sub-room's name does not use its parent: KafkaPerf.Scenarios.Load is the room Scenarios.Load.
                var children = graph._uses.Keys.Where(r => r.StartsWith(other + ".", StringComparison.Ordinal)).Select(r => Regex.Escape(r[(other.Length + 1)..].Split('.')[0])).Distinct().ToList();
                var notChild = children.Count == 0 ? string.Empty : $@"(?!\.(?:{string.Join('|', children)})\b)";
                bool uses = Regex.IsMatch(code, $@"(?<![\w.]){Regex.Escape(rootNamespace + "." + other)}\b{notChild}")
                    || (inProject && QualifiedNames(room, other).Any(name => Regex.IsMatch(code, $@"(?<![\w.""]){Regex.Escape(name)}\.(?:\w+\.)*?(?:{types[other]})\b")))
                    // A room inside another sees the types of the rooms around it without a using.
                    || (room.StartsWith(other + ".", StringComparison.Ordinal) && Regex.IsMatch(code, $@"(?<![\w.])(?:{types[other]})\b"));
                if (uses) graph._uses[room].TryAdd(other, path);
            }
        }
        return graph;
    }

    /// <summary>How a file of <paramref name="room"/> may name <paramref name="other"/> by a partial name: in full from the
    /// project's namespace (<c>Scenarios.Load</c>), or from a namespace around both (<c>Load</c> inside <c>Scenarios</c>).</summary>
    private static IEnumerable<string> QualifiedNames(string room, string other)
    {
        yield return other;
        var parts = other.Split('.');
        for (int i = 1; i < parts.Length; i++)
        {
            var around = string.Join('.', parts[..i]);
            if (room == around || room.StartsWith(around + ".", StringComparison.Ordinal)) yield return string.Join('.', parts[i..]);
        }
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

    /// <summary>A file's room is its folder, sub-folders included (<c>Scenarios/Load</c> is the room <c>Scenarios.Load</c>);
    /// the project's top folder is none.</summary>
    private static string? RoomOf(string relative)
    {
        var parts = relative.Replace('\\', '/').Split('/');
        return parts.Length > 1 ? string.Join('.', parts[..^1]) : null;
    }

    private static bool IsBuildOutput(string relative) =>
        relative.StartsWith("bin" + Path.DirectorySeparatorChar, StringComparison.Ordinal) || relative.StartsWith("obj" + Path.DirectorySeparatorChar, StringComparison.Ordinal);

    private static string? NamespaceOf(string code) => NamespaceLine().Match(code) is { Success: true } m ? m.Groups[1].Value : null;

    private static IEnumerable<string> TypesOf(IEnumerable<(string? Room, string Path, string Text)> files, string room) =>
        files.Where(f => f.Room == room).SelectMany(f => TypeDeclaration().Matches(Comments().Replace(f.Text, string.Empty)).Select(m => m.Groups[1].Value)).Distinct(StringComparer.Ordinal).DefaultIfEmpty("(?!)");

    [GeneratedRegex(@"//[^\n]*|/\*.*?\*/", RegexOptions.Singleline)]
    private static partial Regex Comments();

    [GeneratedRegex(@"@?""(?:[^""\\\n]|\\.)*""")]
    private static partial Regex Strings();

    [GeneratedRegex(@"^namespace ([\w.]+);", RegexOptions.Multiline)]
    private static partial Regex NamespaceLine();

    // Declared types only (PascalCase, as every type here): "a record with …" in a string is no type.
    [GeneratedRegex(@"\b(?:class|record|struct|interface|enum)\s+(?:struct\s+|class\s+)?([A-Z]\w*)")]
    private static partial Regex TypeDeclaration();
}
