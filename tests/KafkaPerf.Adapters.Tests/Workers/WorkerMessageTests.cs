using System.Text;
using KafkaPerf.Adapters.Workers;
using KafkaPerf.Clients;
using KafkaPerf.Reporting;

namespace KafkaPerf.Adapters.Tests.Workers;

public class WorkerMessageTests
{
    [Fact]
    public void Read_AResultOfAReferenceTool_KeepsItsClientWhoseCapabilitiesAreNone()
    {
        // A reference tool has no capabilities: the value a "write only what is not default" option left out, so that the
        // coordinator could not read the result and waited for it forever.
        var message = new WorkerMessage
        {
            Type = WorkerMessage.Result, From = "w1", Plan = "p", Sequence = 3, Measurement = [1, 2, 3],
            Info = new ClientInfo { Name = "kcat", LibraryVersion = "kcat 1.7.1", Capabilities = ClientCapabilities.None },
        };

        var read = WorkerMessage.Read(message.ToBytes());

        Assert.NotNull(read);
        Assert.Null(read.Error);
        Assert.Equal(3, read.Sequence);
        Assert.Equal(ClientCapabilities.None, read.Info!.Capabilities);
        Assert.Equal([1, 2, 3], read.Measurement);
    }

    [Fact]
    public void Read_AnEnvelopeWithContentItCannotRead_ComesBackWithAnErrorSoTheRunFailsInsteadOfWaiting()
    {
        var bytes = Encoding.UTF8.GetBytes("""{"type":"result","from":"w2","plan":"p","sequence":4,"info":{"name":7}}""");

        var read = WorkerMessage.Read(bytes);

        Assert.NotNull(read);
        Assert.Equal(("result", "w2", 4), (read.Type, read.From, read.Sequence));
        Assert.StartsWith("its message could not be read", read.Error, StringComparison.Ordinal);
        Assert.Null(WorkerMessage.Read(Encoding.UTF8.GetBytes("not json")));
    }
}
