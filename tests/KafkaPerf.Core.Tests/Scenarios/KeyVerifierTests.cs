using KafkaPerf.Measurement;

namespace KafkaPerf.Core.Tests.Scenarios;

public class KeyVerifierTests
{
    [Fact]
    public void Observe_EveryKeyOnce_IsCompleteWithNothingLost()
    {
        var verifier = new KeyVerifier(1000);
        for (long key = 999; key >= 0; key--) verifier.Observe(key);

        Assert.True(verifier.IsComplete);
        Assert.Equal(0, verifier.Lost);
        Assert.Equal(0, verifier.Duplicates);
    }

    [Fact]
    public void Observe_InjectedLossDuplicateAndStranger_CountsEach()
    {
        var verifier = new KeyVerifier(130);
        for (long key = 0; key < 130; key++)
            if (key != 64) verifier.Observe(key);
        verifier.Observe(3);
        verifier.Observe(129);
        verifier.Observe(130);
        verifier.Observe(-1);

        Assert.False(verifier.IsComplete);
        Assert.Equal(1, verifier.Lost);
        Assert.Equal(2, verifier.Duplicates);
        Assert.Equal(2, verifier.Unexpected);
    }
}
