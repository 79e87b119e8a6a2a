var exercise = await Lab.RunAsync<ArrayAsSequence>(runtimes: ["net10.0"], env: ["DOTNET_TieredPGO=0"]);
exercise
