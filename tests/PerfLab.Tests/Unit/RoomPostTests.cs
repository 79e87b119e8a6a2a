using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Room;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>What a laptop sends a room: data only, never the code, the host name or the user name.</summary>
public class RoomPostTests
{
    [Fact]
    public void A_post_carries_no_host_name_no_folders_and_no_error_text()
    {
        var run = Fake.Run(BenchmarkMode.Quick,
            Fake.Outcome("net8.0", "8.0.31", Fake.Case("Sum", 100, 0), Fake.Case("Fails", 0, 0, error: $"System.IO.IOException: /home/{Environment.UserName}/secret")),
            Fake.Outcome("net10.0", "10.0.12", Fake.Case("Sum", 60, 0), Fake.Case("Fails", 0, 0, error: "boom"))) with { Source = $"/home/{Environment.UserName}/work/Bench.cs", Code = new string('a', 64) };
        var machine = new MachineDescription("", "linux-x64", "Linux", "Test CPU", 2, 1, "10.0.100", null);

        var post = RoomPost.Of(run, RoomPost.NewId(), "ana", null, machine, PerfLab.Disassembly.InstructionSetProbe.OfThisProcess());
        var json = post.ToJson();

        Assert.Equal("Bench.cs", post.Run.Source);
        Assert.Equal("", post.Run.Machine.MachineName);
        Assert.Equal("ana", post.Machine.Name);
        Assert.DoesNotContain(Environment.MachineName, json, StringComparison.Ordinal);
        Assert.DoesNotContain("/home/", json, StringComparison.Ordinal);
        Assert.All(post.Run.Results.Where(r => r.Method == "Fails"), r => Assert.Equal(RoomPost.FailedOnTheLaptop, r.Error));
        Assert.All(post.Run.Results, r => Assert.Empty(r.MeasurementsNs));
        Assert.Equal(post.Run.Results.Single(r => r.Method == "Sum" && r.Runtime == "net10.0").Ratio, run.Results.Single(r => r.Method == "Sum" && r.Runtime == "net10.0").Ratio);
    }

    [Fact]
    public void A_smoke_post_says_which_cases_ran_without_numbers()
    {
        var post = Fake.Post(mode: BenchmarkMode.Smoke);

        Assert.Equal(2, post.Run.Results.Count);
        Assert.All(post.Run.Results, r =>
        {
            Assert.Null(r.Statistics);
            Assert.Null(r.Ratio);
            Assert.Null(r.LaunchMeansNs);
            Assert.Null(r.AllocatedBytes);
        });
    }

    [Fact]
    public void A_post_reads_back_as_it_was_written()
    {
        var post = Fake.Post(notebook: "notebooks/00-start-here.ipynb");

        var back = RoomPost.FromJson(post.ToJson());

        Assert.Equal(post.ToJson(), back.ToJson());
        Assert.DoesNotContain('\n', post.ToJson());
        Assert.True(RoomPost.IsId(back.Id) && RoomPost.IsId(back.Laptop));
    }

    [Theory]
    [InlineData("ana", null)]
    [InlineData("<img src=x onerror=alert(1)>", null)]
    [InlineData("", "the nickname is empty")]
    [InlineData("a\tb", "the nickname holds a control character")]
    [InlineData("0123456789012345678901234567890123456789x", "the nickname has 41 characters; at most 40")]
    public void Nicknames_are_one_to_forty_printable_characters(string nickname, string? problem) =>
        Assert.Equal(problem, RoomPost.NicknameProblem(nickname));
}
