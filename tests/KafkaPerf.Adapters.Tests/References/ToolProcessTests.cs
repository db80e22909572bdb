using System.Diagnostics;
using KafkaPerf.Adapters.References;

namespace KafkaPerf.Adapters.Tests.References;

public class ToolProcessTests
{
    [Fact]
    public void KillOn_ToolThatNeverWrites_TimeoutEndsTheBlockingReadAndTheTool()
    {
        using var tool = ToolProcess.Start("sleep", ["60"]);
        var watch = Stopwatch.StartNew();

        int read;
        using (tool.KillOn(TimeSpan.FromSeconds(1), CancellationToken.None))
            read = tool.Output.Read(new byte[16]);

        Assert.Equal(0, read);
        Assert.True(tool.TimedOut);
        Assert.InRange(watch.Elapsed, TimeSpan.FromSeconds(0.9), TimeSpan.FromSeconds(10));
        Assert.True(tool.WaitForExit(TimeSpan.FromSeconds(5), CancellationToken.None));
    }

    [Fact]
    public void KillOn_Cancelled_EndsTheBlockingReadAndWaitForExitThrows()
    {
        using var tool = ToolProcess.Start("sleep", ["60"]);
        using var cancel = new CancellationTokenSource(TimeSpan.FromSeconds(1));

        int read;
        using (tool.KillOn(TimeSpan.FromMinutes(5), cancel.Token))
            read = tool.Output.Read(new byte[16]);

        Assert.Equal(0, read);
        Assert.False(tool.TimedOut);
        Assert.Throws<OperationCanceledException>(() => tool.WaitForExit(TimeSpan.FromSeconds(5), cancel.Token));
        Assert.True(tool.HasExited);
    }
}
