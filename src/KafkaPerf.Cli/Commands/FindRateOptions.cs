using System.CommandLine;
using KafkaPerf.Plans;
using KafkaPerf.Running;

namespace KafkaPerf.Cli.Commands;

/// <summary><c>find-rate</c>'s own options: the latency goal and the search's bounds.</summary>
internal static class FindRateOptions
{
    public static readonly Option<string> Slo = new("--slo") { Description = "The latency goal on response time, e.g. p99<20ms; several: p99<20ms,p99.9<50ms (units ns, us, ms, s).", Required = true };
    public static readonly Option<string> StartRate = new("--start-rate") { Description = "The first rate probed (msg/s; 10k and 1.5M allowed); rates then double until one fails, or halve until one holds.", DefaultValueFactory = _ => "1000" };
    public static readonly Option<string> MaxRate = new("--max-rate") { Description = "No rate above this is probed (msg/s).", DefaultValueFactory = _ => "10M" };
    public static readonly Option<double> Precision = new("--precision") { Description = "Stop when the first failing rate is within this many percent above the last that held.", DefaultValueFactory = _ => 5 };
    public static readonly Option<int> MaxProbes = new("--max-probes") { Description = "The most probes per client and cell.", DefaultValueFactory = _ => 16 };

    /// <summary>The options, in --help's order.</summary>
    public static Option[] All => [Slo, StartRate, MaxRate, Precision, MaxProbes];

    /// <summary>The search's options.</summary>
    /// <param name="parse">The command line.</param>
    /// <returns>The goals and bounds.</returns>
    /// <exception cref="PlanValidationException">Bad input; one line.</exception>
    public static RateSearchOptions Read(ParseResult parse)
    {
        var goals = LatencyGoal.ParseList(parse.GetValue(Slo)!);
        double start = LoadOptions.Rates(parse.GetValue(StartRate)!) is [var s] ? s : throw new PlanValidationException("--start-rate takes one rate, e.g. --start-rate 1000.");
        double max = LoadOptions.Rates(parse.GetValue(MaxRate)!) is [var m] ? m : throw new PlanValidationException("--max-rate takes one rate, e.g. --max-rate 1M.");
        if (!(start > 0) || !(max > 0)) throw new PlanValidationException("--start-rate and --max-rate must be positive rates, e.g. --start-rate 1000 --max-rate 1M.");
        if (max < start) throw new PlanValidationException($"--max-rate {max:0.###} is below --start-rate {start:0.###}: give a larger maximum.");
        double precision = parse.GetValue(Precision);
        if (!(precision > 0 && precision <= 100)) throw new PlanValidationException($"--precision {precision:0.###} is out of range: give a percentage above 0, e.g. 5.");
        int probes = parse.GetValue(MaxProbes);
        if (probes is < 2 or > 100) throw new PlanValidationException($"--max-probes {probes} is out of range: give 2 to 100.");
        return new RateSearchOptions { Goals = goals, StartRate = start, MaxRate = max, Precision = precision / 100, MaxProbes = probes };
    }
}
