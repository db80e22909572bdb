using System.Reflection;
using System.Runtime.InteropServices;
using Confluent.Kafka;

namespace KafkaPerf.Adapters.Confluent;

/// <summary>
/// Ends a wait of librdkafka's on a queue at once (<c>rd_kafka_queue_yield</c>), so that closing a client does not wait
/// for a poll to run out: Confluent.Kafka's producers and admin clients poll on a thread of their own in 100 ms waits, and
/// their <c>Dispose</c> cancels that thread and then waits for it, up to 100 ms after every run's work is done (the
/// confluent runs spent 0.1 s a run there, twice for a producer prepared with an admin client); the consumers' poll thread
/// is the adapter's own, waiting in <c>Consume</c> for up to its poll timeout.
/// </summary>
/// <remarks>The producer's and admin client's cancellation and queue are internal to Confluent.Kafka, so they are read by
/// reflection (as <see cref="LibrdkafkaConfigDump"/> reads the handle); if that ever fails, <c>Dispose</c> is called as it
/// is and waits as it did. Nothing changes while a client works: the wait is ended only once it is being closed.</remarks>
internal static unsafe class PollWakeup
{
    private const BindingFlags Private = BindingFlags.NonPublic | BindingFlags.Instance;

    private static readonly PropertyInfo? NativeHandle = typeof(Handle).GetProperty("LibrdkafkaHandle", Private);

    /// <summary>Disposes a Confluent.Kafka producer without waiting for its poll thread's current wait to run out.</summary>
    /// <param name="producer">The producer; its handle is its own.</param>
    public static void DisposeProducer(IClient producer)
    {
        // The poll thread serves the client's main queue (delivery reports, errors, statistics).
        using (OnCancel(producer, "callbackCts", () => YieldMain(producer.Handle)))
            producer.Dispose();
    }

    /// <summary>Disposes a Confluent.Kafka admin client (its own or one on another client's handle) without waiting for its
    /// poll threads' current waits to run out. An admin client on another client's handle is disposed before that client.</summary>
    /// <param name="admin">The admin client.</param>
    public static void DisposeAdmin(IAdminClient admin)
    {
        // The poll thread waits on the admin client's result queue, a queue of its own; an admin client with a handle of its
        // own holds it in a producer, whose poll thread is then disposed the same way.
        var resultQueue = admin.GetType().GetField("resultQueue", Private)?.GetValue(admin) is IntPtr queue ? queue : IntPtr.Zero;
        var owned = admin.GetType().GetField("ownedClient", Private)?.GetValue(admin) as IClient;
        using (OnCancel(admin, "callbackCts", () => Yield(resultQueue)))
        using (owned is null ? default : OnCancel(owned, "callbackCts", () => YieldMain(owned.Handle)))
            admin.Dispose();
    }

    /// <summary>Ends the current (or next) wait of a consumer's <c>Consume</c>, which then returns nothing, as after its
    /// timeout. Call it after telling the poll loop to stop and before joining its thread.</summary>
    /// <param name="consumer">The consumer, not yet closed.</param>
    public static void WakeConsumer(IClient consumer)
    {
        if (Api.Instance is not { } api) return;
        WithNative(consumer.Handle, rk =>
        {
            var queue = api.QueueGetConsumer(rk);
            if (queue == IntPtr.Zero) return;
            api.QueueYield(queue);
            api.QueueDestroy(queue);
        });
    }

    /// <summary>Runs <paramref name="action"/> within the <c>Cancel</c> of the client's own cancellation (its poll thread's),
    /// before its <c>Dispose</c> starts waiting for that thread; nothing when the field is not found.</summary>
    private static CancellationTokenRegistration OnCancel(object client, string field, Action action) =>
        client.GetType().GetField(field, Private)?.GetValue(client) is CancellationTokenSource { IsCancellationRequested: false } source
            ? source.Token.Register(() =>
            {
                try
                {
                    action();
                }
                catch (Exception ex) when (ex is not OutOfMemoryException)
                {
                    // The wait then runs out by itself, as without this.
                }
            })
            : default;

    private static void YieldMain(Handle handle)
    {
        if (Api.Instance is not { } api) return;
        WithNative(handle, rk =>
        {
            var queue = api.QueueGetMain(rk);
            if (queue == IntPtr.Zero) return;
            api.QueueYield(queue);
            api.QueueDestroy(queue);
        });
    }

    private static void Yield(IntPtr queue)
    {
        if (queue != IntPtr.Zero && Api.Instance is { } api) api.QueueYield(queue);
    }

    /// <summary>Runs <paramref name="action"/> with the client's <c>rd_kafka_t</c>, held alive meanwhile.</summary>
    private static void WithNative(Handle handle, Action<IntPtr> action)
    {
        if (NativeHandle?.GetValue(handle) is not SafeHandle { IsInvalid: false, IsClosed: false } safe) return;
        bool added = false;
        try
        {
            safe.DangerousAddRef(ref added);
            action(safe.DangerousGetHandle());
        }
        catch (ObjectDisposedException)
        {
            // Closed meanwhile: nothing waits on it any more.
        }
        finally
        {
            if (added) safe.DangerousRelease();
        }
    }

    /// <summary>The queue functions, from the library Confluent.Kafka runs on; <see langword="null"/> when it lacks one.</summary>
    private sealed class Api
    {
        public static readonly Api? Instance = Load();

        public delegate* unmanaged[Cdecl]<IntPtr, IntPtr> QueueGetMain;
        public delegate* unmanaged[Cdecl]<IntPtr, IntPtr> QueueGetConsumer;
        public delegate* unmanaged[Cdecl]<IntPtr, void> QueueYield;
        public delegate* unmanaged[Cdecl]<IntPtr, void> QueueDestroy;

        private static Api? Load()
        {
            IntPtr library;
            try
            {
                library = ConfluentNativeLibrary.EnsureLoaded().Handle;
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                return null;
            }
            if (library == IntPtr.Zero
                || !NativeLibrary.TryGetExport(library, "rd_kafka_queue_get_main", out var main)
                || !NativeLibrary.TryGetExport(library, "rd_kafka_queue_get_consumer", out var consumer)
                || !NativeLibrary.TryGetExport(library, "rd_kafka_queue_yield", out var yield)
                || !NativeLibrary.TryGetExport(library, "rd_kafka_queue_destroy", out var destroy))
                return null;
            return new Api
            {
                QueueGetMain = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr>)main,
                QueueGetConsumer = (delegate* unmanaged[Cdecl]<IntPtr, IntPtr>)consumer,
                QueueYield = (delegate* unmanaged[Cdecl]<IntPtr, void>)yield,
                QueueDestroy = (delegate* unmanaged[Cdecl]<IntPtr, void>)destroy,
            };
        }
    }
}
