using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using KafkaPerf.Clients;

namespace KafkaPerf.Adapters.Jvm;

/// <summary>
/// The JVM inside this process, created once through the JNI invocation API with no bridge package: <c>libjvm</c>
/// is loaded, <c>JNI_CreateJavaVM</c> is called through a function pointer, and threads attach as named daemons.
/// Knows nothing about Kafka.
/// </summary>
/// <remarks>
/// <para>HotSpot installs signal handlers over CoreCLR's and chains to them; without
/// <c>DOTNET_EnableAlternateStackCheck=1</c> in the environment <em>when the process starts</em>, managed
/// <see cref="NullReferenceException"/>s during GCs crash the process. <see cref="Create"/> refuses to run without it.</para>
/// <para>The JVM runs with <c>-Xrs</c>, so Ctrl+C and SIGTERM stay with .NET. A JVM cannot be created twice in one
/// process, so the first <see cref="Create"/> wins and later ones get the same host.</para>
/// <para>JVM messages (warnings, <c>-Xcheck:jni</c> reports) go through a <c>vfprintf</c> hook into
/// <see cref="Messages"/> instead of the console.</para>
/// </remarks>
public sealed unsafe class JvmHost
{
    /// <summary>The variable CoreCLR must see at start-up for a JVM to live in the process.</summary>
    public const string AlternateStackCheckVariable = "DOTNET_EnableAlternateStackCheck";

    /// <summary>The variable that names a <c>libjvm.so</c> to load, before <c>JAVA_HOME</c> and <c>PATH</c>.</summary>
    public const string JvmLibraryVariable = "KAFKAPERF_JVM";

    private const int JniVersion18 = 0x00010008;
    private const int JniOk = 0;
    private const int JniDetached = -2;
    private const int MaxMessages = 1000;

    private static readonly Lock s_lock = new();
    private static JvmHost? s_instance;
    private static PrerequisiteException? s_failure;
    private static ConcurrentQueue<string> s_messages = new();
    private static int s_messageCount;

    [ThreadStatic] private static int t_attachDepth;
    [ThreadStatic] private static bool t_attachedHere;

    private readonly IntPtr _vm;
    private readonly void** _invoke;
    private readonly IntPtr _classClass;
    private readonly IntPtr _classGetName;
    private readonly IntPtr _throwableGetMessage;
    private readonly IntPtr _throwablePrintStackTrace;
    private readonly IntPtr _stringWriterClass;
    private readonly IntPtr _stringWriterInit;
    private readonly IntPtr _printWriterClass;
    private readonly IntPtr _printWriterInit;
    private readonly IntPtr _objectToString;

    private JvmHost(IntPtr vm, JvmOptions options, string library, TimeSpan startup)
    {
        _vm = vm;
        _invoke = *(void***)vm;
        Options = options;
        LibraryPath = library;
        StartupTime = startup;
        using var thread = AttachCurrentThread("kafkaperf-jvm-setup");
        var env = thread.Env;
        var throwable = env.FindClassGlobal("java/lang/Throwable");
        _classClass = env.FindClassGlobal("java/lang/Class");
        _classGetName = env.GetMethodId(_classClass, "getName", "()Ljava/lang/String;");
        _throwableGetMessage = env.GetMethodId(throwable, "getMessage", "()Ljava/lang/String;");
        _throwablePrintStackTrace = env.GetMethodId(throwable, "printStackTrace", "(Ljava/io/PrintWriter;)V");
        env.DeleteGlobalRef(throwable);
        _stringWriterClass = env.FindClassGlobal("java/io/StringWriter");
        _stringWriterInit = env.GetMethodId(_stringWriterClass, "<init>", "()V");
        _printWriterClass = env.FindClassGlobal("java/io/PrintWriter");
        _printWriterInit = env.GetMethodId(_printWriterClass, "<init>", "(Ljava/io/Writer;)V");
        var obj = env.FindClassGlobal("java/lang/Object");
        _objectToString = env.GetMethodId(obj, "toString", "()Ljava/lang/String;");
        env.DeleteGlobalRef(obj);

        var system = env.FindClassGlobal("java/lang/System");
        var getProperty = env.GetStaticMethodId(system, "getProperty", "(Ljava/lang/String;)Ljava/lang/String;");
        string? Property(string name)
        {
            var key = env.NewString(name);
            var value = env.CallStaticObject(system, getProperty, [JValue.Ref(key)]);
            env.DeleteLocalRef(key);
            var text = env.GetString(value);
            env.DeleteLocalRef(value);
            return text;
        }
        JavaVersion = Property("java.version") ?? "unknown";
        VmName = $"{Property("java.vm.name")} {Property("java.vm.version")}";
        env.DeleteGlobalRef(system);
    }

    /// <summary>The options the JVM was created with.</summary>
    public JvmOptions Options { get; }

    /// <summary>The <c>libjvm</c> that was loaded.</summary>
    public string LibraryPath { get; }

    /// <summary>How long <c>JNI_CreateJavaVM</c> and the host's set-up took.</summary>
    public TimeSpan StartupTime { get; }

    /// <summary>The Java version (<c>java.version</c>).</summary>
    public string JavaVersion { get; }

    /// <summary>The VM's name and version, e.g. <c>OpenJDK 64-Bit Server VM 17.0.15+6-…</c>.</summary>
    public string VmName { get; }

    /// <summary>What the JVM printed (through its <c>vfprintf</c> hook): warnings and <c>-Xcheck:jni</c> reports. The first 1 000 are kept.</summary>
    public static IReadOnlyList<string> Messages => [.. s_messages];

    /// <summary>The JVM of this process, if one was created.</summary>
    public static JvmHost? Current => Volatile.Read(ref s_instance);

    /// <summary>Whether this process can host a JVM safely.</summary>
    /// <returns><see langword="null"/> when it can; otherwise one line saying what to do.</returns>
    public static string? CheckEnvironment()
    {
        var value = Environment.GetEnvironmentVariable(AlternateStackCheckVariable);
        return value == "1"
            ? null
            : $"{AlternateStackCheckVariable}=1 must be set when a process that hosts the JVM starts (without it the JVM's signal handlers crash .NET): run 'export {AlternateStackCheckVariable}=1' and start the process again (the kafkaperf tool sets it for itself).";
    }

    /// <summary>Creates the process's JVM, or returns the one already created.</summary>
    /// <param name="options">Heap, class path and options; ignored when the JVM exists already.</param>
    /// <returns>The host.</returns>
    /// <exception cref="PrerequisiteException">The environment variable is missing, no <c>libjvm</c> was found, or the JVM did not start.</exception>
    public static JvmHost Create(JvmOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        lock (s_lock)
        {
            if (s_instance is { } existing) return existing;
            // A JVM cannot be created twice in one process: a failure is final.
            if (s_failure is not null) throw s_failure;
            if (CheckEnvironment() is { } problem) throw new PrerequisiteException(problem);
            var library = FindLibJvm(options.JavaHome);
            // JNI_CreateJavaVM attaches the calling thread for good: a thread of its own does it, then detaches and ends.
            JvmHost? host = null;
            Exception? failure = null;
            var thread = new Thread(() =>
            {
                try
                {
                    host = CreateOnThisThread(options, library);
                }
                catch (Exception ex)
                {
                    failure = ex;
                }
            }, 16 * 1024 * 1024) { IsBackground = true, Name = "kafkaperf-jvm-create" };
            thread.Start();
            thread.Join();
            if (failure is not null)
            {
                s_failure = failure as PrerequisiteException ?? new PrerequisiteException($"The JVM could not start: {failure.Message}", failure);
                throw s_failure;
            }
            Volatile.Write(ref s_instance, host);
            return host!;
        }
    }

    /// <summary>Finds <c>libjvm.so</c>: <c>KAFKAPERF_JVM</c>, then <c>JAVA_HOME</c> (or <paramref name="javaHome"/>), then the <c>java</c> on <c>PATH</c>.</summary>
    /// <exception cref="PrerequisiteException">None was found; one line says where it looked.</exception>
    public static string FindLibJvm(string? javaHome = null)
    {
        var named = Environment.GetEnvironmentVariable(JvmLibraryVariable);
        if (!string.IsNullOrWhiteSpace(named))
        {
            return File.Exists(named)
                ? named
                : throw new PrerequisiteException($"{JvmLibraryVariable} is '{named}', but that file does not exist: point it at a libjvm.so (e.g. $JAVA_HOME/lib/server/libjvm.so), or unset it.");
        }
        // JavaLocator applies JAVA_HOME then PATH, with its own one-line errors; libjvm sits beside the launcher's bin/.
        var java = JavaLocator.FindJavaExecutable(javaHome);
        var real = new FileInfo(java).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? java;
        var home = Path.GetDirectoryName(Path.GetDirectoryName(real))!;
        string name = OperatingSystem.IsMacOS() ? "libjvm.dylib" : "libjvm.so";
        foreach (var candidate in new[] { Path.Combine(home, "lib", "server", name), Path.Combine(home, "jre", "lib", "amd64", "server", name) })
        {
            if (File.Exists(candidate)) return candidate;
        }
        throw new PrerequisiteException(
            $"The Java at '{real}' has no lib/server/{name}: install a full Java 17+ (Debian/Ubuntu: apt-get install openjdk-17-jre-headless), or set {JvmLibraryVariable} to a libjvm.so.");
    }

    /// <summary>Attaches the calling thread to the JVM (as a named daemon) unless it is attached already.</summary>
    /// <param name="name">The Java thread's name.</param>
    /// <returns>A scope: disposing the outermost one on this thread detaches it, if this call attached it.</returns>
    public JniThread AttachCurrentThread(string name)
    {
        IntPtr env;
        int rc = ((delegate* unmanaged<IntPtr, IntPtr*, int, int>)_invoke[6])(_vm, &env, JniVersion18);
        if (rc == JniDetached)
        {
            var nameBytes = Encoding.UTF8.GetBytes(name + "\0");
            fixed (byte* pName = nameBytes)
            {
                var args = new AttachArgs { Version = JniVersion18, Name = pName, Group = IntPtr.Zero };
                rc = ((delegate* unmanaged<IntPtr, IntPtr*, AttachArgs*, int>)_invoke[7])(_vm, &env, &args);
            }
            if (rc != JniOk) throw new JavaException("java.lang.InternalError", $"AttachCurrentThreadAsDaemon failed with {rc}.", string.Empty);
            t_attachedHere = true;
        }
        else if (rc != JniOk)
        {
            throw new JavaException("java.lang.InternalError", $"GetEnv failed with {rc}.", string.Empty);
        }
        t_attachDepth++;
        return new JniThread(this, new JniEnv(env));
    }

    internal void Release()
    {
        if (--t_attachDepth > 0 || !t_attachedHere) return;
        t_attachedHere = false;
        ((delegate* unmanaged<IntPtr, int>)_invoke[5])(_vm);
    }

    /// <summary>The <c>JNIEnv</c> of a thread that Java itself runs (inside a <c>native</c> method's callback).</summary>
    /// <param name="env">The <c>JNIEnv*</c> Java passed in.</param>
    public static JniEnv FromCallback(IntPtr env) => new(env);

    /// <summary>Describes a Java exception: class, message and stack trace, never failing.</summary>
    internal static JavaException Describe(JniEnv env, IntPtr throwable)
    {
        var host = Current;
        if (host is null || throwable == IntPtr.Zero) return new JavaException("java.lang.Throwable", "a Java exception (no JVM host to describe it)", string.Empty);
        return host.DescribeCore(env, throwable);
    }

    private JavaException DescribeCore(JniEnv env, IntPtr throwable)
    {
        var type = env.GetObjectClass(throwable);
        var nameRef = env.CallObjectQuietly(type, _classGetName, []);
        var className = env.GetString(nameRef) ?? "java.lang.Throwable";
        env.DeleteLocalRef(nameRef);
        env.DeleteLocalRef(type);

        var messageRef = env.CallObjectQuietly(throwable, _throwableGetMessage, []);
        var message = env.GetString(messageRef);
        env.DeleteLocalRef(messageRef);

        string stack = string.Empty;
        var writer = env.NewObjectQuietly(_stringWriterClass, _stringWriterInit, []);
        if (writer != IntPtr.Zero)
        {
            var printer = env.NewObjectQuietly(_printWriterClass, _printWriterInit, [JValue.Ref(writer)]);
            if (printer != IntPtr.Zero)
            {
                env.CallVoidQuietly(throwable, _throwablePrintStackTrace, [JValue.Ref(printer)]);
                var text = env.CallObjectQuietly(writer, _objectToString, []);
                stack = env.GetString(text) ?? string.Empty;
                env.DeleteLocalRef(text);
                env.DeleteLocalRef(printer);
            }
            env.DeleteLocalRef(writer);
        }
        return new JavaException(className, message, stack);
    }

    private static JvmHost CreateOnThisThread(JvmOptions options, string library)
    {
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        IntPtr handle;
        try
        {
            handle = NativeLibrary.Load(library);
        }
        catch (DllNotFoundException ex)
        {
            throw new PrerequisiteException($"'{library}' could not be loaded ({ex.Message}): set {JvmLibraryVariable} or JAVA_HOME to a working Java 17+.", ex);
        }
        var getCreated = (delegate* unmanaged<IntPtr*, int, int*, int>)NativeLibrary.GetExport(handle, "JNI_GetCreatedJavaVMs");
        IntPtr vm;
        int count;
        if (getCreated(&vm, 1, &count) == JniOk && count > 0)
            return new JvmHost(vm, options, library, System.Diagnostics.Stopwatch.GetElapsedTime(started));

        var create = (delegate* unmanaged<IntPtr*, IntPtr*, InitArgs*, int>)NativeLibrary.GetExport(handle, "JNI_CreateJavaVM");
        var strings = options.ToJvmArguments();
        var pinned = new List<GCHandle>();
        try
        {
            var jvmOptions = stackalloc VmOption[strings.Count + 1];
            for (int i = 0; i < strings.Count; i++)
            {
                var bytes = GCHandle.Alloc(Encoding.UTF8.GetBytes(strings[i] + "\0"), GCHandleType.Pinned);
                pinned.Add(bytes);
                jvmOptions[i] = new VmOption { OptionString = (byte*)bytes.AddrOfPinnedObject(), ExtraInfo = IntPtr.Zero };
            }
            var hook = GCHandle.Alloc(Encoding.ASCII.GetBytes("vfprintf\0"), GCHandleType.Pinned);
            pinned.Add(hook);
            jvmOptions[strings.Count] = new VmOption
            {
                OptionString = (byte*)hook.AddrOfPinnedObject(),
                ExtraInfo = (IntPtr)(delegate* unmanaged[Cdecl]<IntPtr, byte*, IntPtr, int>)&OnJvmPrint,
            };
            var args = new InitArgs { Version = JniVersion18, OptionCount = strings.Count + 1, Options = jvmOptions, IgnoreUnrecognized = 0 };
            IntPtr env;
            int rc = create(&vm, &env, &args);
            if (rc != JniOk)
            {
                var said = string.Join(" ", Messages.Select(m => m.Trim()).Where(m => m.Length > 0));
                throw new PrerequisiteException(
                    $"JNI_CreateJavaVM failed with {rc}{(said.Length > 0 ? $" ({said})" : string.Empty)}: check the JVM options and the Java at '{library}'.");
            }
        }
        finally
        {
            foreach (var p in pinned) p.Free();
        }
        try
        {
            return new JvmHost(vm, options, library, System.Diagnostics.Stopwatch.GetElapsedTime(started));
        }
        finally
        {
            // This thread was attached by JNI_CreateJavaVM as the JVM's main thread; it ends now.
            ((delegate* unmanaged<IntPtr, int>)(*(void***)vm)[5])(vm);
        }
    }

    /// <summary>HotSpot's <c>vfprintf</c> hook: formats with the C library and keeps the text.</summary>
    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static int OnJvmPrint(IntPtr stream, byte* format, IntPtr args)
    {
        try
        {
            const int Size = 4096;
            var buffer = stackalloc byte[Size];
            int written = vsnprintf(buffer, Size, format, args);
            if (written <= 0) return written;
            var text = Encoding.UTF8.GetString(buffer, Math.Min(written, Size - 1));
            if (Interlocked.Increment(ref s_messageCount) <= MaxMessages) s_messages.Enqueue(text);
            return written;
        }
        catch
        {
            // Nothing may escape into the JVM.
            return 0;
        }
    }

    /// <summary>Forgets the JVM messages kept so far (tests read them per test).</summary>
    public static void ClearMessages()
    {
        s_messages = new ConcurrentQueue<string>();
        s_messageCount = 0;
    }

    [DllImport("libc.so.6", CallingConvention = CallingConvention.Cdecl)]
    private static extern int vsnprintf(byte* buffer, nuint size, byte* format, IntPtr args);

    [StructLayout(LayoutKind.Sequential)]
    private struct VmOption
    {
        public byte* OptionString;
        public IntPtr ExtraInfo;
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct InitArgs
    {
        public int Version;
        public int OptionCount;
        public VmOption* Options;
        public byte IgnoreUnrecognized;
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct AttachArgs
    {
        public int Version;
        public byte* Name;
        public IntPtr Group;
    }
}

/// <summary>A thread's attachment to the JVM; dispose it on the same thread.</summary>
public sealed class JniThread : IDisposable
{
    private readonly JvmHost _host;
    private readonly int _threadId = Environment.CurrentManagedThreadId;
    private bool _disposed;

    internal JniThread(JvmHost host, JniEnv env)
    {
        _host = host;
        Env = env;
    }

    /// <summary>This thread's <c>JNIEnv</c>.</summary>
    public JniEnv Env { get; }

    /// <summary>Whether the caller runs on the thread this attachment belongs to.</summary>
    public bool IsCurrentThread => Environment.CurrentManagedThreadId == _threadId;

    /// <summary>Ends the attachment; the outermost one detaches the thread if it attached it.</summary>
    /// <exception cref="InvalidOperationException">Called on another thread.</exception>
    public void Dispose()
    {
        if (_disposed) return;
        if (!IsCurrentThread) throw new InvalidOperationException("A JNI thread attachment must be released on the thread that made it.");
        _disposed = true;
        _host.Release();
    }
}
