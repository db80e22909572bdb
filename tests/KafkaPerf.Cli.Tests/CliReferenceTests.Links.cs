using System.Text;
using System.Text.RegularExpressions;

namespace KafkaPerf.Cli.Tests;

public partial class CliReferenceTests
{
    [Theory]
    [InlineData("README.md")]
    [InlineData("docs/BENCHMARKS.md")]
    public void Links_IntoAMarkdownFileOfTheRepository_NameAnAnchorItHas(string source)
    {
        // A README figure links to the BENCHMARKS section that holds its command, commit, machine and date; a heading
        // reworded there (an issue number added) would leave the link on the top of the page, and nothing would say so.
        var sourcePath = Path.Combine(Root, source);
        var problems = new List<string>();
        int checkedLinks = 0;
        foreach (Match link in AnchoredLink().Matches(File.ReadAllText(sourcePath)))
        {
            var target = link.Groups[1].Value;
            if (target.Contains(':', StringComparison.Ordinal) || (target.Length > 0 && !target.EndsWith(".md", StringComparison.Ordinal))) continue;
            var targetPath = target.Length == 0 ? sourcePath : Path.GetFullPath(Path.Combine(Path.GetDirectoryName(sourcePath)!, target));
            checkedLinks++;
            if (!File.Exists(targetPath)) problems.Add($"{source}: {target} does not exist: {link.Value}");
            else if (!Anchors(targetPath).Contains(link.Groups[2].Value)) problems.Add($"{source}: no heading of {(target.Length == 0 ? source : target)} has the anchor #{link.Groups[2].Value}: {link.Value}");
        }
        Assert.True(checkedLinks > 0, $"{source} has no link to a section of a Markdown file: the pattern no longer finds them");
        Assert.True(problems.Count == 0, string.Join("\n", problems));
    }

    [Theory]
    [InlineData("The highest rate under `p99<20ms` (issue 22)", "the-highest-rate-under-p9920ms-issue-22")]
    [InlineData("Processes × producers per client: seed 002's table on workers (issue 26)", "processes--producers-per-client-seed-002s-table-on-workers-issue-26")]
    [InlineData("Latency at 25, 50 and 75 % of the burst rate (issue 22)", "latency-at-25-50-and-75--of-the-burst-rate-issue-22")]
    [InlineData("With `--use-prefetch`", "with---use-prefetch")]
    public void Slug_OfAHeading_IsTheAnchorGitHubGivesIt(string heading, string anchor) => Assert.Equal(anchor, Slug(heading));

    /// <summary>The anchors GitHub gives a Markdown file: one per heading outside code blocks (a repeated one numbered
    /// -1, -2, …), and each explicit <c>&lt;a name="…"&gt;</c>.</summary>
    private static HashSet<string> Anchors(string path)
    {
        var anchors = new HashSet<string>(StringComparer.Ordinal);
        var repeats = new Dictionary<string, int>(StringComparer.Ordinal);
        bool inCode = false;
        foreach (var line in File.ReadLines(path))
        {
            // A '#' line inside a fence is a shell comment, not a heading.
            if (line.TrimStart().StartsWith("```", StringComparison.Ordinal))
            {
                inCode = !inCode;
                continue;
            }
            if (inCode) continue;
            foreach (Match named in NamedAnchor().Matches(line)) anchors.Add(named.Groups[1].Value);
            if (Heading().Match(line) is not { Success: true } heading) continue;
            var slug = Slug(heading.Groups[1].Value);
            if (repeats.TryGetValue(slug, out int seen))
            {
                repeats[slug] = seen + 1;
                anchors.Add($"{slug}-{seen + 1}");
            }
            else
            {
                repeats[slug] = 0;
                anchors.Add(slug);
            }
        }
        return anchors;
    }

    /// <summary>GitHub's rule: lower case, every space a hyphen, every other character that is not a letter, a digit, a
    /// hyphen or an underscore dropped (so a "×" between two spaces leaves two hyphens).</summary>
    private static string Slug(string heading)
    {
        var slug = new StringBuilder(heading.Length);
        foreach (char c in heading.Trim().ToLowerInvariant())
        {
            if (c == ' ') slug.Append('-');
            else if (char.IsLetterOrDigit(c) || c is '-' or '_') slug.Append(c);
        }
        return slug.ToString();
    }

    [GeneratedRegex(@"\]\(([^)#\s]*)#([^)\s]+)\)")]
    private static partial Regex AnchoredLink();

    [GeneratedRegex(@"<a (?:name|id)=""([^""]+)""")]
    private static partial Regex NamedAnchor();

    [GeneratedRegex(@"^#{1,6}\s+(.+?)\s*$")]
    private static partial Regex Heading();
}
