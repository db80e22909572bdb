namespace KafkaPerf.Core.Tests.Running;

/// <summary>A test-wide cancellation so a hung run fails the test instead of hanging CI.</summary>
internal static class TestRunContext
{
    public static CancellationToken Current => new CancellationTokenSource(TimeSpan.FromMinutes(2)).Token;
}
