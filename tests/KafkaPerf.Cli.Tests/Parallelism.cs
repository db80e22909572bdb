// Most of these tests wait on a tool process, a broker or a signal, not on this process's threads: three run at once
// (xUnit's default is one per core, two on the project's VM, which left the cores a fifth idle; docs/RELIABILITY.md).
[assembly: Xunit.v3.Parallelization(MaxThreads = 3)]
