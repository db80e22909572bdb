using System.IO.Compression;
using System.Xml.Linq;
using KafkaPerf.Clients;

namespace KafkaPerf.Testing.Tests.Packages;

/// <summary>What a user sees of each package in the feed that <c>eng/pack.sh</c> fills: every package there, each with
/// the README, the licence, where it was built from and KafkaPerf's one version; the libraries with their XML docs; and
/// a symbol package beside each package that has code (the templates have none).</summary>
public sealed class PackageContentsTests(LocalFeedFixture feed)
{
    [Fact]
    public void Feed_AfterPack_HoldsEveryPackageAtTheRelease()
    {
        var packages = Directory.GetFiles(feed.Feed, "*.nupkg").Select(Path.GetFileName).Order(StringComparer.Ordinal);

        Assert.Equal(new[] { "KafkaPerf.Adapters", "KafkaPerf.Cli", "KafkaPerf.Core", "KafkaPerf.Templates", "KafkaPerf.Testing" }
            .Select(id => $"{id}.{ClientContract.Release}.nupkg"), packages);
    }

    [Theory]
    [InlineData("KafkaPerf.Core")]
    [InlineData("KafkaPerf.Adapters")]
    [InlineData("KafkaPerf.Testing")]
    [InlineData("KafkaPerf.Cli")]
    [InlineData("KafkaPerf.Templates")]
    public void Package_InTheFeed_HasReadmeLicenceRepositoryAndTheRelease(string id)
    {
        using var zip = ZipFile.OpenRead(Package(id));
        var metadata = Metadata(zip, id);

        Assert.Equal(id, Element(metadata, "id").Value);
        // KafkaPerf's one version: the packages', the tool's and the client contract's (ClientContract.Release).
        Assert.Equal(ClientContract.Release, Element(metadata, "version").Value);
        var license = Element(metadata, "license");
        Assert.Equal(("expression", "Apache-2.0"), ((string?)license.Attribute("type"), license.Value));
        Assert.Equal("README.md", Element(metadata, "readme").Value);
        Assert.Contains(zip.Entries, e => e.FullName == "README.md");
        // Where it was built from: the git commit (the SDK's source link reads it from the clone).
        var repository = Element(metadata, "repository");
        Assert.Equal("git", (string?)repository.Attribute("type"));
        Assert.Matches("^[0-9a-f]{40}$", (string?)repository.Attribute("commit") ?? string.Empty);
    }

    [Theory]
    [InlineData("KafkaPerf.Core")]
    [InlineData("KafkaPerf.Adapters")]
    [InlineData("KafkaPerf.Testing")]
    public void Library_InTheFeed_HasItsXmlDocsAndSymbols(string id)
    {
        using (var zip = ZipFile.OpenRead(Package(id)))
        {
            Assert.Contains(zip.Entries, e => e.FullName == $"lib/net10.0/{id}.dll");
            // The docs an IDE shows for the API: every public member has a <summary> (STYLE.md).
            var docs = Assert.Single(zip.Entries, e => e.FullName == $"lib/net10.0/{id}.xml");
            using var stream = docs.Open();
            Assert.NotEmpty(XDocument.Load(stream).Descendants("member"));
        }
        using var symbols = ZipFile.OpenRead(Path.ChangeExtension(Package(id), ".snupkg"));
        Assert.Contains(symbols.Entries, e => e.FullName == $"lib/net10.0/{id}.pdb");
    }

    [Fact]
    public void Tool_InTheFeed_HasItsSymbols()
    {
        using var symbols = ZipFile.OpenRead(Path.ChangeExtension(Package("KafkaPerf.Cli"), ".snupkg"));
        Assert.Contains(symbols.Entries, e => e.FullName == "tools/net10.0/any/dotnet-kafkaperf.pdb");
    }

    private string Package(string id) => Path.Combine(feed.Feed, $"{id}.{ClientContract.Release}.nupkg");

    private static XElement Metadata(ZipArchive zip, string id)
    {
        var nuspec = Assert.Single(zip.Entries, e => e.FullName == id + ".nuspec");
        using var stream = nuspec.Open();
        return XDocument.Load(stream).Root!.Elements().Single(e => e.Name.LocalName == "metadata");
    }

    private static XElement Element(XElement metadata, string name) =>
        Assert.Single(metadata.Elements(), e => e.Name.LocalName == name);
}
