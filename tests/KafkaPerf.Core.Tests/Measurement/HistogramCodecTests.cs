using HdrHistogram;
using HdrHistogram.Utilities;
using KafkaPerf.Measurement;

namespace KafkaPerf.Core.Tests.Measurement;

/// <summary>HdrHistogram's compressed form, encoded and decoded: a wide histogram whose payload inflates beyond one stream
/// read (which HdrHistogram.NET's own decoder cannot read back on .NET 6 and later) comes back exactly.</summary>
public class HistogramCodecTests
{
    [Theory]
    [InlineData(1_000)]
    [InlineData(200_000)]
    public void WideHistogram_DecodesBackExactly(int values)
    {
        var random = new Random(7);
        var histogram = Histograms.Create();
        // Log-uniform from 10 µs to 3 s: every bucket of five decades has counts, as a second of a run with spikes has.
        for (int i = 0; i < values; i++) histogram.RecordValue((long)Math.Exp(Math.Log(1e4) + (random.NextDouble() * (Math.Log(3e9) - Math.Log(1e4)))));

        var bytes = HistogramCodec.Encode(histogram);
        var back = HistogramCodec.Decode(bytes);

        Assert.Equal(histogram.TotalCount, back.TotalCount);
        Assert.Equal(histogram.GetMaxValue(), back.GetMaxValue());
        foreach (double percentile in new[] { 50.0, 99.0, 99.9 })
            Assert.Equal(histogram.GetValueAtPercentile(percentile), back.GetValueAtPercentile(percentile));
        if (values == 200_000)
        {
            // The library's own decoder fails on exactly this payload: the reason for ours.
            Assert.ThrowsAny<Exception>(() => HistogramEncoding.DecodeFromCompressedByteBuffer(ByteBuffer.Allocate(bytes), 0));
        }
    }

    [Fact]
    public void NotAHistogram_FormatException()
    {
        Assert.Throws<FormatException>(() => HistogramCodec.Decode([1, 2, 3]));
        Assert.Throws<FormatException>(() => HistogramCodec.Decode([0x1c, 0x84, 0x93, 0x14, 0, 0, 0, 4, 1, 2, 3, 4]));
    }
}
