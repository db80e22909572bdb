using System.Runtime.CompilerServices;
using KafkaPerf.Clients;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace KafkaPerf.Cli.Tests.Plugins;

/// <summary>Plugins that must be refused, compiled from a few lines each: a factory whose constructor throws, a client
/// with a built-in client's name, a plugin built against another contract version.</summary>
internal static class BadPlugins
{
    private static readonly MetadataReference[] Framework = [.. ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator)
        .Where(p => Path.GetFileName(p).StartsWith("System.", StringComparison.Ordinal) || Path.GetFileName(p) is "mscorlib.dll" or "netstandard.dll")
        .Select(p => MetadataReference.CreateFromFile(p))];

    private const string Factory = """
        using KafkaPerf.Clients;
        public sealed class BadFactory : IBenchClientFactory
        {
            public BadFactory() { CONSTRUCTOR }
            public string Name => "NAME";
            public string Description => "a bad plugin";
            public bool RequiresBroker => false;
            public IBenchClient Create(KafkaEndpoint endpoint) => throw new System.NotSupportedException();
        }
        """;

    /// <summary>A plugin whose factory's constructor throws.</summary>
    public static string Throwing(string folder) => Compile(folder, "Throwing", Factory.Replace("CONSTRUCTOR", "throw new System.InvalidOperationException(\"no licence key\");").Replace("NAME", "throwing"));

    /// <summary>A plugin whose client is named like a built-in one.</summary>
    public static string NamedLikeABuiltIn(string folder) => Compile(folder, "Clash", Factory.Replace("CONSTRUCTOR", string.Empty).Replace("NAME", "confluent"));

    /// <summary>A plugin built against a KafkaPerf.Core of another contract version: 9.0 (a future one), or 1.0 (whose
    /// factory took the ClientConnection that 2.0 replaced).</summary>
    public static string OtherContract(string folder, string version = "9.0")
    {
        // A stand-in KafkaPerf.Core of that version with just the interface, then the plugin compiled against it.
        var stub = CSharpCompilation.Create("KafkaPerf.Core",
            [CSharpSyntaxTree.ParseText($$"""
                [assembly: System.Reflection.AssemblyVersion("{{version}}.0.0")]
                namespace KafkaPerf.Clients
                {
                    public sealed record ClientConnection(string BootstrapServers);
                    public interface IBenchClientFactory { string Name { get; } object Create(ClientConnection connection); }
                }
                """)], Framework, new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        using var image = new MemoryStream();
        Assert.True(stub.Emit(image).Success);
        var plugin = CSharpCompilation.Create("OtherContract",
            [CSharpSyntaxTree.ParseText("""
                public sealed class Other : KafkaPerf.Clients.IBenchClientFactory
                {
                    public string Name => "other";
                    public object Create(KafkaPerf.Clients.ClientConnection connection) => connection;
                }
                """)],
            [.. Framework, MetadataReference.CreateFromImage(image.ToArray())], new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        return Emit(folder, "OtherContract", plugin);
    }

    private static string Compile(string folder, string name, string source)
    {
        var compilation = CSharpCompilation.Create(name, [CSharpSyntaxTree.ParseText(source)],
            [.. Framework, MetadataReference.CreateFromFile(typeof(IBenchClientFactory).Assembly.Location)],
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        return Emit(folder, name, compilation);
    }

    private static string Emit(string folder, string name, CSharpCompilation compilation, [CallerMemberName] string? _ = null)
    {
        var path = Path.Combine(folder, name + ".dll");
        var emitted = compilation.Emit(path);
        Assert.True(emitted.Success, string.Join("\n", emitted.Diagnostics));
        return path;
    }
}
