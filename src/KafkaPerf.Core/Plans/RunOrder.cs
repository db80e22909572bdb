namespace KafkaPerf.Plans;

/// <summary>The order in which clients run the repetitions of one cell.</summary>
public static class RunOrder
{
    /// <summary>Balanced rounds: even rounds in the given order, odd rounds reversed (A B B A A B …).</summary>
    /// <param name="clients">Client names.</param>
    /// <param name="repeat">Rounds (repetitions per client).</param>
    /// <returns>One entry per run: the client and its 1-based repetition.</returns>
    public static IReadOnlyList<(string Client, int Repetition)> Balanced(IReadOnlyList<string> clients, int repeat)
    {
        ArgumentNullException.ThrowIfNull(clients);
        var order = new List<(string, int)>(clients.Count * repeat);
        for (int round = 0; round < repeat; round++)
        {
            for (int i = 0; i < clients.Count; i++)
                order.Add((clients[round % 2 == 0 ? i : clients.Count - 1 - i], round + 1));
        }
        return order;
    }

    /// <summary>Shuffled rounds: every round is a random permutation drawn from <paramref name="seed"/>.</summary>
    /// <param name="clients">Client names.</param>
    /// <param name="repeat">Rounds (repetitions per client).</param>
    /// <param name="seed">The seed, recorded in the result so the order can be reproduced.</param>
    /// <returns>One entry per run: the client and its 1-based repetition.</returns>
    public static IReadOnlyList<(string Client, int Repetition)> Shuffled(IReadOnlyList<string> clients, int repeat, int seed)
    {
        ArgumentNullException.ThrowIfNull(clients);
#pragma warning disable CA5394 // Run order needs reproducibility, not unpredictability.
        var random = new Random(seed);
        var order = new List<(string, int)>(clients.Count * repeat);
        var round = clients.ToArray();
        for (int r = 0; r < repeat; r++)
        {
            random.Shuffle(round);
#pragma warning restore CA5394
            foreach (var client in round) order.Add((client, r + 1));
        }
        return order;
    }
}
