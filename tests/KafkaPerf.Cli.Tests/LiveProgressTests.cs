using System.Diagnostics;

namespace KafkaPerf.Cli.Tests;

public class LiveProgressTests
{
    [Fact]
    public async Task Run_OnATerminal_ShowsALiveBarWithCellRunAndMsgPerSecond()
    {
        var output = Directory.CreateTempSubdirectory("kafkaperf-cli-");
        try
        {
            // util-linux's script gives the tool a pseudo-terminal, as a user's shell would.
            var tool = $"dotnet '{Path.Combine(AppContext.BaseDirectory, "dotnet-kafkaperf.dll")}' run --clients inmemory --messages 200000 --sizes 100 --scenarios produce --repeat 20 --output '{output.FullName}'";
            var start = new ProcessStartInfo("script", ["-q", "-e", "-c", $"stty cols 200; {tool}", "/dev/null"])
            {
                RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true, UseShellExecute = false,
            };
            start.Environment["TERM"] = "xterm";
            using var process = Process.Start(start)!;
            var screen = process.StandardOutput.ReadToEndAsync();
            using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2));
            await process.WaitForExitAsync(timeout.Token);
            var text = await screen;

            Assert.True(process.ExitCode == 0, text);
            Assert.Contains("━", text, StringComparison.Ordinal);
            Assert.Matches(@"produce 200,000 × 100 B · inmemory run \d+ · \d+/21 · last [\d,]+ msg/s", text);
            Assert.Contains("[  21/21] produce", text, StringComparison.Ordinal);
            Assert.Contains("## Per-client statistics", text, StringComparison.Ordinal);
            Assert.Equal(["csv", "html", "json", "md", "svg"], output.GetFiles().Select(f => f.Extension.TrimStart('.')).Order());
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }
}
