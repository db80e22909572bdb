using System.IO.Compression;
using System.Text;
using System.Text.RegularExpressions;
using KafkaPerf.Payloads;

namespace KafkaPerf.Core.Tests.Payloads;

public partial class PayloadFactoryTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(100)]
    [InlineData(100_000)]
    public void AccessLog_ExactLengthAsciiLogLinesSameForTheSameSeed(int size)
    {
        var payload = PayloadFactory.Create(PayloadKind.AccessLog, size, seed: 42);
        var again = PayloadFactory.Create(PayloadKind.AccessLog, size, seed: 42);
        var other = PayloadFactory.Create(PayloadKind.AccessLog, size, seed: 43);

        Assert.Equal(size, payload.Length);
        Assert.Equal(payload, again);
        if (size > 50) Assert.NotEqual(payload, other);
        Assert.All(payload, b => Assert.InRange(b, (byte)0x0A, (byte)0x7E));
        if (size >= 100_000)
        {
            var lines = Encoding.ASCII.GetString(payload).Split('\n')[..^1];
            Assert.All(lines, line => Assert.Matches(LogLine(), line));
        }
    }

    [Fact]
    public void AccessLog_CompressesLikeLogsRandomDoesNot()
    {
        double log = GzipRatio(PayloadFactory.Create(PayloadKind.AccessLog, 100_000, 1));
        double random = GzipRatio(PayloadFactory.Create(PayloadKind.Random, 100_000, 1));

        Assert.InRange(log, 0.05, 0.5);
        Assert.True(random > 0.99, $"random payload compressed to {random:P1}");
    }

    [Fact]
    public void File_RepeatedAndCutToEachSize()
    {
        ReadOnlyMemory<byte> file = "abc"u8.ToArray();

        Assert.Equal("abcabcab"u8.ToArray(), PayloadFactory.Create(PayloadKind.File, 8, 0, file));
        Assert.Equal("ab"u8.ToArray(), PayloadFactory.Create(PayloadKind.File, 2, 0, file));
    }

    private static double GzipRatio(byte[] data)
    {
        using var output = new MemoryStream();
        using (var gzip = new GZipStream(output, CompressionLevel.Optimal, leaveOpen: true)) gzip.Write(data);
        return output.Length / (double)data.Length;
    }

    [GeneratedRegex("""^\d+\.\d+\.\d+\.\d+ - - \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d \+0000\] "(GET|POST|PUT|DELETE|HEAD) \S+ HTTP/1\.1" \d{3} \d+ "[^"]*" "[^"]*"$""")]
    private static partial Regex LogLine();
}
