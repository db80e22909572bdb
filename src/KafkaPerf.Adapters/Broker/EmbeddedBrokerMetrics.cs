using System.Globalization;
using KafkaPerf.Clients;
using KafkaPerf.Clusters;
using KafkaPerf.Measurement;

namespace KafkaPerf.Adapters.Broker;

/// <summary>
/// The embedded broker's request metrics and collections per interval, asked of each node's JVM over its command pipe
/// (<c>metrics</c>: its own MBeans, read on the pipe's reading thread) and summed over the nodes that answer.
/// </summary>
/// <remarks>Each node's figures are running totals (a histogram's count and sum, the JVM's collection time); an interval
/// is the difference from that node's previous answer. An interval in which a serving node did not answer in time (250 ms:
/// paused, or a machine too busy) has no broker figures, and neither has the interval of its next answer, whose
/// difference covers the intervals it missed: a sum over some nodes, or over several intervals, would read as the
/// broker's figure for one interval. A node started again (new process) begins a new count, and its first answer counts
/// as is.</remarks>
internal sealed class EmbeddedBrokerMetrics(EmbeddedKafkaBroker broker) : IBrokerBreakdown
{
    // Produce, FetchConsumer, ShareFetch, each with 6 parts of 2 numbers, then the JVM's collection time and count.
    private const int Requests = 3, Parts = 6, Fields = (Requests * Parts * 2) + 2;

    public IBrokerBreakdownCount NewCount() => new Count(broker);

    private sealed class Count(EmbeddedKafkaBroker broker) : IBrokerBreakdownCount
    {
        private readonly Dictionary<int, (int ProcessId, double[] Totals)> _last = [];
        private readonly HashSet<int> _missed = [];

        public BrokerBreakdown? TakeInterval(TimeSpan wait)
        {
            var nodes = broker.Nodes.Where(n => n.IsServing).ToList();
            var asks = nodes.Select(n => (Node: n, ProcessId: n.ProcessId, Answer: n.AskAsync("metrics", wait, CancellationToken.None))).ToList();
            try
            {
                Task.WaitAll([.. asks.Select(a => a.Answer)], wait + TimeSpan.FromMilliseconds(50));
            }
            catch (AggregateException)
            {
                // A node that did not answer is left out below.
            }
            double[]? sum = null;
            bool first = true, whole = true;
            foreach (var (node, processId, answer) in asks)
            {
                if (!answer.IsCompletedSuccessfully || Parse(answer.Result) is not { } totals)
                {
                    whole = false;
                    _missed.Add(node.NodeId);
                    continue;
                }
                bool known = _last.TryGetValue(node.NodeId, out var previous);
                _last[node.NodeId] = (processId, totals);
                // An answer after a missed one covers more than this interval.
                if (_missed.Remove(node.NodeId) && known && previous.ProcessId == processId) whole = false;
                if (!known) continue;
                first = false;
                sum ??= new double[Fields];
                AddDelta(sum, previous.Totals, totals, restarted: previous.ProcessId != processId);
            }
            if (first || sum is null || !whole) return null;
            return new BrokerBreakdown
            {
                Produce = Times(sum, 0),
                Fetch = Times(sum, 1),
                ShareFetch = Times(sum, 2),
                GcMs = sum[Fields - 2],
                GcCount = (long)sum[Fields - 1],
            };
        }
    }

    /// <summary>Adds one node's figures since its previous answer to <paramref name="sum"/>.</summary>
    /// <remarks>A histogram's count and sum (the last pair: collection time and count) go together. A new JVM, or a count
    /// that fell, starts over; a sum is count × mean, whose rounding can make it a hair smaller than the last one with no
    /// request in between - not a restart (taken for one, it counted the broker's whole history into one interval).</remarks>
    internal static void AddDelta(double[] sum, double[] previous, double[] current, bool restarted)
    {
        for (int i = 0; i < Fields; i += 2)
        {
            int count = i == Fields - 2 ? i + 1 : i, total = i == Fields - 2 ? i : i + 1;
            bool reset = restarted || current[count] < previous[count];
            sum[count] += reset ? current[count] : current[count] - previous[count];
            sum[total] += reset ? current[total] : Math.Max(0, current[total] - previous[total]);
        }
    }

    /// <summary>The mean parts of request kind <paramref name="request"/>: each histogram's sum over its own count.</summary>
    private static BrokerRequestTimes? Times(double[] sum, int request)
    {
        int at = request * Parts * 2;
        double Mean(int part) => sum[at + (part * 2)] > 0 ? sum[at + (part * 2) + 1] / sum[at + (part * 2)] : 0;
        long count = (long)sum[at + ((Parts - 1) * 2)];
        if (count <= 0) return null;
        // Parts: request queue, local, remote, response queue, response send, total.
        return new BrokerRequestTimes(count, Mean(0), Mean(1), Mean(2), Mean(3) + Mean(4), Mean(5));
    }

    internal static double[]? Parse(string answer)
    {
        var words = answer.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (words.Length != Fields) return null;
        var totals = new double[Fields];
        for (int i = 0; i < Fields; i++)
        {
            if (!double.TryParse(words[i], NumberStyles.Float, CultureInfo.InvariantCulture, out totals[i])) return null;
        }
        return totals;
    }
}
