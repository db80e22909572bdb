using KafkaPerf.Clients;
using KafkaPerf.Measurement;

namespace KafkaPerf.Scenarios;

/// <summary>
/// Produce: keys are ordinals 0..N-1, the payload is prebuilt, and the timed section runs from the first send
/// through the final flush. Where the client reports acknowledgements per record, send→ack latency is recorded too.
/// </summary>
public sealed class ProduceScenario : IScenario
{
    private const int CancellationCheckMask = (1 << 16) - 1;

    /// <inheritdoc />
    public ScenarioKind Kind => ScenarioKind.Produce;

    /// <inheritdoc />
    public RunMeasurement Run(ScenarioContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        var clock = context.Clock;
        bool trackLatency = context.Client.Capabilities.HasFlag(ClientCapabilities.DeliveryLatency);
        var deliveries = new DeliveryCounter(clock, context.MessageCount, trackLatency);
        using var producer = context.Client.CreateProducer(new ProducerSpec(context.Topic, context.Settings), deliveries);

        var counters = ClientCounters.Start(context);
        long start = clock.GetTimestamp();
        SendOrdinals(producer, context.MessageCount, context.Payload, deliveries, cancellationToken);
        producer.Flush(cancellationToken);
        long end = clock.GetTimestamp();
        var (perMessage, resources) = counters.Stop(context.MessageCount);

        long delivered = deliveries.Delivered;
        return new RunMeasurement
        {
            ElapsedSeconds = new TickConverter(clock.Frequency).ToSeconds(end - start),
            Sent = context.MessageCount,
            Delivered = delivered,
            Lost = Math.Max(0, context.MessageCount - delivered),
            Latency = deliveries.Latency,
            LatencySampleStride = deliveries.SampleStride,
            Error = deliveries.DescribeShortfall(context.MessageCount, "produce"),
            ProducerConfig = producer.EffectiveConfig,
            CountersPerMessage = perMessage,
            Resources = resources,
        };
    }

    /// <summary>The send loop shared by every scenario that sends ordinal keys.</summary>
    /// <param name="deliveries">Notes the send time of the timed keys when it tracks latency.</param>
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
