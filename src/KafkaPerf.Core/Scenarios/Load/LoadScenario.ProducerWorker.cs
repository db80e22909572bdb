using System.Diagnostics;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Scenarios.Load;

/// <content>One producer of a load run, on a thread of its own.</content>
public sealed partial class LoadScenario
{
    /// <content>Its producers.</content>
    private sealed partial class LoadRun
    {
        /// <summary>One producer on a thread of its own: it creates the client's producer, waits for the start, sends its
        /// share of the records on the schedule, flushes, and disposes the producer when the run is over (a Java producer
        /// must be used and disposed on the thread that created it).</summary>
        private sealed class ProducerWorker(LoadRun run, int index, LoadDeliverySink sink, long records)
        {
            private Thread? _thread;

            public int Index => index;

            public LoadDeliverySink Sink => sink;

            public LoadCounter Sent { get; } = LoadState.Add(run._state.SentCounters);

            public ManualResetEventSlim Ready { get; } = new();

            public ManualResetEventSlim Done { get; } = new();

            public Exception? Error { get; private set; }

            public IReadOnlyDictionary<string, string>? Config { get; private set; }

            /// <summary>When the last record was handed to the client.</summary>
            public long LastSendAt { get; private set; }

            public void Start()
            {
                _thread = new Thread(Work) { IsBackground = true, Name = $"kafkaperf-producer-{index + 1}" };
                _thread.Start();
            }

            public bool Join(TimeSpan timeout) => _thread is null || _thread.Join(timeout);

            private void Work()
            {
                IBenchProducer? producer = null;
                try
                {
                    PreciseWait.PrepareThread();
                    producer = run._context.CreateProducer(sink, run.Token, breakdown: run._state.Breakdown ? run._state.AddBreakdownSource : null);
                    Config = producer.EffectiveConfig;
                    Ready.Set();
                    run._start.Wait(run.Token);
                    run.Token.ThrowIfCancellationRequested();
                    if (records > 0)
                    {
                        if (run._schedule.IsRate) SendOnSchedule(producer);
                        else SendBurst(producer);
                    }
                    LastSendAt = run._state.Clock.GetTimestamp();
                    producer.Flush(run.Token);
                }
                catch (Exception ex)
                {
                    Error = ex;
                    // A producer that fails stops the others: the run's result is decided.
                    if (ex is not OperationCanceledException) run._stop.Cancel();
                }
                finally
                {
                    Ready.Set();
                    Done.Set();
                    if (producer is not null)
                    {
                        try
                        {
                            run._release.Wait();
                        }
                        finally
                        {
                            producer.Dispose();
                        }
                    }
                }
            }

            private void SendOnSchedule(IBenchProducer producer)
            {
                var schedule = run._schedule;
                var state = run._state;
                var clock = state.Clock;
                var ring = state.Ring;
                var payload = run._context.Payload;
                var token = run.Token;
                bool stopwatch = clock is StopwatchClock;
                int step = run._producers.Count;
                long total = schedule.TotalRecords;
                long sent = 0;
                for (long record = index; record < total; record += step)
                {
                    long due = schedule.DueAt(record);
                    long now = clock.GetTimestamp();
                    if (now < due)
                    {
                        // Nothing may wait in the adapter while the schedule waits.
                        producer.SendBuffered();
                        if (stopwatch) PreciseWait.Until(due, token);
                        else WaitOn(clock, due, token);
                        now = clock.GetTimestamp();
                    }
                    if (schedule.IsTimed(record))
                    {
                        ring.Set(record, now);
                        state.SendDelay.RecordClamped(state.Ticks.ToNanoseconds(now - due));
                    }
                    producer.Send(record, payload);
                    Sent.IncrementSingleWriter();
                    if ((++sent & CancellationCheckMask) == 0) token.ThrowIfCancellationRequested();
                }
            }

            private void SendBurst(IBenchProducer producer)
            {
                var schedule = run._schedule;
                var clock = run._state.Clock;
                var ring = run._state.Ring;
                var payload = run._context.Payload;
                var token = run.Token;
                int step = run._producers.Count;
                long total = schedule.TotalRecords;
                long sent = 0;
                // Nothing is sent before the measured section starts (the origin, a moment after every producer is ready):
                // records sent earlier would be outside its time, and a fast client could finish before it began.
                if (clock.GetTimestamp() < schedule.Start)
                {
                    if (clock is StopwatchClock) PreciseWait.Until(schedule.Start, token);
                    else WaitOn(clock, schedule.Start, token);
                }
                for (long record = index; record < total; record += step)
                {
                    if (schedule.IsTimed(record)) ring.Set(record, clock.GetTimestamp());
                    producer.Send(record, payload);
                    Sent.IncrementSingleWriter();
                    if ((++sent & CancellationCheckMask) == 0) token.ThrowIfCancellationRequested();
                }
            }

            /// <summary>Waits on a clock that is not the stopwatch (a test's): spins on it, yielding.</summary>
            private static void WaitOn(IClock clock, long due, CancellationToken token)
            {
                while (clock.GetTimestamp() < due)
                {
                    token.ThrowIfCancellationRequested();
                    Thread.Yield();
                }
            }
        }
    }
}
