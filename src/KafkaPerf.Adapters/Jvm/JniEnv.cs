using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace KafkaPerf.Adapters.Jvm;

/// <summary>
/// A thread's <c>JNIEnv*</c>: the JNI function table read at the indices of the JNI specification and called through
/// unmanaged function pointers. Valid only on the thread it belongs to (see <see cref="JvmHost.AttachCurrentThread"/>).
/// </summary>
/// <remarks>Every call into Java code is counted in <see cref="JniCounters"/>. After any call that can throw, the
/// <c>Call…</c> helpers check for a pending Java exception and turn it into a <see cref="JavaException"/>, so that no JNI
/// call is ever made with an exception pending (which <c>-Xcheck:jni</c> reports).</remarks>
public readonly unsafe struct JniEnv
{
    // Indices into JNINativeInterface_ (JNI specification, "Interface Function Table").
    private const int FindClassIndex = 6;
    private const int ThrowNewIndex = 14;
    private const int ExceptionOccurredIndex = 15;
    private const int ExceptionClearIndex = 17;
    private const int PushLocalFrameIndex = 19;
    private const int PopLocalFrameIndex = 20;
    private const int NewGlobalRefIndex = 21;
    private const int DeleteGlobalRefIndex = 22;
    private const int DeleteLocalRefIndex = 23;
    private const int NewObjectAIndex = 30;
    private const int GetObjectClassIndex = 31;
    private const int GetMethodIdIndex = 33;
    private const int CallObjectMethodAIndex = 36;
    private const int CallBooleanMethodAIndex = 39;
    private const int CallIntMethodAIndex = 51;
    private const int CallLongMethodAIndex = 54;
    private const int CallVoidMethodAIndex = 63;
    private const int GetStaticMethodIdIndex = 113;
    private const int CallStaticObjectMethodAIndex = 116;
    private const int CallStaticBooleanMethodAIndex = 119;
    private const int CallStaticLongMethodAIndex = 134;
    private const int CallStaticVoidMethodAIndex = 143;
    private const int NewStringIndex = 163;
    private const int GetStringLengthIndex = 164;
    private const int GetArrayLengthIndex = 171;
    private const int NewObjectArrayIndex = 172;
    private const int GetObjectArrayElementIndex = 173;
    private const int SetObjectArrayElementIndex = 174;
    private const int NewByteArrayIndex = 176;
    private const int GetByteArrayRegionIndex = 200;
    private const int SetByteArrayRegionIndex = 208;
    private const int RegisterNativesIndex = 215;
    private const int GetStringRegionIndex = 220;
    private const int ExceptionCheckIndex = 228;
    private const int NewDirectByteBufferIndex = 229;

    private readonly IntPtr _env;

    internal JniEnv(IntPtr env) => _env = env;

    /// <summary>The raw <c>JNIEnv*</c>.</summary>
    public IntPtr Handle => _env;

    private void** Table => *(void***)_env;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void* Fn(int index) => Table[index];

    /// <summary>Finds a class by its JNI name (<c>java/lang/String</c>) and returns a global reference to it.</summary>
    /// <exception cref="JavaException">The class is missing (<c>NoClassDefFoundError</c>).</exception>
    public IntPtr FindClassGlobal(string name)
    {
        IntPtr local;
        var bytes = Utf8(name);
        fixed (byte* p = bytes) local = ((delegate* unmanaged<IntPtr, byte*, IntPtr>)Fn(FindClassIndex))(_env, p);
        ThrowIfPending();
        var global = NewGlobalRef(local);
        DeleteLocalRef(local);
        return global;
    }

    /// <summary>An instance method's ID.</summary>
    /// <exception cref="JavaException">No such method (<c>NoSuchMethodError</c>).</exception>
    public IntPtr GetMethodId(IntPtr type, string name, string signature) => MethodId(GetMethodIdIndex, type, name, signature);

    /// <summary>A static method's ID.</summary>
    /// <exception cref="JavaException">No such method (<c>NoSuchMethodError</c>).</exception>
    public IntPtr GetStaticMethodId(IntPtr type, string name, string signature) => MethodId(GetStaticMethodIdIndex, type, name, signature);

    private IntPtr MethodId(int index, IntPtr type, string name, string signature)
    {
        IntPtr id;
        var n = Utf8(name);
        var s = Utf8(signature);
        fixed (byte* pn = n, ps = s) id = ((delegate* unmanaged<IntPtr, IntPtr, byte*, byte*, IntPtr>)Fn(index))(_env, type, pn, ps);
        ThrowIfPending();
        return id;
    }

    /// <summary>Creates an object with a constructor (<c>&lt;init&gt;</c>) and returns a local reference.</summary>
    public IntPtr NewObject(IntPtr type, IntPtr constructor, ReadOnlySpan<JValue> args)
    {
        IntPtr result;
        JniCounters.CountCall();
        fixed (JValue* a = args) result = ((delegate* unmanaged<IntPtr, IntPtr, IntPtr, JValue*, IntPtr>)Fn(NewObjectAIndex))(_env, type, constructor, a);
        ThrowIfPending();
        return result;
    }

    /// <summary>Calls a method returning an object; the result is a local reference (or zero).</summary>
    public IntPtr CallObject(IntPtr target, IntPtr method, ReadOnlySpan<JValue> args)
    {
        IntPtr result;
        JniCounters.CountCall();
        fixed (JValue* a = args) result = ((delegate* unmanaged<IntPtr, IntPtr, IntPtr, JValue*, IntPtr>)Fn(CallObjectMethodAIndex))(_env, target, method, a);
        ThrowIfPending();
        return result;
    }

    /// <summary>Calls a method returning <c>boolean</c>.</summary>
    public bool CallBoolean(IntPtr target, IntPtr method, ReadOnlySpan<JValue> args)
    {
        byte result;
        JniCounters.CountCall();
        fixed (JValue* a = args) result = ((delegate* unmanaged<IntPtr, IntPtr, IntPtr, JValue*, byte>)Fn(CallBooleanMethodAIndex))(_env, target, method, a);
        ThrowIfPending();
        return result != 0;
    }

    /// <summary>Calls a method returning <c>int</c>.</summary>
    public int CallInt(IntPtr target, IntPtr method, ReadOnlySpan<JValue> args)
    {
        int result;
        JniCounters.CountCall();
        fixed (JValue* a = args) result = ((delegate* unmanaged<IntPtr, IntPtr, IntPtr, JValue*, int>)Fn(CallIntMethodAIndex))(_env, target, method, a);
        ThrowIfPending();
        return result;
    }

    /// <summary>Calls a method returning <c>long</c>.</summary>
    public long CallLong(IntPtr target, IntPtr method, ReadOnlySpan<JValue> args)
    {
        long result;
        JniCounters.CountCall();
        fixed (JValue* a = args) result = ((delegate* unmanaged<IntPtr, IntPtr, IntPtr, JValue*, long>)Fn(CallLongMethodAIndex))(_env, target, method, a);
        ThrowIfPending();
        return result;
    }

    /// <summary>Calls a method returning <c>void</c>.</summary>
    public void CallVoid(IntPtr target, IntPtr method, ReadOnlySpan<JValue> args)
    {
        JniCounters.CountCall();
        fixed (JValue* a = args) ((delegate* unmanaged<IntPtr, IntPtr, IntPtr, JValue*, void>)Fn(CallVoidMethodAIndex))(_env, target, method, a);
        ThrowIfPending();
    }

    /// <summary>Calls a static method returning an object; the result is a local reference (or zero).</summary>
    public IntPtr CallStaticObject(IntPtr type, IntPtr method, ReadOnlySpan<JValue> args)
    {
        IntPtr result;
        JniCounters.CountCall();
        fixed (JValue* a = args) result = ((delegate* unmanaged<IntPtr, IntPtr, IntPtr, JValue*, IntPtr>)Fn(CallStaticObjectMethodAIndex))(_env, type, method, a);
        ThrowIfPending();
        return result;
    }

    /// <summary>Calls a static method returning <c>boolean</c>.</summary>
    public bool CallStaticBoolean(IntPtr type, IntPtr method, ReadOnlySpan<JValue> args)
    {
        byte result;
        JniCounters.CountCall();
        fixed (JValue* a = args) result = ((delegate* unmanaged<IntPtr, IntPtr, IntPtr, JValue*, byte>)Fn(CallStaticBooleanMethodAIndex))(_env, type, method, a);
        ThrowIfPending();
        return result != 0;
    }

    /// <summary>Calls a static method returning <c>long</c>.</summary>
    public long CallStaticLong(IntPtr type, IntPtr method, ReadOnlySpan<JValue> args)
    {
        long result;
        JniCounters.CountCall();
        fixed (JValue* a = args) result = ((delegate* unmanaged<IntPtr, IntPtr, IntPtr, JValue*, long>)Fn(CallStaticLongMethodAIndex))(_env, type, method, a);
        ThrowIfPending();
        return result;
    }

    /// <summary>Calls a static method returning <c>void</c>.</summary>
    public void CallStaticVoid(IntPtr type, IntPtr method, ReadOnlySpan<JValue> args)
    {
        JniCounters.CountCall();
        fixed (JValue* a = args) ((delegate* unmanaged<IntPtr, IntPtr, IntPtr, JValue*, void>)Fn(CallStaticVoidMethodAIndex))(_env, type, method, a);
        ThrowIfPending();
    }

    /// <summary>A new global reference.</summary>
    public IntPtr NewGlobalRef(IntPtr obj) => ((delegate* unmanaged<IntPtr, IntPtr, IntPtr>)Fn(NewGlobalRefIndex))(_env, obj);

    /// <summary>Deletes a global reference (zero is ignored).</summary>
    public void DeleteGlobalRef(IntPtr obj)
    {
        if (obj != IntPtr.Zero) ((delegate* unmanaged<IntPtr, IntPtr, void>)Fn(DeleteGlobalRefIndex))(_env, obj);
    }

    /// <summary>Deletes a local reference (zero is ignored).</summary>
    public void DeleteLocalRef(IntPtr obj)
    {
        if (obj != IntPtr.Zero) ((delegate* unmanaged<IntPtr, IntPtr, void>)Fn(DeleteLocalRefIndex))(_env, obj);
    }

    /// <summary>Opens a local reference frame for at least <paramref name="capacity"/> references.</summary>
    /// <exception cref="JavaException">Out of memory.</exception>
    public void PushLocalFrame(int capacity)
    {
        int rc = ((delegate* unmanaged<IntPtr, int, int>)Fn(PushLocalFrameIndex))(_env, capacity);
        if (rc != 0) ThrowIfPending();
    }

    /// <summary>Closes the innermost local frame, freeing every local reference made in it.</summary>
    public void PopLocalFrame() => ((delegate* unmanaged<IntPtr, IntPtr, IntPtr>)Fn(PopLocalFrameIndex))(_env, IntPtr.Zero);

    /// <summary>A Java string (local reference) with exactly these UTF-16 characters.</summary>
    public IntPtr NewString(string value)
    {
        IntPtr result;
        fixed (char* p = value) result = ((delegate* unmanaged<IntPtr, char*, int, IntPtr>)Fn(NewStringIndex))(_env, p, value.Length);
        ThrowIfPending();
        return result;
    }

    /// <summary>Reads a Java string; <see langword="null"/> for a null reference.</summary>
    public string? GetString(IntPtr str)
    {
        if (str == IntPtr.Zero) return null;
        int length = ((delegate* unmanaged<IntPtr, IntPtr, int>)Fn(GetStringLengthIndex))(_env, str);
        return string.Create(length, (Env: this, Str: str), static (span, state) =>
        {
            fixed (char* p = span)
                ((delegate* unmanaged<IntPtr, IntPtr, int, int, char*, void>)state.Env.Fn(GetStringRegionIndex))(state.Env._env, state.Str, 0, span.Length, p);
        });
    }

    /// <summary>A Java <c>String[]</c> (local reference) holding these strings.</summary>
    public IntPtr NewStringArray(IntPtr stringClass, IReadOnlyList<string> values)
    {
        var array = ((delegate* unmanaged<IntPtr, int, IntPtr, IntPtr, IntPtr>)Fn(NewObjectArrayIndex))(_env, values.Count, stringClass, IntPtr.Zero);
        ThrowIfPending();
        try
        {
            for (int i = 0; i < values.Count; i++)
            {
                var s = NewString(values[i]);
                ((delegate* unmanaged<IntPtr, IntPtr, int, IntPtr, void>)Fn(SetObjectArrayElementIndex))(_env, array, i, s);
                DeleteLocalRef(s);
                ThrowIfPending();
            }
        }
        catch
        {
            DeleteLocalRef(array);
            throw;
        }
        return array;
    }

    /// <summary>Reads a Java <c>String[]</c>.</summary>
    public string?[] GetStringArray(IntPtr array)
    {
        if (array == IntPtr.Zero) return [];
        int length = ((delegate* unmanaged<IntPtr, IntPtr, int>)Fn(GetArrayLengthIndex))(_env, array);
        var result = new string?[length];
        for (int i = 0; i < length; i++)
        {
            var element = ((delegate* unmanaged<IntPtr, IntPtr, int, IntPtr>)Fn(GetObjectArrayElementIndex))(_env, array, i);
            ThrowIfPending();
            result[i] = GetString(element);
            DeleteLocalRef(element);
        }
        return result;
    }

    /// <summary>A new Java <c>byte[]</c> (local reference) holding a copy of <paramref name="bytes"/>.</summary>
    /// <exception cref="JavaException">The Java heap is exhausted (<c>OutOfMemoryError</c>).</exception>
    public IntPtr NewByteArray(ReadOnlySpan<byte> bytes)
    {
        var array = ((delegate* unmanaged<IntPtr, int, IntPtr>)Fn(NewByteArrayIndex))(_env, bytes.Length);
        if (array == IntPtr.Zero)
        {
            // NULL means the Java heap is full; an OutOfMemoryError is pending. Using the NULL would crash the process.
            ThrowIfPending();
            throw new JavaException("java.lang.OutOfMemoryError", "The JVM could not allocate a byte array.", string.Empty);
        }
        fixed (byte* p = bytes) ((delegate* unmanaged<IntPtr, IntPtr, int, int, byte*, void>)Fn(SetByteArrayRegionIndex))(_env, array, 0, bytes.Length, p);
        return array;
    }

    /// <summary>The length of a Java array.</summary>
    public int GetArrayLength(IntPtr array) => ((delegate* unmanaged<IntPtr, IntPtr, int>)Fn(GetArrayLengthIndex))(_env, array);

    /// <summary>Copies the start of a Java <c>byte[]</c> into <paramref name="destination"/> (its whole length).</summary>
    public void GetByteArrayRegion(IntPtr array, Span<byte> destination)
    {
        fixed (byte* p = destination) ((delegate* unmanaged<IntPtr, IntPtr, int, int, byte*, void>)Fn(GetByteArrayRegionIndex))(_env, array, 0, destination.Length, p);
        ThrowIfPending();
    }

    /// <summary>A <c>java.nio.ByteBuffer</c> (local reference) over native memory that the caller owns and keeps alive.</summary>
    public IntPtr NewDirectByteBuffer(void* address, long capacity)
    {
        var buffer = ((delegate* unmanaged<IntPtr, void*, long, IntPtr>)Fn(NewDirectByteBufferIndex))(_env, address, capacity);
        ThrowIfPending();
        return buffer;
    }

    /// <summary>Registers <c>native</c> methods of a class with .NET function pointers.</summary>
    /// <param name="type">The class.</param>
    /// <param name="methods">Name, JNI signature and an <c>[UnmanagedCallersOnly]</c> function pointer each.</param>
    public void RegisterNatives(IntPtr type, IReadOnlyList<(string Name, string Signature, IntPtr Function)> methods)
    {
        var names = new List<GCHandle>();
        try
        {
            var table = stackalloc IntPtr[methods.Count * 3];
            for (int i = 0; i < methods.Count; i++)
            {
                var name = GCHandle.Alloc(Utf8(methods[i].Name), GCHandleType.Pinned);
                var signature = GCHandle.Alloc(Utf8(methods[i].Signature), GCHandleType.Pinned);
                names.Add(name);
                names.Add(signature);
                table[i * 3] = name.AddrOfPinnedObject();
                table[(i * 3) + 1] = signature.AddrOfPinnedObject();
                table[(i * 3) + 2] = methods[i].Function;
            }
            int rc = ((delegate* unmanaged<IntPtr, IntPtr, IntPtr*, int, int>)Fn(RegisterNativesIndex))(_env, type, table, methods.Count);
            ThrowIfPending();
            if (rc != 0) throw new JavaException("java.lang.LinkageError", $"RegisterNatives failed with {rc}.", string.Empty);
        }
        finally
        {
            foreach (var handle in names) handle.Free();
        }
    }

    /// <summary>Makes a Java exception pending in this thread (used by callbacks to report a .NET failure to Java).</summary>
    /// <param name="type">A global reference to a <c>Throwable</c> class.</param>
    /// <param name="message">Its message.</param>
    public void ThrowNew(IntPtr type, string message)
    {
        var bytes = Utf8(message);
        fixed (byte* p = bytes) ((delegate* unmanaged<IntPtr, IntPtr, byte*, int>)Fn(ThrowNewIndex))(_env, type, p);
    }

    /// <summary>Whether a Java exception is pending.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool ExceptionCheck() => ((delegate* unmanaged<IntPtr, byte>)Fn(ExceptionCheckIndex))(_env) != 0;

    /// <summary>Turns a pending Java exception into a <see cref="JavaException"/> and clears it.</summary>
    /// <exception cref="JavaException">One was pending.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void ThrowIfPending()
    {
        if (ExceptionCheck()) throw TakePendingException();
    }

    /// <summary>Takes the pending exception (clearing it) and describes it: class, message and stack trace.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private JavaException TakePendingException()
    {
        var throwable = ((delegate* unmanaged<IntPtr, IntPtr>)Fn(ExceptionOccurredIndex))(_env);
        ((delegate* unmanaged<IntPtr, void>)Fn(ExceptionClearIndex))(_env);
        try
        {
            return JvmHost.Describe(this, throwable);
        }
        finally
        {
            DeleteLocalRef(throwable);
        }
    }

    /// <summary>Clears a pending exception without reading it (used while describing one).</summary>
    internal void ClearPending()
    {
        if (ExceptionCheck()) ((delegate* unmanaged<IntPtr, void>)Fn(ExceptionClearIndex))(_env);
    }

    /// <summary>The class of an object (local reference).</summary>
    internal IntPtr GetObjectClass(IntPtr obj) => ((delegate* unmanaged<IntPtr, IntPtr, IntPtr>)Fn(GetObjectClassIndex))(_env, obj);

    /// <summary>A call that must not throw a .NET exception (while describing an exception): null on any Java exception.</summary>
    internal IntPtr CallObjectQuietly(IntPtr target, IntPtr method, ReadOnlySpan<JValue> args)
    {
        IntPtr result;
        fixed (JValue* a = args) result = ((delegate* unmanaged<IntPtr, IntPtr, IntPtr, JValue*, IntPtr>)Fn(CallObjectMethodAIndex))(_env, target, method, a);
        if (ExceptionCheck())
        {
            ClearPending();
            DeleteLocalRef(result);
            return IntPtr.Zero;
        }
        return result;
    }

    internal IntPtr NewObjectQuietly(IntPtr type, IntPtr constructor, ReadOnlySpan<JValue> args)
    {
        IntPtr result;
        fixed (JValue* a = args) result = ((delegate* unmanaged<IntPtr, IntPtr, IntPtr, JValue*, IntPtr>)Fn(NewObjectAIndex))(_env, type, constructor, a);
        if (ExceptionCheck())
        {
            ClearPending();
            DeleteLocalRef(result);
            return IntPtr.Zero;
        }
        return result;
    }

    internal void CallVoidQuietly(IntPtr target, IntPtr method, ReadOnlySpan<JValue> args)
    {
        fixed (JValue* a = args) ((delegate* unmanaged<IntPtr, IntPtr, IntPtr, JValue*, void>)Fn(CallVoidMethodAIndex))(_env, target, method, a);
        ClearPending();
    }

    private static byte[] Utf8(string value)
    {
        // JNI wants modified UTF-8; names, signatures and messages here are ASCII except for messages, where a
        // lone NUL would only cut the text short.
        var bytes = new byte[System.Text.Encoding.UTF8.GetByteCount(value) + 1];
        System.Text.Encoding.UTF8.GetBytes(value, bytes);
        return bytes;
    }
}

/// <summary>A JNI <c>jvalue</c>: one argument of a <c>Call…MethodA</c> call.</summary>
[StructLayout(LayoutKind.Explicit, Size = 8)]
public readonly struct JValue
{
    [FieldOffset(0)] private readonly long _long;
    [FieldOffset(0)] private readonly int _int;
    [FieldOffset(0)] private readonly short _short;
    [FieldOffset(0)] private readonly byte _byte;
    [FieldOffset(0)] private readonly IntPtr _object;

    private JValue(long value) => _long = value;

    private JValue(int value) => _int = value;

    private JValue(short value) => _short = value;

    private JValue(byte value) => _byte = value;

    private JValue(IntPtr value) => _object = value;

    /// <summary>A <c>long</c> argument.</summary>
    public static JValue Of(long value) => new(value);

    /// <summary>An <c>int</c> argument.</summary>
    public static JValue Of(int value) => new(value);

    /// <summary>A <c>short</c> argument.</summary>
    public static JValue Of(short value) => new(value);

    /// <summary>A <c>boolean</c> argument.</summary>
    public static JValue Of(bool value) => new(value ? (byte)1 : (byte)0);

    /// <summary>An object argument (a local or global reference, or zero for null).</summary>
    public static JValue Ref(IntPtr value) => new(value);
}
