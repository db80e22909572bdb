using System.Buffers.Binary;
using System.Diagnostics;
using System.IO.Compression;

namespace KafkaPerf.Core.Tests.Reporting;

/// <summary>Debian's headless Chromium (eng/install-prerequisites.sh --tests installs it), for the tests that look at the
/// report and its charts as a browser shows them: found on the PATH, run with its profile in a folder of the test's own,
/// and its screenshots decoded.</summary>
internal static class HeadlessChromium
{
    private static readonly TimeSpan BrowserTimeout = TimeSpan.FromSeconds(90);

    public static string Find()
    {
        foreach (var name in new[] { "chromium", "chromium-browser" })
        {
            foreach (var dir in (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
            {
                var path = Path.Combine(dir, name);
                if (File.Exists(path)) return path;
            }
        }
        Assert.Fail("chromium is not installed, and this test renders the report or its charts in it: run eng/install-prerequisites.sh --tests (or apt-get install chromium).");
        return string.Empty;
    }

    /// <summary>Runs headless Chromium with its profile, caches and crash reports inside <paramref name="home"/> (deleted
    /// by the test), killing it and everything it started when it outlives the timeout.</summary>
    public static async Task<(int Exit, string Stdout, string Stderr)> RunAsync(string chromium, string home, params string[] args)
    {
        var start = new ProcessStartInfo(chromium) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var arg in new[] { "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-breakpad", $"--user-data-dir={Path.Combine(home, "profile")}" }.Concat(args))
            start.ArgumentList.Add(arg);
        start.Environment["HOME"] = home;
        start.Environment["XDG_CONFIG_HOME"] = Path.Combine(home, "config");
        start.Environment["XDG_CACHE_HOME"] = Path.Combine(home, "cache");
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(BrowserTimeout);
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync();
            Assert.Fail($"chromium {string.Join(' ', args)} did not finish within {BrowserTimeout.TotalSeconds} s and was killed.");
        }
        return (process.ExitCode, await stdout, await stderr);
    }

    public static bool Near(int rgb, int target) =>
        Math.Abs(((rgb >> 16) & 0xff) - ((target >> 16) & 0xff)) <= 10
        && Math.Abs(((rgb >> 8) & 0xff) - ((target >> 8) & 0xff)) <= 10
        && Math.Abs((rgb & 0xff) - (target & 0xff)) <= 10;

    /// <summary>Decodes an 8-bit RGB or RGBA PNG (what Chromium writes) into 0xRRGGBB pixels.</summary>
    public static (int Width, int Height, int[] Pixels) DecodePng(byte[] png)
    {
        Assert.True(png.AsSpan(0, 8).SequenceEqual(new byte[] { 0x89, (byte)'P', (byte)'N', (byte)'G', 0x0d, 0x0a, 0x1a, 0x0a }), "not a PNG");
        int width = 0, height = 0, channels = 0;
        using var compressed = new MemoryStream();
        for (int at = 8; at < png.Length;)
        {
            int length = BinaryPrimitives.ReadInt32BigEndian(png.AsSpan(at));
            var type = System.Text.Encoding.ASCII.GetString(png, at + 4, 4);
            var data = png.AsSpan(at + 8, length);
            if (type == "IHDR")
            {
                width = BinaryPrimitives.ReadInt32BigEndian(data);
                height = BinaryPrimitives.ReadInt32BigEndian(data[4..]);
                Assert.Equal(8, data[8]);
                channels = data[9] switch { 2 => 3, 6 => 4, _ => throw new InvalidDataException($"PNG colour type {data[9]} is not RGB(A)") };
                Assert.Equal(0, data[12]); // not interlaced
            }
            else if (type == "IDAT")
            {
                compressed.Write(data);
            }
            at += 12 + length;
        }
        compressed.Position = 0;
        using var inflated = new MemoryStream();
        using (var zlib = new ZLibStream(compressed, CompressionMode.Decompress)) zlib.CopyTo(inflated);
        var raw = inflated.ToArray();
        int stride = width * channels;
        var previous = new byte[stride];
        var current = new byte[stride];
        var pixels = new int[width * height];
        for (int y = 0; y < height; y++)
        {
            int row = y * (stride + 1);
            byte filter = raw[row];
            for (int x = 0; x < stride; x++)
            {
                int a = x >= channels ? current[x - channels] : 0, b = previous[x], c = x >= channels ? previous[x - channels] : 0;
                int predictor = filter switch
                {
                    0 => 0,
                    1 => a,
                    2 => b,
                    3 => (a + b) / 2,
                    4 => Paeth(a, b, c),
                    _ => throw new InvalidDataException($"PNG filter {filter}"),
                };
                current[x] = (byte)(raw[row + 1 + x] + predictor);
            }
            for (int x = 0; x < width; x++)
                pixels[(y * width) + x] = (current[x * channels] << 16) | (current[(x * channels) + 1] << 8) | current[(x * channels) + 2];
            (previous, current) = (current, previous);
        }
        return (width, height, pixels);
    }

    private static int Paeth(int a, int b, int c)
    {
        int p = a + b - c, pa = Math.Abs(p - a), pb = Math.Abs(p - b), pc = Math.Abs(p - c);
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
}
