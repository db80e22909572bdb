using System.Diagnostics;
using System.Xml.Linq;
using KafkaPerf.Adapters.Profiling;
using KafkaPerf.Adapters.References;

namespace KafkaPerf.Adapters.Tests.Profiling;

/// <summary>Reading <c>perf script</c>'s output, folding it, splitting it by layer, drawing it; and a child's CPU time.</summary>
public class ProfilingTests
{
    // perf script -F comm,tid,time,ip,sym,dso --ns, as perf 6.1 printed it for the confluent client (shortened paths).
    private const string Script = """
        .NET Long Runni 24610 64841.845683123: 
        	          19d2df rd_kafka_msgset_create_ProduceRequest (/app/runtimes/linux-x64/native/librdkafka.so)
        	          1a0000 rd_kafka_broker_serve (/app/runtimes/linux-x64/native/librdkafka.so)
        	           891f5 start_thread (/usr/lib/x86_64-linux-gnu/libc.so.6)

        .NET Long Runni 24610 64841.847000000: 
        	          152c45 __memmove_avx_unaligned_erms (/usr/lib/x86_64-linux-gnu/libc.so.6)
        	    7fceaf0918d8 instance void [Confluent.Kafka] Confluent.Kafka.Producer`2[System.Int64,System.__Canon]::Produce(class Confluent.Kafka.TopicPartition,class Confluent.Kafka.Message`2<!0,!1>,class [System.Runtime]System.Action`1<class Confluent.Kafka.DeliveryReport`2<!0,!1>>)[OptimizedTier1] (/tmp/perf-24564.map)
        	    7fceaf09187e instance void [KafkaPerf.Adapters] KafkaPerf.Adapters.Confluent.ConfluentProducer::Send(int64)[OptimizedTier1] (/tmp/perf-24564.map)

        rdk:broker1 24616 64841.848000000: 
        	ffffffff8226590a __schedule ([kernel.kallsyms])
        	           f82ec write (/usr/lib/x86_64-linux-gnu/libc.so.6)
        	          1a0100 rd_kafka_transport_send (/app/runtimes/linux-x64/native/librdkafka.so)

        .NET Long Runni 24610 64841.849000000: 
        	          3ca954 [unknown] (/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.12/libcoreclr.so)
        	    7fceaf0918d8 instance void [Confluent.Kafka] Confluent.Kafka.Producer`2[System.Int64,System.__Canon]::Produce(class Confluent.Kafka.TopicPartition)[OptimizedTier1] (/tmp/perf-24564.map)

        rdk:broker1 24616 64841.849500000: 
        	          2b7afb rd_hdr_histogram_record (/app/runtimes/linux-x64/native/librdkafka.so)
        	    7f5190134c10 [unknown] ([unknown])
        	    7f5190025bb8 [unknown] ([unknown])
        	    6c666e6f635f [unknown] ([unknown])

        C2 CompilerThre 18545 64841.850000000: 
        	    7f5190134c10 [unknown] (/tmp/perf-24564.map)
        	          e4314c Symbol::increment_refcount (/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so)

        """;

    [Theory]
    [InlineData(3, false, true)]
    [InlineData(4, false, true)]
    [InlineData(3, true, false)]
    [InlineData(2, false, false)]
    [InlineData(-1, false, false)]
    public void ParanoiaRefusal_AboveTwoWithoutRoot_OneLineThatSaysWhatToDo(int paranoia, bool root, bool refused)
    {
        var line = PerfProfiler.ParanoiaRefusal(paranoia, root);

        Assert.Equal(refused, line is not null);
        if (line is null) return;
        Assert.DoesNotContain('\n', line);
        Assert.Contains($"perf_event_paranoid is {paranoia}", line, StringComparison.Ordinal);
        Assert.Contains("sudo sysctl kernel.perf_event_paranoid=2", line, StringComparison.Ordinal);
    }

    [Fact]
    public void Read_PerfScriptOutput_EverySampleWithItsThreadTimeAndFramesInnermostFirst()
    {
        var samples = PerfScriptReader.Read(new StringReader(Script)).ToList();

        Assert.Equal(6, samples.Count);
        Assert.Equal(".NET Long Runni", samples[0].Thread);
        Assert.Equal(64841.845683123, samples[0].Seconds, 9);
        Assert.Equal(("rd_kafka_msgset_create_ProduceRequest", "/app/runtimes/linux-x64/native/librdkafka.so"), samples[0].Frames[0]);
        Assert.Equal("rdk:broker1", samples[2].Thread);
        Assert.Equal(3, samples[2].Frames.Count);
        Assert.StartsWith("instance void [Confluent.Kafka] Confluent.Kafka.Producer`2", samples[1].Frames[1].Symbol, StringComparison.Ordinal);
        Assert.Equal("/tmp/perf-24564.map", samples[1].Frames[1].Dso);
    }

    [Fact]
    public void Fold_Samples_LayersByInnermostFrameCLibraryCountsForItsCallerAndNamesAreShort()
    {
        var stacks = new FoldedStacks();
        foreach (var sample in PerfScriptReader.Read(new StringReader(Script))) stacks.Add(sample.Thread, sample.Frames);

        Assert.Equal(6, stacks.Samples);
        // librdkafka's own frame; memmove called by Confluent.Kafka counts for it; the kernel as itself; CoreCLR as the runtime;
        // JIT code no map names, called by the JVM, for the JVM.
        Assert.Equal(2, stacks.Layers[ProfileLayers.Librdkafka]);
        Assert.Equal(1, stacks.Layers[ProfileLayers.ConfluentKafka]);
        Assert.Equal(1, stacks.Layers[ProfileLayers.Kernel]);
        Assert.Equal(1, stacks.Layers[ProfileLayers.DotNetRuntime]);
        Assert.Equal(1, stacks.Layers[ProfileLayers.Jvm]);
        Assert.Contains(".NET_Long_Runni;start_thread;rd_kafka_broker_serve;rd_kafka_msgset_create_ProduceRequest", stacks.Stacks.Keys);
        Assert.Contains(".NET_Long_Runni;KafkaPerf.Adapters.Confluent.ConfluentProducer::Send;Confluent.Kafka.Producer`2[System.Int64,System.__Canon]::Produce;__memmove_avx_unaligned_erms",
            stacks.Stacks.Keys);
        // A run of frames perf could not name (a walk through code without frame pointers) is one frame.
        Assert.Contains("rdk:broker1;[unknown];rd_hdr_histogram_record", stacks.Stacks.Keys);
        Assert.Equal(ProfileLayers.KafkaPerf, stacks.FrameLayers["KafkaPerf.Adapters.Confluent.ConfluentProducer::Send"]);
        Assert.Equal(ProfileLayers.DotNetRuntime, stacks.FrameLayers["[libcoreclr.so]"]);
    }

    [Fact]
    public void Write_FoldedAndFlameGraph_OneLinePerStackAndAnSvgWithALegend()
    {
        var stacks = new FoldedStacks();
        foreach (var sample in PerfScriptReader.Read(new StringReader(Script))) stacks.Add(sample.Thread, sample.Frames);
        var folder = Directory.CreateTempSubdirectory("kafkaperf-profile-test-");
        try
        {
            var folded = Path.Combine(folder.FullName, "p.folded");
            var svg = Path.Combine(folder.FullName, "p.svg");
            stacks.Write(folded);
            FlameGraph.Write(stacks, "confluent <produce> & more", svg);

            var lines = File.ReadAllLines(folded);
            Assert.Equal(stacks.Stacks.Count, lines.Length);
            Assert.All(lines, line => Assert.Matches(@"^\S+ \d+$", line));
            var document = XDocument.Load(svg);
            var texts = document.Descendants().Where(e => e.Name.LocalName == "text").Select(e => e.Value).ToList();
            Assert.Contains("confluent <produce> & more", texts);
            Assert.Contains(ProfileLayers.Librdkafka, texts);
            Assert.Contains(document.Descendants().Where(e => e.Name.LocalName == "title"), t => t.Value.StartsWith("rd_kafka_msgset_create_ProduceRequest (librdkafka): 1 samples", StringComparison.Ordinal));
            // Nothing half-written is left.
            Assert.Equal(["p.folded", "p.svg"], folder.GetFiles().Select(f => f.Name).Order());
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public void ChildCpu_AToolThatBurnsCpu_ItsReapedCpuLessWhatItUsedBeforeItsSection()
    {
        var before = ChildCpu.Reaped();
        using var child = Process.Start(new ProcessStartInfo("sh", ["-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done; sleep 0.3"]))!;
        // While it sleeps, its own reading holds what it burnt.
        Thread.Sleep(100);
        var early = ChildCpu.Of(child.Id);
        child.WaitForExit();
        var resources = ChildCpu.Section(before, (0, 0), ChildCpu.Reaped());

        Assert.NotNull(early);
        Assert.NotNull(resources);
        Assert.True(resources.CpuSeconds > 0.05, $"{resources.CpuSeconds} s");
        // Less what it used before its section: had its section started at its end, nothing of it is left (other tests'
        // children may end meanwhile and count, but not as much as it burnt).
        var section = ChildCpu.Section(before, (resources.CpuUserSeconds, resources.CpuSystemSeconds), ChildCpu.Reaped());
        Assert.True(section!.CpuSeconds < resources.CpuSeconds / 2, $"{section.CpuSeconds} s of {resources.CpuSeconds} s");
    }
}
