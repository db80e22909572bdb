using KafkaPerf.Reporting;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Running;

/// <summary>What one checkpoint adds to a result: the runs that ended since the previous checkpoint, and the rest of the
/// result as it is now (plan, environment, clients, warnings, flags) without runs, cells or comparisons. Both are as large
/// at the last run of a plan as at the first, so that keeping a result safe costs the same at run 10 and run 10 000.</summary>
/// <param name="Added">The runs that ended since the previous checkpoint, in order.</param>
/// <param name="Rest">The result's other parts now; its <see cref="BenchmarkResult.Runs"/>, <see cref="BenchmarkResult.Cells"/>
/// and <see cref="BenchmarkResult.Comparisons"/> are empty. <see cref="ResultSummarizer.Complete"/> makes a whole result of it
/// and every run so far.</param>
public sealed record ResultIncrement(IReadOnlyList<RunRecord> Added, BenchmarkResult Rest);
