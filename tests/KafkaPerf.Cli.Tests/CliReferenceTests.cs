using System.Text.RegularExpressions;

namespace KafkaPerf.Cli.Tests;

public partial class CliReferenceTests
{
    private static string Root => Plugins.RepositoryFiles.Root;

    [Fact]
    public void CliDoc_IsWhatTheCommandLineDefinitionsSay()
    {
        var generated = CliReference.Markdown(Program.CommandTree());
        var path = Path.Combine(Root, "docs", "cli.md");

        if (Environment.GetEnvironmentVariable("KAFKAPERF_WRITE_CLI_DOC") == "1") File.WriteAllText(path, generated);

        Assert.True(File.Exists(path), "docs/cli.md is missing: KAFKAPERF_WRITE_CLI_DOC=1 dotnet test tests/KafkaPerf.Cli.Tests --filter CliReference writes it.");
        Assert.Equal(generated, File.ReadAllText(path));
    }

    [Fact]
    public void CliDoc_HasEveryCommandAndOption()
    {
        var doc = CliReference.Markdown(Program.CommandTree());

        foreach (var command in Program.CommandTree().Subcommands)
        {
            Assert.Contains($"## {command.Name}\n", doc, StringComparison.Ordinal);
            Assert.All(command.Options.Where(o => !o.Hidden && o.Name != "--help"), o => Assert.Contains($"`{o.Name}`", doc, StringComparison.Ordinal));
        }
        Assert.Contains("| `--plugin` | – |", doc, StringComparison.Ordinal);
        Assert.Contains("| `--repeat` | `5` | Measured runs per client and cell. |", doc, StringComparison.Ordinal);
    }

    [Fact]
    public void Readme_AndTheCiRecipe_EveryOptionOfEveryCommandTheyShowExists()
    {
        var tree = Program.CommandTree();
        var problems = new List<string>();
        foreach (var line in new[] { "README.md", "docs/ci.md" }.SelectMany(f => File.ReadLines(Path.Combine(Root, f))).Where(l => l.Contains("dotnet kafkaperf ", StringComparison.Ordinal)))
        {
            var match = Command().Match(line);
            if (!match.Success) continue;
            var command = tree.Subcommands.FirstOrDefault(c => c.Name == match.Groups[1].Value);
            if (command is null)
            {
                problems.Add($"no command '{match.Groups[1].Value}': {line.Trim()}");
                continue;
            }
            // A command's own subcommand (history trend) when the next word names one.
            var rest = line[(match.Index + match.Length)..].TrimStart();
            var next = rest.Split(' ', 2)[0];
            if (command.Subcommands.FirstOrDefault(c => c.Name == next) is { } subcommand) command = subcommand;
            foreach (Match option in OptionName().Matches(line[match.Index..]))
            {
                if (!command.Options.Any(o => o.Name == option.Value || o.Aliases.Contains(option.Value)) && option.Value != "--verbose")
                    problems.Add($"'{command.Name}' has no option {option.Value}: {line.Trim()}");
            }
        }
        Assert.True(problems.Count == 0, string.Join("\n", problems));
    }

    [Fact]
    public void Readme_SaysHowToInstallTheToolBeforeItsFirstCommand()
    {
        // A newcomer reads from the top: the first 'dotnet kafkaperf' line must not come before the install (the README
        // said how to install the global tool only near its end, once).
        var lines = File.ReadAllLines(Path.Combine(Root, "README.md"));
        int install = Array.FindIndex(lines, l => l.Contains("dotnet tool install", StringComparison.Ordinal));
        int first = Array.FindIndex(lines, l => l.Contains("dotnet kafkaperf ", StringComparison.Ordinal));
        Assert.True(install >= 0, "the README does not say how to install the tool");
        Assert.True(first > install, $"line {first + 1} uses dotnet kafkaperf before line {install + 1} installs it");
    }

    [Fact]
    public void Readme_AtMost250Lines()
    {
        // The README answers what, why, install and the questions in a page a newcomer reads through; the rest is in docs/.
        var lines = File.ReadAllLines(Path.Combine(Root, "README.md")).Length;
        Assert.True(lines <= 250, $"README.md has {lines} lines; keep it to 250 and move detail into docs/");
    }

    [GeneratedRegex(@"dotnet kafkaperf ([a-z-]+)")]
    private static partial Regex Command();

    [GeneratedRegex(@"(?<![\w-])--[a-z][a-z-]*")]
    private static partial Regex OptionName();
}
