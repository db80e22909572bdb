using KafkaPerf.Tests.Shared;

namespace KafkaPerf.Testing.Tests;

/// <summary>
/// Every C# block of README.md and docs/**/*.md (fenced <c>```csharp</c>, <c>```cs</c> or <c>```c#</c>) compiles as
/// shown, with Roslyn, against the framework and the assemblies in this test's output folder (KafkaPerf.Core, .Adapters,
/// .Testing, xUnit v3, Confluent.Kafka), nullable enabled, with no error and no warning.
/// <para>A block may leave out only the usings that <c>ImplicitUsings</c> gives a project that <c>dotnet new</c>
/// creates (<see cref="DocSnippet.ImplicitUsings"/>: System, System.Collections.Generic, System.IO, System.Linq,
/// System.Net.Http, System.Threading, System.Threading.Tasks); every other namespace, Xunit's and KafkaPerf's
/// included, is in the block's own usings.</para>
/// <para>A block is a whole file (top-level statements compile as a console application, a class as a library)
/// unless the line before its fence (blank lines aside) is a marker, <c>&lt;!-- snippet: KIND --&gt;</c>:</para>
/// <list type="bullet">
/// <item><c>fragment</c>: statements, compiled as the body of <c>public static async Task Fragment(CancellationToken
/// cancellationToken, KafkaBrokerFixture broker)</c> in a class; they may use those two.</item>
/// <item><c>members</c>: members shown out of their class, compiled inside <c>public partial class Snippet { … }</c>.</item>
/// <item><c>whole</c>: the default, said out loud.</item>
/// </list>
/// <para>Using directives at the top of a fragment or members block stay at file level. An unknown marker, or one not
/// right before a C# block, fails <see cref="Markers_AreKnownAndEachIsRightBeforeACSharpBlock"/>. docs/library.md
/// says the same for readers.</para>
/// </summary>
public class DocSnippetTests
{
    private static readonly Lazy<(IReadOnlyList<DocSnippet> Snippets, IReadOnlyList<string> MarkerProblems)> Found =
        new(() => DocSnippet.FindAll(ExternalProcess.RepositoryRoot()));

    /// <summary>One case per block, named by its file and line.</summary>
    public static TheoryData<string> Blocks() => [.. Found.Value.Snippets.Select(s => s.Id)];

    [Theory]
    [MemberData(nameof(Blocks))]
    public void Snippet_AsShown_Compiles(string block)
    {
        var snippet = Found.Value.Snippets.Single(s => s.Id == block);

        var diagnostics = snippet.Compile();

        Assert.True(diagnostics.Count == 0, $"{block} ({snippet.Marker ?? DocSnippet.Whole}) does not compile:\n{string.Join('\n', diagnostics)}");
    }

    [Fact]
    public void Snippets_InTheReadmeAndTheLibraryDoc_AreFound()
    {
        // A broken extractor must not pass by finding nothing.
        var files = Found.Value.Snippets.Select(s => s.File).ToHashSet();

        Assert.Contains("README.md", files);
        Assert.Contains("docs/library.md", files);
        Assert.All(Found.Value.Snippets, s => Assert.False(string.IsNullOrWhiteSpace(s.Code), $"{s.Id} is empty"));
    }

    [Fact]
    public void Markers_AreKnownAndEachIsRightBeforeACSharpBlock()
    {
        Assert.True(Found.Value.MarkerProblems.Count == 0, string.Join('\n', Found.Value.MarkerProblems));
    }

    [Fact]
    public void Compile_AFragmentUsingTheStatedLocals_HasNoDiagnostics()
    {
        var fragment = new DocSnippet("docs/x.md", 10, DocSnippet.Fragment, """
            using KafkaPerf.Clusters;

            ClusterConnection connection = broker.Connection;
            await Task.Delay(1, cancellationToken);
            """);

        Assert.Empty(fragment.Compile());
    }

    [Fact]
    public void Compile_MembersWithoutTheirUsing_FailsOnTheMarkdownLine()
    {
        // The members' attribute needs 'using Xunit;': the diagnostic names the block's own line in the Markdown file.
        var members = new DocSnippet("docs/x.md", 10, DocSnippet.Members, """
            [Fact]
            public void Works() { }
            """);

        var diagnostics = members.Compile();

        Assert.Contains(diagnostics, d => d.StartsWith("docs/x.md:11: CS0246", StringComparison.Ordinal));
    }

    [Fact]
    public void FindAll_UnknownOrStrayMarker_IsAProblem()
    {
        var root = Directory.CreateTempSubdirectory("kafkaperf-snippets-").FullName;
        try
        {
            Directory.CreateDirectory(Path.Combine(root, "docs"));
            File.WriteAllText(Path.Combine(root, "README.md"), "<!-- snippet: fragmnet -->\n```csharp\nvar x = 1;\n```\n");
            File.WriteAllText(Path.Combine(root, "docs", "a.md"), "<!-- snippet: fragment -->\nprose\n\n```cs\nvar y = 2;\n```\n");

            var (snippets, problems) = DocSnippet.FindAll(root);

            Assert.Equal(["README.md:2", "docs/a.md:4"], snippets.Select(s => s.Id));
            Assert.Null(snippets[1].Marker);
            Assert.Contains(problems, p => p.StartsWith("README.md:1: unknown snippet marker 'fragmnet'", StringComparison.Ordinal));
            Assert.Contains(problems, p => p.StartsWith("docs/a.md:1: the marker 'fragment' is not right before", StringComparison.Ordinal));
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }
}
