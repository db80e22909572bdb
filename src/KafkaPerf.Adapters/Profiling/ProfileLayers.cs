using System.Text.RegularExpressions;

namespace KafkaPerf.Adapters.Profiling;

/// <summary>
/// The layer a sampled frame belongs to, from the file its code came from (<c>perf</c>'s DSO) and, for code the .NET JIT
/// compiled, the assembly of the method's type in its <c>/tmp/perf-PID.map</c> name.
/// </summary>
internal static partial class ProfileLayers
{
    public const string Librdkafka = "librdkafka";
    public const string ConfluentKafka = "Confluent.Kafka";
    public const string KafkaPerf = "KafkaPerf";
    public const string DotNetLibraries = ".NET libraries";
    public const string DotNetRuntime = ".NET runtime and GC";
    public const string Jvm = "JVM";
    public const string UnnamedCode = "unnamed JIT code";
    public const string SystemLibraries = "C and system libraries";
    public const string Kernel = "kernel";
    public const string Other = "other";

    /// <summary>Every layer, in the order reports show them: from the wire up to the code that calls the client.</summary>
    public static readonly IReadOnlyList<string> All =
        [Kernel, SystemLibraries, Librdkafka, Jvm, UnnamedCode, DotNetRuntime, DotNetLibraries, ConfluentKafka, KafkaPerf, Other];

    /// <summary>The layer of one frame.</summary>
    /// <param name="symbol">The symbol as <c>perf script</c> printed it (<c>[unknown]</c> when it has none).</param>
    /// <param name="dso">The file, as <c>perf script</c> printed it between parentheses.</param>
    public static string Of(string symbol, string dso)
    {
        if (dso.Contains("kernel.kallsyms", StringComparison.Ordinal) || dso.StartsWith('[') && dso.Contains("vdso", StringComparison.Ordinal)) return Kernel;
        var file = Path.GetFileName(dso);
        if (file.Contains("librdkafka", StringComparison.Ordinal)) return Librdkafka;
        if (dso.StartsWith("/tmp/perf-", StringComparison.Ordinal) && dso.EndsWith(".map", StringComparison.Ordinal))
            return symbol == "[unknown]" ? UnnamedCode : OfManaged(symbol);
        if (file.EndsWith(".dll", StringComparison.OrdinalIgnoreCase))
            return file.StartsWith("Confluent.Kafka", StringComparison.Ordinal) ? ConfluentKafka
                : file.StartsWith("KafkaPerf", StringComparison.Ordinal) ? KafkaPerf
                : DotNetLibraries;
        if (file.StartsWith("libcoreclr", StringComparison.Ordinal) || file.StartsWith("libclrjit", StringComparison.Ordinal)
            || file.StartsWith("libclrgc", StringComparison.Ordinal) || file.StartsWith("libSystem.", StringComparison.Ordinal)
            || file.StartsWith("libhostfxr", StringComparison.Ordinal) || file.StartsWith("libhostpolicy", StringComparison.Ordinal)
            || file == "dotnet" || file.StartsWith("dotnet-kafkaperf", StringComparison.Ordinal)) return DotNetRuntime;
        if (dso.Contains("/jvm/", StringComparison.Ordinal) || file.StartsWith("libjvm", StringComparison.Ordinal)) return Jvm;
        if (file.StartsWith("lib", StringComparison.Ordinal) || file.StartsWith("ld-linux", StringComparison.Ordinal)) return SystemLibraries;
        return dso is "[unknown]" or "" ? UnnamedCode : Other;
    }

    /// <summary>A JIT-compiled method's layer, from the assembly of its type: <c>instance void [Confluent.Kafka]
    /// Confluent.Kafka.Producer`2[…]::Produce(…)[OptimizedTier1]</c>.</summary>
    private static string OfManaged(string symbol)
    {
        var match = DeclaringAssembly().Match(symbol);
        if (!match.Success)
            return symbol.Contains("IL_STUB", StringComparison.Ordinal) || symbol.StartsWith("stub<", StringComparison.Ordinal) ? DotNetRuntime : DotNetLibraries;
        var assembly = match.Groups[1].Value;
        return assembly.StartsWith("Confluent.Kafka", StringComparison.Ordinal) ? ConfluentKafka
            : assembly.StartsWith("KafkaPerf", StringComparison.Ordinal) ? KafkaPerf
            : DotNetLibraries;
    }

    /// <summary>A frame's short name for the folded stacks: a JIT-compiled method as <c>Type::Method</c> (no return type, no
    /// parameters, no tier); a native frame as its symbol, or its file when it has none.</summary>
    /// <param name="symbol">The symbol as <c>perf script</c> printed it.</param>
    /// <param name="dso">The file.</param>
    public static string ShortName(string symbol, string dso)
    {
        if (symbol == "[unknown]") return dso is "[unknown]" or "" ? "[unknown]" : $"[{Path.GetFileName(dso)}]";
        var match = DeclaringAssembly().Match(symbol);
        var name = match.Success ? match.Groups[2].Value + "::" + match.Groups[3].Value : symbol;
        // ';' separates frames and ' ' ends them in a folded line.
        return name.Replace(';', ',').Replace(' ', '_');
    }

    [GeneratedRegex(@"\[([^\]\s]+)\] ([^\s\[\(]+(?:\[[^\]]*\])?)::([^\(\s]+)")]
    private static partial Regex DeclaringAssembly();
}
