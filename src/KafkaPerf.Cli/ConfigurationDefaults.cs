using System.CommandLine;
using Microsoft.Extensions.Configuration;

namespace KafkaPerf.Cli;

/// <summary>
/// Options from configuration: an optional <c>kafkaperf.json</c> in the current folder, then <c>KAFKAPERF_</c>
/// variables, then flags, each overriding the one before. A section per command holds its options by name without the
/// dashes (<c>{"run": {"clients": "confluent,java", "repeat": 20}}</c>, or <c>KAFKAPERF_RUN__REPEAT=20</c>); the values
/// become flags placed before the ones typed, so the parser checks them alike and a typed flag wins.
/// </summary>
internal static class ConfigurationDefaults
{
    /// <summary>The optional configuration file, read from the current folder.</summary>
    public const string FileName = "kafkaperf.json";

    /// <summary>The prefix of the variables read (<c>KAFKAPERF_RUN__REPEAT</c> is <c>run:repeat</c>).</summary>
    public const string VariablePrefix = "KAFKAPERF_";

    /// <summary>Adds the file and the variables to a configuration.</summary>
    public static void AddSources(IConfigurationBuilder configuration)
    {
        ArgumentNullException.ThrowIfNull(configuration);
        configuration.AddJsonFile(Path.Combine(Directory.GetCurrentDirectory(), FileName), optional: true, reloadOnChange: false);
        configuration.AddEnvironmentVariables(VariablePrefix);
    }

    /// <summary>The arguments with the configured options of the chosen command inserted after its name.</summary>
    /// <exception cref="InvalidOperationException">A configured key is not an option of the command; the message is one line.</exception>
    public static string[] Apply(string[] args, IConfiguration configuration, RootCommand root)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(configuration);
        ArgumentNullException.ThrowIfNull(root);
        if (args.Length == 0 || root.Subcommands.FirstOrDefault(c => c.Name == args[0]) is not { } command) return args;
        var typed = new HashSet<string>(args.Skip(1).Select(a => a.Split('=', 2)[0]), StringComparer.Ordinal);
        var extra = new List<string>();
        foreach (var entry in configuration.GetSection(command.Name).GetChildren())
        {
            // Variables keep their case (KAFKAPERF_RUN__REPEAT is "REPEAT"); options are lower case.
            // A variable cannot hold a dash in most shells: KAFKAPERF_RUN__STALL_TIMEOUT is --stall-timeout (no option has '_').
            var name = "--" + entry.Key.ToLowerInvariant().Replace('_', '-');
            // Short options keep their case: "X" is -X (a list: {"X": ["confluent:linger.ms=5", "java:linger.ms=5"]}).
            var option = command.Options.FirstOrDefault(o => o.Name == name || o.Aliases.Contains(name) || o.Name == "-" + entry.Key)
                ?? throw new InvalidOperationException(
                    $"'{command.Name}:{entry.Key}' (from {FileName} or {VariablePrefix}{command.Name.ToUpperInvariant()}__{entry.Key.ToUpperInvariant()}) is not an option of {command.Name}: see 'dotnet kafkaperf {command.Name} --help'.");
            if (typed.Contains(option.Name) || option.Aliases.Any(typed.Contains)) continue;
            var values = entry.Value is { } single ? [single] : entry.GetChildren().Select(c => c.Value ?? string.Empty).ToList();
            if (option is Option<bool>)
            {
                if (values is [var flag] && bool.TryParse(flag, out var on) && on) extra.Add(option.Name);
                else if (!(values is [var off] && bool.TryParse(off, out _)))
                    throw new InvalidOperationException($"'{command.Name}:{entry.Key}' is '{string.Join(',', values)}': write true or false.");
                continue;
            }
            if (option.Arity.MaximumNumberOfValues > 1)
            {
                foreach (var value in values) extra.AddRange([option.Name, value]);
            }
            else
            {
                extra.AddRange([option.Name, string.Join(',', values)]);
            }
        }
        return [args[0], .. extra, .. args[1..]];
    }
}
