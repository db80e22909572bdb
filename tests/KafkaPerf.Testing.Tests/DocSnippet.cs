using System.Collections.Immutable;
using System.Reflection.PortableExecutable;
using System.Text;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace KafkaPerf.Testing.Tests;

/// <summary>One C# fenced block of README.md or docs/**/*.md, and how it is compiled: see
/// <see cref="DocSnippetTests"/> for the rules.</summary>
/// <param name="File">The Markdown file, relative to the repository root, with forward slashes.</param>
/// <param name="Line">The 1-based line of the opening fence.</param>
/// <param name="Marker">The marker on the line before the fence (<c>&lt;!-- snippet: KIND --&gt;</c>), or null.</param>
/// <param name="Code">The block's text, without its fences.</param>
internal sealed partial record DocSnippet(string File, int Line, string? Marker, string Code)
{
    /// <summary>A block compiled as a whole file: top-level statements make it a console application.</summary>
    public const string Whole = "whole";

    /// <summary>The body of a method: <c>static async Task Fragment(CancellationToken cancellationToken,
    /// KafkaBrokerFixture broker) { … }</c> in a class.</summary>
    public const string Fragment = "fragment";

    /// <summary>Members of a class: <c>public partial class Snippet { … }</c>.</summary>
    public const string Members = "members";

    /// <summary>The namespaces <c>ImplicitUsings</c> imports in a console or class library project, as
    /// <c>dotnet new</c> creates one: the only usings a snippet may leave out.</summary>
    public static readonly ImmutableArray<string> ImplicitUsings =
        ["System", "System.Collections.Generic", "System.IO", "System.Linq", "System.Net.Http", "System.Threading", "System.Threading.Tasks"];

    /// <summary>Where the block is: <c>docs/library.md:30</c>.</summary>
    public string Id => $"{File}:{Line}";

    /// <summary>Every C# block of README.md and docs/**/*.md under <paramref name="root"/>, and every problem with a
    /// marker (an unknown kind, or a marker with no C# block right after it).</summary>
    public static (IReadOnlyList<DocSnippet> Snippets, IReadOnlyList<string> MarkerProblems) FindAll(string root)
    {
        var files = new[] { Path.Combine(root, "README.md") }
            .Concat(Directory.EnumerateFiles(Path.Combine(root, "docs"), "*.md", SearchOption.AllDirectories).Order(StringComparer.Ordinal));
        var snippets = new List<DocSnippet>();
        var problems = new List<string>();
        foreach (var path in files)
        {
            var relative = Path.GetRelativePath(root, path).Replace('\\', '/');
            var lines = System.IO.File.ReadAllLines(path);
            string? fence = null;
            bool csharp = false;
            int start = 0;
            (string Kind, int Line)? marker = null;
            for (int i = 0; i < lines.Length; i++)
            {
                var line = lines[i].Trim();
                if (fence is not null)
                {
                    // A fence closes with at least as many of its characters and nothing else.
                    if (line.Length >= fence.Length && line.StartsWith(fence, StringComparison.Ordinal) && line.TrimEnd(fence[0]).Length == 0)
                    {
                        if (csharp)
                            snippets.Add(new DocSnippet(relative, start + 1, marker?.Kind, string.Join('\n', lines[(start + 1)..i])));
                        fence = null;
                        marker = null;
                    }
                    continue;
                }
                if (Opening().Match(line) is { Success: true } open)
                {
                    fence = open.Groups["fence"].Value;
                    csharp = open.Groups["lang"].Value.ToLowerInvariant() is "csharp" or "cs" or "c#";
                    start = i;
                    if (marker is { } m && !csharp) problems.Add($"{relative}:{m.Line + 1}: the marker '{m.Kind}' is not right before a C# block");
                    continue;
                }
                if (marker is { } stray && line.Length > 0)
                {
                    problems.Add($"{relative}:{stray.Line + 1}: the marker '{stray.Kind}' is not right before a C# block");
                    marker = null;
                }
                if (MarkerLine().Match(line) is { Success: true } found)
                {
                    var kind = found.Groups["kind"].Value;
                    if (kind is not (Fragment or Members or Whole))
                        problems.Add($"{relative}:{i + 1}: unknown snippet marker '{kind}' (known: {Fragment}, {Members}, {Whole})");
                    marker = (kind, i);
                }
            }
            if (fence is not null) problems.Add($"{relative}:{start + 1}: a fence that never closes");
        }
        return (snippets, problems);
    }

    /// <summary>The source the compiler sees: the block as it is, or wrapped as its marker says, with <c>#line</c>
    /// directives so that every diagnostic names the Markdown file's own line.</summary>
    public string Source()
    {
        if (Marker is not (null or Whole or Fragment or Members))
            throw new InvalidOperationException($"{Id}: unknown snippet marker '{Marker}' (known: {Fragment}, {Members}, {Whole})");
        var text = new StringBuilder();
        if (Marker is null or Whole)
        {
            text.Append(LineDirective(Line + 1)).Append(Code).Append('\n');
            return text.ToString();
        }
        // Using directives at the top of a fragment or a member list are the snippet's own: they stay at file level.
        var lines = Code.Split('\n');
        int body = 0;
        while (body < lines.Length && UsingOrBlank().IsMatch(lines[body])) body++;
        text.Append(LineDirective(Line + 1)).AppendJoin('\n', lines[..body]).Append('\n');
        text.Append("#line hidden\n");
        text.Append(Marker == Fragment
            ? "public static class Snippet\n{\n    public static async global::System.Threading.Tasks.Task Fragment(global::System.Threading.CancellationToken cancellationToken, global::KafkaPerf.Testing.KafkaBrokerFixture broker)\n    {\n        await global::System.Threading.Tasks.Task.CompletedTask;\n"
            : "public partial class Snippet\n{\n");
        text.Append(LineDirective(Line + 1 + body)).AppendJoin('\n', lines[body..]).Append('\n');
        text.Append("#line hidden\n").Append(Marker == Fragment ? "    }\n}\n" : "}\n");
        return text.ToString();
    }

    /// <summary>Compiles the block against the framework and every assembly beside this test (KafkaPerf's, xUnit's,
    /// Confluent.Kafka's) and returns its errors and warnings, each as <c>FILE:LINE: ID message</c>.</summary>
    public IReadOnlyList<string> Compile()
    {
        var parse = new CSharpParseOptions(LanguageVersion.Latest);
        var tree = CSharpSyntaxTree.ParseText(Source(), parse, path: Id);
        var usings = CSharpSyntaxTree.ParseText(string.Concat(ImplicitUsings.Select(u => $"global using global::{u};\n")), parse, path: "ImplicitUsings.g.cs");
        // Top-level statements need an entry point: an application; a class (a test class, members) is a library.
        bool statements = tree.GetCompilationUnitRoot().Members.Any(m => m is Microsoft.CodeAnalysis.CSharp.Syntax.GlobalStatementSyntax);
        var options = new CSharpCompilationOptions(statements ? OutputKind.ConsoleApplication : OutputKind.DynamicallyLinkedLibrary,
            nullableContextOptions: NullableContextOptions.Enable);
        var compilation = CSharpCompilation.Create("Snippet", [usings, tree], References.Value, options);
        using var output = new MemoryStream();
        var emitted = compilation.Emit(output);
        return [.. emitted.Diagnostics
            .Where(d => d.Severity >= DiagnosticSeverity.Warning)
            .Select(d => (Where: d.Location.GetMappedLineSpan(), Diagnostic: d))
            .OrderBy(d => d.Where.StartLinePosition.Line)
            .Select(d => $"{d.Where.Path}:{d.Where.StartLinePosition.Line + 1}: {d.Diagnostic.Id} {d.Diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture)}")];
    }

    private string LineDirective(int line) => $"#line {line} \"{File}\"\n";

    // The framework's assemblies from the runtime's own folder (the trusted platform list also names the test's
    // dependencies), then every managed assembly in the test's output folder.
    private static readonly Lazy<ImmutableArray<MetadataReference>> References = new(() =>
    {
        var runtime = Path.GetDirectoryName(typeof(object).Assembly.Location)!;
        var framework = ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator)
            .Where(p => string.Equals(Path.GetDirectoryName(p), runtime, StringComparison.Ordinal));
        var local = Directory.EnumerateFiles(AppContext.BaseDirectory, "*.dll").Where(IsManaged);
        return [.. framework.Concat(local)
            .GroupBy(Path.GetFileName, StringComparer.OrdinalIgnoreCase)
            .Select(g => (MetadataReference)MetadataReference.CreateFromFile(g.First()))];
    });

    private static bool IsManaged(string path)
    {
        using var stream = System.IO.File.OpenRead(path);
        using var reader = new PEReader(stream);
        return reader.HasMetadata;
    }

    [GeneratedRegex(@"^(?<fence>`{3,}|~{3,})\s*(?<lang>[^\s`]*)")]
    private static partial Regex Opening();

    [GeneratedRegex(@"^<!--\s*snippet:\s*(?<kind>\S*)\s*-->$")]
    private static partial Regex MarkerLine();

    [GeneratedRegex(@"^\s*(using\s+(?!var\b)(static\s+)?[\w.]+(\s*=\s*[\w.<>,\s]+)?;\s*(//.*)?|//.*)?$")]
    private static partial Regex UsingOrBlank();
}
