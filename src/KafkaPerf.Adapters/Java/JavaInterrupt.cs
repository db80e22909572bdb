using KafkaPerf.Adapters.Jvm;

namespace KafkaPerf.Adapters.Java;

/// <summary>See <see cref="JavaRuntime.InterruptOn"/>.</summary>
internal sealed class JavaInterrupt : IDisposable
{
    private readonly JavaRuntime _runtime;
    private readonly JniEnv _env;
    private readonly IntPtr _thread;
    private readonly int _managedThread = Environment.CurrentManagedThreadId;
    private readonly CancellationTokenRegistration _registration;
    private bool _disposed;

    public JavaInterrupt(JavaRuntime runtime, JniEnv env, CancellationToken token)
    {
        _runtime = runtime;
        _env = env;
        if (!token.CanBeCanceled) return;
        var local = env.CallStaticObject(runtime.ThreadClass, runtime.ThreadCurrent, []);
        _thread = env.NewGlobalRef(local);
        env.DeleteLocalRef(local);
        _registration = token.Register(Interrupt);
    }

    private void Interrupt()
    {
        try
        {
            using var attached = _runtime.Host.AttachCurrentThread("kafkaperf-java-interrupt");
            attached.Env.CallVoid(_thread, _runtime.ThreadInterrupt, []);
        }
        catch (Exception ex) when (ex is JavaException or InvalidOperationException)
        {
            // The call ends on its own anyway, bounded by the client's own timeouts.
        }
    }

    public void Dispose()
    {
        if (_disposed || _thread == IntPtr.Zero) return;
        _disposed = true;
        // Waits for an interrupt in progress on another thread, so the reference below is not deleted under it.
        _registration.Dispose();
        if (Environment.CurrentManagedThreadId == _managedThread)
        {
            _env.CallStaticBoolean(_runtime.ThreadClass, _runtime.ThreadClearInterrupt, []);
            _env.DeleteGlobalRef(_thread);
        }
    }
}
