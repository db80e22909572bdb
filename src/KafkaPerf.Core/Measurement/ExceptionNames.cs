namespace KafkaPerf.Measurement;

/// <summary>How a run's error names an exception.</summary>
internal static class ExceptionNames
{
    /// <summary>An exception's type without generic arity (ProduceException, not ProduceException`2).</summary>
    /// <param name="ex">The exception.</param>
    /// <returns>Its type's name.</returns>
    internal static string TypeName(Exception ex)
    {
        var name = ex.GetType().Name;
        int tick = name.IndexOf('`', StringComparison.Ordinal);
        return tick < 0 ? name : name[..tick];
    }
}
