using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using KafkaPerf.Clients;
using KafkaPerf.Measurement;
using KafkaPerf.Plans;
using KafkaPerf.Reporting;
using KafkaPerf.Running;
using KafkaPerf.Scenarios;

namespace KafkaPerf.Adapters.Profiling;

/// <summary>
/// <c>--profile</c> with Linux's <c>perf</c>: one <c>perf record</c> attached to this process before the first run, its
/// sampling off (<c>--delay=-1</c>) and switched on and off through a control FIFO at the edges of each measured run's
/// timed section; its clock is the stopwatch's (<c>CLOCK_MONOTONIC</c>), so every sample is put in its run by its time.
/// Once the plan has ended, <c>perf script</c> reads the samples back and each client's are folded per cell, written
/// beside the report (<c>.folded</c> and a flame graph), and split by layer.
/// </summary>
public sealed partial class PerfProfiler : IRunProfiler
{
    /// <summary>Set by the tool's restart when it turned the perf map on itself: the map is then the profiler's to delete.</summary>
    public const string OwnsPerfMapVariable = "KAFKAPERF_PERF_MAP_OWNED";

    /// <summary>Samples per second of CPU time (per thread on a CPU): about 2 ms apart, a few thousand for a burst of a
    /// million records, and a perf taking a few percent of a core.</summary>
    public const int Frequency = 499;

    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(20);
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(60);
    private static readonly TimeSpan ScriptTimeout = TimeSpan.FromMinutes(5);

    private readonly string _folder;
    private readonly string _stem;
    private readonly TextWriter? _log;
    private readonly Lock _gate = new();
    private readonly List<(RunDescriptor Run, long Start, long Stop)> _sections = [];
    private string? _work;
    private Process? _perf;

    /// <param name="folder">Where the report goes: the profiles are written beside it.</param>
    /// <param name="stem">The report's base name; each profile's files start with it.</param>
    /// <param name="log">Progress lines (<c>kafkaperf: …</c>), or <see langword="null"/>.</param>
    public PerfProfiler(string folder, string stem, TextWriter? log)
    {
        _folder = folder;
        _stem = stem;
        _log = log;
    }

    /// <inheritdoc />
    public string? Unavailable()
    {
        if (!OperatingSystem.IsLinux()) return "--profile samples with Linux's perf: it runs on Linux only.";
        if (Environment.GetEnvironmentVariable("DOTNET_EnableWriteXorExecute") != "0" || Environment.GetEnvironmentVariable("DOTNET_PerfMapEnabled") is null or "0" or "2")
            return "--profile needs DOTNET_EnableWriteXorExecute=0 and DOTNET_PerfMapEnabled=3 when the process starts (the kafkaperf tool sets them for itself unless KAFKAPERF_NO_RESTART=1): set both and start again.";
        var perf = FindPerf();
        if (perf is null) return "--profile needs Linux's perf, and none is on the PATH: install it (Debian: apt-get install linux-perf; Ubuntu: linux-tools-generic) or drop --profile.";
        if (ParanoiaRefusal(Paranoia(), geteuid() == 0) is { } refused) return refused;
        var (exit, output) = RunQuick(perf, ["--version"]);
        if (exit != 0) return $"--profile cannot run perf here ({Flatten(output)}): install the perf that matches this kernel, or drop --profile.";
        return null;
    }

    /// <inheritdoc />
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        if (_perf is not null) return;
        var perf = FindPerf() ?? throw new PrerequisiteException("--profile needs Linux's perf, and none is on the PATH.");
        _work = Directory.CreateTempSubdirectory("kafkaperf-profile-").FullName;
        var start = new ProcessStartInfo(perf) { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        string[] arguments =
        [
            "record", "-e", "cpu-clock", "-F", Frequency.ToString(CultureInfo.InvariantCulture), "-g", "--clockid", "CLOCK_MONOTONIC",
            "-p", Environment.ProcessId.ToString(CultureInfo.InvariantCulture), "-o", Path.Combine(_work, "perf.data"),
            .. (Paranoia() is >= 2 && geteuid() != 0 ? ["--all-user"] : Array.Empty<string>()),
        ];
        foreach (var argument in arguments) start.ArgumentList.Add(argument);
        ChildEnvironment.RemoveSecrets(start);
        var said = new System.Text.StringBuilder();
        _perf = Process.Start(start) ?? throw new PrerequisiteException("--profile: perf did not start.");
        _perf.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null) lock (said) said.AppendLine(e.Data);
        };
        _perf.BeginErrorReadLine();
        _perf.OutputDataReceived += (_, _) => { };
        _perf.BeginOutputReadLine();
        // Attached once it holds its events open (it says nothing until it ends).
        var deadline = Stopwatch.GetTimestamp() + (long)(StartTimeout.TotalSeconds * Stopwatch.Frequency);
        while (!Attached(_perf.Id))
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (_perf.HasExited || Stopwatch.GetTimestamp() > deadline)
            {
                bool ended = _perf.HasExited;
                if (!ended) _perf.Kill();
                await _perf.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
                string text;
                lock (said) text = said.ToString();
                await DisposeAsync().ConfigureAwait(false);
                throw new PrerequisiteException(ended
                    ? $"--profile: perf record ended at once: {Flatten(text)}"
                    : $"--profile: perf record did not attach within {StartTimeout.TotalSeconds:0} s: {Flatten(text)}");
            }
            await Task.Delay(20, cancellationToken).ConfigureAwait(false);
        }
        _log?.WriteLine($"kafkaperf: perf is attached (pid {_perf.Id}, {Frequency} samples/s a thread); the samples of the measured runs' timed sections are kept.");
    }

    /// <summary>Whether perf holds its sampling events open yet.</summary>
    private static bool Attached(int perfPid)
    {
        try
        {
            return new DirectoryInfo($"/proc/{perfPid}/fd").EnumerateFileSystemInfos()
                .Any(fd => fd.LinkTarget?.Contains("perf_event", StringComparison.Ordinal) == true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <inheritdoc />
    public ISectionProfiler Section(RunDescriptor run) => new RunSection(this, run);

    /// <inheritdoc />
    public async Task<IReadOnlyList<ClientProfile>> FinishAsync(IReadOnlyList<RunRecord> runs, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(runs);
        if (_perf is null || _work is null) return [];
        await StopPerfAsync().ConfigureAwait(false);
        List<(RunDescriptor Run, long Start, long Stop)> sections;
        lock (_gate) sections = [.. _sections.OrderBy(s => s.Start)];
        var measured = runs.Where(r => r.Succeeded && !r.IsWarmup).ToDictionary(r => r.Sequence);
        sections.RemoveAll(s => !measured.ContainsKey(s.Run.Sequence));
        if (sections.Count == 0) return [];
        _log?.WriteLine($"kafkaperf: reading the profile of {sections.Count} run(s) back (perf script)…");

        var starts = sections.Select(s => s.Start / (double)Stopwatch.Frequency).ToArray();
        var stops = sections.Select(s => s.Stop / (double)Stopwatch.Frequency).ToArray();
        var cells = new Dictionary<CellKey, (FoldedStacks Stacks, HashSet<int> Runs)>();
        var order = new List<CellKey>();
        var script = new ProcessStartInfo(FindPerf()!) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in (string[])["script", "-i", Path.Combine(_work, "perf.data"), "-F", "comm,tid,time,ip,sym,dso", "--ns"]) script.ArgumentList.Add(argument);
        using var process = Process.Start(script) ?? throw new PrerequisiteException("--profile: perf script did not start.");
        var errors = process.StandardError.ReadToEndAsync(cancellationToken);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(ScriptTimeout);
        using var kill = timeout.Token.Register(() =>
        {
            try
            {
                process.Kill();
            }
            catch (InvalidOperationException)
            {
                // Gone already.
            }
        });
        await Task.Run(() =>
        {
            foreach (var sample in PerfScriptReader.Read(process.StandardOutput))
            {
                int i = Array.BinarySearch(starts, sample.Seconds);
                if (i < 0) i = ~i - 1;
                if (i < 0 || sample.Seconds > stops[i]) continue;
                var run = measured[sections[i].Run.Sequence];
                var key = new CellKey(run.Client, run.Scenario, run.MessageCount, run.PayloadBytes, run.Variant, run.OfferedRate);
                if (!cells.TryGetValue(key, out var cell))
                {
                    cells[key] = cell = (new FoldedStacks(), []);
                    order.Add(key);
                }
                cell.Stacks.Add(sample.Thread, sample.Frames);
                cell.Runs.Add(run.Sequence);
            }
        }, CancellationToken.None).ConfigureAwait(false);
        await process.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
        cancellationToken.ThrowIfCancellationRequested();
        if (timeout.IsCancellationRequested) throw new TimeoutException($"--profile: perf script did not finish within {ScriptTimeout.TotalMinutes:0} min.");
        if (process.ExitCode != 0 && cells.Count == 0) throw new PrerequisiteException($"--profile: perf script failed: {Flatten(await errors.ConfigureAwait(false))}");

        var profiles = new List<ClientProfile>();
        int number = 0;
        foreach (var key in order)
        {
            var (stacks, sampled) = cells[key];
            number++;
            var name = string.Create(CultureInfo.InvariantCulture,
                $"{_stem}-profile-{number:00}-{Safe(key.Client)}-{key.Scenario.ToString().ToLowerInvariant()}-{key.PayloadBytes}b");
            var folded = Path.Combine(_folder, name + ".folded");
            var flame = Path.Combine(_folder, name + ".svg");
            stacks.Write(folded);
            FlameGraph.Write(stacks, $"{key.Describe()}: {stacks.Samples} samples of {sampled.Count} run(s)", flame);
            _log?.WriteLine($"wrote {folded}");
            _log?.WriteLine($"wrote {flame}");
            profiles.Add(new ClientProfile
            {
                Client = key.Client, Scenario = key.Scenario, MessageCount = key.MessageCount, PayloadBytes = key.PayloadBytes,
                Variant = key.Variant, OfferedRate = key.OfferedRate, Runs = sampled.Count, Samples = stacks.Samples,
                Layers = [.. stacks.Layers.OrderByDescending(l => l.Value).Select(l => new ProfileLayer(l.Key, l.Value, l.Value / (double)stacks.Samples))],
                FoldedFile = Path.GetFileName(folded), FlameGraphFile = Path.GetFileName(flame),
            });
        }
        return profiles;
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        await StopPerfAsync().ConfigureAwait(false);
        _perf?.Dispose();
        _perf = null;
        if (_work is not null)
        {
            try
            {
                Directory.Delete(_work, recursive: true);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // The temporary folder's cleaning takes it.
            }
            _work = null;
        }
        if (Environment.GetEnvironmentVariable(OwnsPerfMapVariable) == "1") DeletePerfMap();
    }

    /// <summary>Deletes this process's perf map (<c>/tmp/perf-PID.map</c>), which the runtime writes as long as it runs: the
    /// map of a process that no longer profiles is noise in <c>/tmp</c>. Only when the tool turned the map on itself
    /// (<see cref="OwnsPerfMapVariable"/>).</summary>
    public static void DeletePerfMap()
    {
        foreach (var map in (string[])[$"/tmp/perf-{Environment.ProcessId}.map", $"/tmp/perfinfo-{Environment.ProcessId}.map"])
        {
            try
            {
                File.Delete(map);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Another user's, or gone.
            }
        }
    }

    private async Task StopPerfAsync()
    {
        if (_perf is not { HasExited: false } perf) return;
        // SIGINT: perf writes out what it holds and ends.
        _ = kill(perf.Id, 2);
        using var timeout = new CancellationTokenSource(StopTimeout);
        try
        {
            await perf.WaitForExitAsync(timeout.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            perf.Kill();
        }
    }

    private sealed class RunSection(PerfProfiler profiler, RunDescriptor run) : ISectionProfiler
    {
        private int _depth;
        private long _start;

        public void Enable()
        {
            if (_depth++ == 0) _start = Stopwatch.GetTimestamp();
        }

        public void Disable()
        {
            if (_depth == 0 || --_depth > 0) return;
            long stop = Stopwatch.GetTimestamp();
            lock (profiler._gate) profiler._sections.Add((run, _start, stop));
        }
    }

    private static string? FindPerf()
    {
        foreach (var folder in (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(':', StringSplitOptions.RemoveEmptyEntries))
        {
            var candidate = Path.Combine(folder, "perf");
            if (File.Exists(candidate)) return candidate;
        }
        return null;
    }

    /// <summary>Why perf cannot sample at this <c>perf_event_paranoid</c>: above 2 it samples nothing but its own
    /// threads without root.</summary>
    /// <param name="paranoia">The kernel's setting; <see langword="null"/> when it cannot be read (perf then says).</param>
    /// <param name="root">Whether the process runs as root, which the setting does not bind.</param>
    /// <returns>One line that says what to do, or <see langword="null"/>.</returns>
    internal static string? ParanoiaRefusal(int? paranoia, bool root) => paranoia is > 2 && !root
        ? $"--profile cannot sample here: /proc/sys/kernel/perf_event_paranoid is {paranoia} (perf needs 2 or less without root): run 'sudo sysctl kernel.perf_event_paranoid=2', run as root, or drop --profile."
        : null;

    private static int? Paranoia()
    {
        try
        {
            return int.Parse(File.ReadAllText("/proc/sys/kernel/perf_event_paranoid").Trim(), CultureInfo.InvariantCulture);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException)
        {
            return null;
        }
    }

    private static (int Exit, string Output) RunQuick(string file, string[] arguments)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in arguments) start.ArgumentList.Add(argument);
        try
        {
            using var process = Process.Start(start)!;
            var output = process.StandardOutput.ReadToEndAsync();
            var errors = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit(10_000))
            {
                process.Kill();
                return (-1, "no answer within 10 s");
            }
            return (process.ExitCode, output.Result + errors.Result);
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            return (-1, ex.Message);
        }
    }

    private static string Flatten(string text)
    {
        var line = text.ReplaceLineEndings(" ").Trim();
        return line.Length <= 300 ? line : line[..300] + "…";
    }

    private static string Safe(string name) => string.Concat(name.Select(c => char.IsLetterOrDigit(c) || c is '-' or '.' ? c : '_'));

    [LibraryImport("libc", EntryPoint = "kill")]
    private static partial int kill(int pid, int signal);

    [LibraryImport("libc", EntryPoint = "geteuid")]
    private static partial uint geteuid();
}
