using System.Runtime.CompilerServices;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace KafkaPerf.Reporting.Exporters;

/// <summary>The JSON form of results: camelCase names, enums as strings, NaN written as "NaN".</summary>
public static class ResultJson
{
    /// <summary>The serializer options every reader and writer of result files uses.</summary>
    public static JsonSerializerOptions Options { get; } = new(JsonSerializerDefaults.Web)
    {
        WriteIndented = true,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
        Converters = { new JsonStringEnumConverter(JsonNamingPolicy.CamelCase) },
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        // Result files are read by people and tools, never embedded in HTML: ' and non-ASCII stay as written.
        Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    // A result is immutable: the .json file, the results store and the tests ask for the same text, which is serialized
    // once per result (the text lives as long as the result does).
    private static readonly ConditionalWeakTable<BenchmarkResult, string> Written = [];

    /// <summary>A result as the .json file holds it: indented, with \n line ends and a last \n; what a results store keeps.</summary>
    /// <param name="result">The result.</param>
    /// <returns>The text; serialized once per result, however often it is asked for.</returns>
    public static string Write(BenchmarkResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return Written.GetValue(result, r => JsonSerializer.Serialize(r, Options).ReplaceLineEndings("\n") + "\n");
    }

    /// <summary>Reads a result from its JSON text.</summary>
    /// <param name="json">The text.</param>
    /// <param name="source">What to call it in an error.</param>
    /// <returns>The result.</returns>
    /// <exception cref="InvalidDataException">The text is not a KafkaPerf result.</exception>
    public static BenchmarkResult Parse(string json, string source)
    {
        try
        {
            return JsonSerializer.Deserialize<BenchmarkResult>(json, Options) ?? throw new InvalidDataException($"'{source}' holds no result.");
        }
        catch (JsonException ex)
        {
            throw new InvalidDataException($"'{source}' is not a KafkaPerf JSON result: {ex.Message}", ex);
        }
    }

    /// <summary>Reads a result file. A checkpoint (<c>inProgress</c>) is read with the runs appended beside it since it was
    /// written (<see cref="CheckpointLog"/>): every run a killed process had finished.</summary>
    /// <param name="path">The file.</param>
    /// <returns>The result.</returns>
    /// <exception cref="InvalidDataException">The file is not a KafkaPerf result; the message says why.</exception>
    public static BenchmarkResult Read(string path)
    {
        try
        {
            BenchmarkResult result;
            using (var stream = File.OpenRead(path))
                result = JsonSerializer.Deserialize<BenchmarkResult>(stream, Options) ?? throw new InvalidDataException($"'{path}' holds no result.");
            var lines = CheckpointLog.PathFor(path);
            return result.InProgress && File.Exists(lines) ? CheckpointLog.Fold(result, lines) : result;
        }
        catch (JsonException ex)
        {
            throw new InvalidDataException($"'{path}' is not a KafkaPerf JSON result: {ex.Message}", ex);
        }
    }
}
