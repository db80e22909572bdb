using System.CommandLine;
using System.Globalization;
using System.Text;

namespace KafkaPerf.Cli;

/// <summary>
/// docs/cli.md, written from the command-line definitions themselves (<see cref="Program.CommandTree"/>): every command,
/// argument and option with its default and description, so that the page cannot drift from the tool (a test compares
/// them).
/// </summary>
internal static class CliReference
{
    /// <summary>The page.</summary>
    /// <param name="root">The tool's commands.</param>
    /// <returns>Markdown, with <c>\n</c> line ends.</returns>
    public static string Markdown(RootCommand root)
    {
        ArgumentNullException.ThrowIfNull(root);
        var page = new StringBuilder();
        page.Append("# Command line\n\n");
        page.Append("<!-- Generated from the command-line definitions: do not edit. tests/KafkaPerf.Cli.Tests/CliReferenceTests.cs checks it;\n");
        page.Append("     KAFKAPERF_WRITE_CLI_DOC=1 dotnet test tests/KafkaPerf.Cli.Tests --filter CliReference rewrites it. -->\n\n");
        page.Append(root.Description).Append("\n\n");
        page.Append("Run it as `dotnet kafkaperf COMMAND …` once the global tool is installed, or `dotnet run --project src/KafkaPerf.Cli -c Release -- COMMAND …` ");
        page.Append("from a clone. Options can also come from a `kafkaperf.json` in the current folder and from `KAFKAPERF_` variables (a section ");
        page.Append("per command: `{\"run\": {\"repeat\": 20}}`, `KAFKAPERF_RUN__REPEAT=20`); each overrides the one before, and flags override both. ");
        page.Append("Bad input is one line and exit code 2; exit codes: 0 success, 1 a run failed, 2 bad input, 3 the broker or workers failed, ");
        page.Append("4 `compare` found a slower cell, 5 the results store did not take a result (its files are written), 130/143 Ctrl+C/SIGTERM.\n\n");
        foreach (var option in root.Options.Where(o => !o.Hidden && o.Name is not ("--help" or "--version"))) page.Append(CultureInfo.InvariantCulture, $"Every command takes `{option.Name}`: {option.Description}\n\n");
        foreach (var command in root.Subcommands.Where(c => !c.Hidden))
            page.Append(CultureInfo.InvariantCulture, $"- [`{command.Name}`](#{command.Name}) — {command.Description}\n");
        page.Append('\n');
        foreach (var command in root.Subcommands.Where(c => !c.Hidden)) Section(page, command, command.Name, "##");
        return page.ToString();
    }

    /// <summary>A command's section, and its own subcommands' under it (<c>history list</c>).</summary>
    private static void Section(StringBuilder page, Command command, string path, string heading)
    {
        page.Append(CultureInfo.InvariantCulture, $"{heading} {path}\n\n{command.Description}\n\n");
        var arguments = command.Arguments.Where(a => !a.Hidden).ToList();
        var subcommands = command.Subcommands.Where(c => !c.Hidden).ToList();
        page.Append(CultureInfo.InvariantCulture, $"```\ndotnet kafkaperf {path}{(subcommands.Count > 0 ? " <command>" : string.Empty)}{string.Concat(arguments.Select(a => $" <{a.Name}>"))} [options]\n```\n\n");
        if (arguments.Count > 0)
        {
            page.Append("| argument | description |\n|---|---|\n");
            foreach (var argument in arguments) page.Append(CultureInfo.InvariantCulture, $"| `{argument.Name}` | {Cell(argument.Description)} |\n");
            page.Append('\n');
        }
        var options = command.Options.Where(o => !o.Hidden && o.Name is not ("--help" or "--version")).ToList();
        if (options.Count > 0)
        {
            page.Append("| option | default | description |\n|---|---|---|\n");
            foreach (var option in options)
            {
                var name = option.Required ? $"`{option.Name}` (required)" : $"`{option.Name}`";
                page.Append(CultureInfo.InvariantCulture, $"| {name} | {Default(option)} | {Cell(option.Description)} |\n");
            }
            page.Append('\n');
        }
        foreach (var subcommand in subcommands) Section(page, subcommand, $"{path} {subcommand.Name}", heading + "#");
    }

    private static string Default(Option option)
    {
        if (!option.HasDefaultValue) return "–";
        var value = option.GetDefaultValue();
        return value switch
        {
            null => "–",
            bool flag => flag ? "on" : "off",
            string text => text.Length == 0 ? "–" : $"`{text}`",
            IFormattable number => $"`{number.ToString(null, CultureInfo.InvariantCulture)}`",
            _ => $"`{value}`",
        };
    }

    private static string Cell(string? text) => (text ?? string.Empty).Replace("|", "\\|", StringComparison.Ordinal).ReplaceLineEndings(" ");
}
