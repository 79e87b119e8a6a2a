var exercise = await Lab.RunAsync<ArrayAsSequence>(runtimes: ["net10.0"], env: ["DOTNET_TieredPGO=0"], launches: 1);   // one process per runtime: the check reads bytes per call, the same in every process
exercise
