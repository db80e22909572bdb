using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>
/// Produce: keys are ordinals 0..N-1, the payload is prebuilt, and the timed section runs from the first send
/// through the final flush. Where the client reports acknowledgements per record, send→ack latency is recorded too.
/// Nothing is read back, so nothing is counted lost: records the broker did not acknowledge fail the run, as
/// <see cref="RunRecord.Sent"/> − <see cref="RunRecord.Delivered"/>.
/// </summary>
public sealed class ProduceScenario : IScenario
{
    private const int CancellationCheckMask = (1 << 16) - 1;

    /// <inheritdoc />
    public ScenarioKind Kind => ScenarioKind.Produce;

    /// <inheritdoc />
    public RunRecord Run(ScenarioContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        var clock = context.Clock;
        bool trackLatency = context.Client.Capabilities.HasFlag(ClientCapabilities.DeliveryLatency);
        var deliveries = new DeliveryCounter(clock, context.MessageCount, trackLatency);
        using var watch = new StallWatch(context.StallTimeout, cancellationToken);
        watch.Watch("creating the producer", static () => 0);
        IBenchProducer producer;
        using var breakdown = BurstBreakdown.For(context);
        try
        {
            producer = context.CreateProducer(deliveries, watch.Token, breakdown: breakdown is null ? null : breakdown.Add);
        }
        catch (Exception ex) when (Interrupted(ex, watch, cancellationToken))
        {
            ThrowIfCancelled(ex, cancellationToken);
            return Stalled(watch, "no record sent", context.MessageCount);
        }
        using (producer)
        {
            breakdown?.Start();
            var counters = ClientCounters.Start(context);
            long start = clock.GetTimestamp();
            if (SendAndFlush(producer, context.MessageCount, context.Payload, deliveries, watch, cancellationToken) is { } stall)
                return Stalled(watch, stall, context.MessageCount, deliveries.Delivered);
            long end = clock.GetTimestamp();
            var (perMessage, resources) = counters.Stop(context.MessageCount);
            breakdown?.Stop();

            long delivered = deliveries.Delivered;
            return new RunRecord
            {
                ElapsedSeconds = new TickConverter(clock.Frequency).ToSeconds(end - start),
                Sent = context.MessageCount,
                Delivered = delivered,
                LatencyHistogram = deliveries.Latency,
                LatencySampleStride = deliveries.SampleStride,
                Error = deliveries.DescribeShortfall(context.MessageCount, "produce"),
                ProducerConfig = producer.EffectiveConfig,
                CountersPerMessage = perMessage,
                Resources = resources,
                Breakdown = breakdown?.Result,
            };
        }
    }

    /// <summary>Sends keys 0..count-1 and flushes, watched: a send or a flush that sees no acknowledgement for the stall
    /// timeout is ended through the producer's cancellation token.</summary>
    /// <returns><see langword="null"/> when every record was sent and the flush returned; otherwise how far it got.</returns>
    /// <exception cref="OperationCanceledException">The run was cancelled.</exception>
    internal static string? SendAndFlush(IBenchProducer producer, long count, ReadOnlyMemory<byte> payload, DeliveryCounter deliveries,
        StallWatch watch, CancellationToken cancellationToken)
    {
        try
        {
            watch.Watch("sending", () => deliveries.Delivered + deliveries.Failed);
            SendOrdinals(producer, count, payload, deliveries, watch.Token);
            watch.Watch("flushing", () => deliveries.Delivered + deliveries.Failed);
            producer.Flush(watch.Token);
            watch.Idle();
            return null;
        }
        catch (Exception ex) when (Interrupted(ex, watch, cancellationToken))
        {
            ThrowIfCancelled(ex, cancellationToken);
            return $"{deliveries.Delivered} of {count} records acknowledged";
        }
    }

    /// <summary>Whether <paramref name="ex"/> is how a client's blocking call ended because the watch fired or the run was
    /// cancelled (an <see cref="OperationCanceledException"/> of the run's own token passes through untouched). The catch
    /// block then calls <see cref="ThrowIfCancelled"/> first: a filter must not throw.</summary>
    internal static bool Interrupted(Exception ex, StallWatch watch, CancellationToken cancellationToken) =>
        cancellationToken.IsCancellationRequested ? ex is not OperationCanceledException : watch.Stalled is not null;

    /// <summary>Throws <see cref="OperationCanceledException"/> for the run's cancellation, whatever the client threw.</summary>
    internal static void ThrowIfCancelled(Exception ex, CancellationToken cancellationToken)
    {
        if (cancellationToken.IsCancellationRequested) throw new OperationCanceledException("The run was cancelled.", ex, cancellationToken);
    }

    private static RunRecord Stalled(StallWatch watch, string detail, long count, long delivered = 0) => new()
    {
        ElapsedSeconds = double.NaN,
        Sent = count,
        Delivered = delivered,
        Error = watch.Describe(detail),
    };

    /// <summary>The send loop shared by every scenario that sends ordinal keys.</summary>
    /// <param name="producer">The producer.</param>
    /// <param name="count">How many records: keys 0 to count - 1.</param>
    /// <param name="payload">Every record's value.</param>
    /// <param name="deliveries">Notes the send time of the timed keys when it tracks latency.</param>
    /// <param name="cancellationToken">Ends the loop between two sends.</param>
    internal static void SendOrdinals(
        IBenchProducer producer, long count, ReadOnlyMemory<byte> payload, DeliveryCounter deliveries, CancellationToken cancellationToken)
    {
        if (!deliveries.TracksLatency)
        {
            for (long key = 0; key < count; key++)
            {
                if ((key & CancellationCheckMask) == 0) cancellationToken.ThrowIfCancellationRequested();
                producer.Send(key, payload);
            }
        }
        else
        {
            for (long key = 0; key < count; key++)
            {
                if ((key & CancellationCheckMask) == 0) cancellationToken.ThrowIfCancellationRequested();
                deliveries.OnSending(key);
                producer.Send(key, payload);
            }
        }
    }
}
