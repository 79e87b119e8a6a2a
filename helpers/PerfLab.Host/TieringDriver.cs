using System.Diagnostics;
using System.Reflection;
using System.Reflection.Emit;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Running;

namespace PerfLab.Host;

/// <summary>
/// Calls benchmark cases in rounds, with pauses that let tiered compilation promote hot methods, until
/// tiering has settled: rounds with their pauses in which the JIT compiled nothing new (call counting, the
/// instrumented tier and Tier1 done). On a busy machine the background compile can land seconds late,
/// which is why this waits for quiet rather than for a fixed count. A pause must outlast the runtime's
/// call-counting delay (100 ms unless set): quick mode's launches start with a short one
/// (<see cref="PerfLab.Contract.QuickJob.CallCountingDelayMs"/>), and their pauses and rounds are shorter.
/// </summary>
internal static class TieringDriver
{
    private const int CallsPerRound = 200;

    // The delay this process started with, under either prefix the runtime reads; its own 100 ms when unset.
    private static readonly int CallCountingDelayMs =
        PerfLab.Contract.QuickJob.CallCountingDelayOf(Environment.GetEnvironmentVariable(PerfLab.Contract.QuickJob.CallCountingDelayVariable)
            ?? Environment.GetEnvironmentVariable(PerfLab.Contract.QuickJob.LegacyCallCountingDelayVariable)) ?? 100;

    // Twice the delay, and at least 50 ms. With the runtime's 100 ms: at least 5 rounds, 3 of them quiet. With a short
    // delay a queued background compile lands within tens of milliseconds, so the rounds are shorter and fewer, with
    // the same means (docs/performance.md, "What launches cost").
    private static readonly TimeSpan Pause = TimeSpan.FromMilliseconds(Math.Max(50, 2 * CallCountingDelayMs));
    private static readonly bool ShortDelay = CallCountingDelayMs <= 50;
    private static readonly int MinRounds = ShortDelay ? 3 : 5;
    private static readonly int QuietRoundsNeeded = ShortDelay ? 2 : 3;

    /// <summary>
    /// What quick mode gives each case per round: a case that takes 100 ms a call would otherwise spend 20 s
    /// in one round of 200 calls, far past its 5 s deadline (checked between rounds). At least one call.
    /// </summary>
    public static readonly TimeSpan QuickRoundBudget = TimeSpan.FromMilliseconds(250);

    // Quiet rounds mean nothing before a method has been called often enough to be queued for Tier1 (30
    // calls by default): a slow case gets few calls per round and would look settled at Tier0 or OSR.
    private const int CallsBeforeSettled = 60;

    /// <summary>Drives <paramref name="cases"/>; null when settled, done or out of time, else the exception a case threw.</summary>
    /// <param name="cases">The cases, each called on its own instance with its parameters and setup.</param>
    /// <param name="deadline">The longest time to drive.</param>
    /// <param name="done">Checked after each round: true ends early (e.g. the listing holds optimized code).</param>
    /// <param name="roundBudget">The longest a round calls each case; null: <see cref="CallsPerRound"/> calls whatever they take
    /// (the asm driver, which stops as soon as the listing holds Tier1 code and needs those calls to get there).</param>
    /// <param name="jit">When given, tiering has settled only once every case's method has its final code by the JIT's
    /// own events, besides the quiet rounds: quiet alone was once declared while the method was still at Tier0. Its events
    /// also let a round whose only compiles were of dynamic methods count as quiet.</param>
    /// <param name="unsettled">Checked when tiering looks settled: true keeps driving until <paramref name="done"/> or the
    /// deadline (the asm driver, while a method asked for has code on its way to Tier1 but not Tier1 yet).</param>
    public static string? Drive(IReadOnlyList<BenchmarkCase> cases, TimeSpan deadline, Func<bool>? done = null, TimeSpan? roundBudget = null, JitEvents? jit = null, Func<bool>? unsettled = null)
    {
        var methods = cases.Select(c => c.Descriptor.WorkloadMethod.MethodHandle).ToArray();
        var targets = cases.Select(Prepare).ToArray();
        var calls = new int[targets.Length];
        var clock = Stopwatch.StartNew();
        var compiled = -1L;
        (long Dynamic, long Other)? compiledEvents = null;
        var quietRounds = 0;
        try
        {
            for (var round = 1; clock.Elapsed < deadline; round++)
            {
                for (var t = 0; t < targets.Length; t++)
                {
                    var started = clock.Elapsed;
                    for (var i = 0; i < CallsPerRound && (roundBudget is not { } budget || clock.Elapsed - started < budget); i++)
                    {
                        targets[t].Invoke();
                        calls[t]++;
                    }
                }

                if (done?.Invoke() == true)
                {
                    return null;
                }

                Thread.Sleep(Pause);
                var now = System.Runtime.JitInfo.GetCompiledMethodCount(currentThread: false);
                var events = jit?.Compiles;
                // A case that makes new dynamic methods on every call (a regex built with RegexOptions.Compiled) compiles
                // in every round and would never look quiet: by the JIT's events, a round whose compiles were all of
                // dynamic methods, which never tier, is quiet too.
                var quiet = now == compiled
                    || (events is { } seen && compiledEvents is { } before && seen.Dynamic > before.Dynamic && seen.Other == before.Other);
                quietRounds = quiet ? quietRounds + 1 : 0;
                compiled = now;
                compiledEvents = events;
                if (round >= MinRounds && quietRounds >= QuietRoundsNeeded && calls.All(c => c >= CallsBeforeSettled)
                    && (jit is null || methods.All(jit.HasFinalCode)) && unsettled?.Invoke() != true)
                {
                    return null;
                }
            }
        }
        catch (TargetInvocationException ex) when (ex.InnerException is not null)
        {
            return $"{ex.InnerException.GetType().FullName}: {ex.InnerException.Message}";
        }
        finally
        {
            foreach (var target in targets)
            {
                target.Cleanup();
            }
        }

        return null;
    }

    private sealed record Target(Action Invoke, Action Cleanup);

    // An instance with [Params] set and [GlobalSetup] run, and the case's [Arguments].
    private static Target Prepare(BenchmarkCase benchmarkCase)
    {
        var type = benchmarkCase.Descriptor.Type;
        var instance = Activator.CreateInstance(type)!;
        foreach (var parameter in benchmarkCase.Parameters.Items.Where(p => !p.IsArgument))
        {
            const BindingFlags flags = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static;
            if (type.GetProperty(parameter.Name, flags) is { } property)
            {
                property.SetValue(property.GetMethod!.IsStatic ? null : instance, parameter.Value);
            }
            else if (type.GetField(parameter.Name, flags) is { } field)
            {
                field.SetValue(field.IsStatic ? null : instance, parameter.Value);
            }
        }

        var arguments = benchmarkCase.Parameters.Items.Where(p => p.IsArgument).Select(p => p.Value).ToArray();
        Call<GlobalSetupAttribute>(type, instance);
        Call<IterationSetupAttribute>(type, instance);
        var invoke = Invoker(benchmarkCase.Descriptor.WorkloadMethod);
        return new Target(
            () => invoke(instance, arguments),
            () =>
            {
                Call<IterationCleanupAttribute>(type, instance);
                Call<GlobalCleanupAttribute>(type, instance);
            });
    }

    // Reflection cannot return a ref struct (a benchmark returning ReadOnlySpan<char>, say): such a method
    // is called through a small emitted stub that drops the result. (Virtual dispatch is not needed: the
    // workload method is the benchmark class's own.)
    private static Action<object, object?[]> Invoker(MethodInfo method)
    {
        if (!method.ReturnType.IsByRefLike)
        {
            return (instance, arguments) => method.Invoke(instance, arguments);
        }

        var owner = method.DeclaringType!;
        var stub = new DynamicMethod("Call" + method.Name, null, [typeof(object), typeof(object[])], owner.Module, skipVisibility: true);
        var il = stub.GetILGenerator();
        if (!method.IsStatic)
        {
            il.Emit(OpCodes.Ldarg_0);
            il.Emit(owner.IsValueType ? OpCodes.Unbox : OpCodes.Castclass, owner);
        }

        var parameters = method.GetParameters();
        for (var i = 0; i < parameters.Length; i++)
        {
            il.Emit(OpCodes.Ldarg_1);
            il.Emit(OpCodes.Ldc_I4, i);
            il.Emit(OpCodes.Ldelem_Ref);
            il.Emit(OpCodes.Unbox_Any, parameters[i].ParameterType);
        }

        // Through a function pointer: a direct call could be inlined into the stub, and the method would
        // never get code of its own to measure or show.
        il.Emit(OpCodes.Ldftn, method);
        il.EmitCalli(OpCodes.Calli, method.IsStatic ? CallingConventions.Standard : CallingConventions.HasThis, method.ReturnType, parameters.Select(p => p.ParameterType).ToArray(), null);
        il.Emit(OpCodes.Pop);
        il.Emit(OpCodes.Ret);
        return stub.CreateDelegate<Action<object, object?[]>>();
    }

    private static void Call<TAttribute>(Type type, object instance)
        where TAttribute : Attribute
    {
        foreach (var method in type.GetMethods().Where(m => m.IsDefined(typeof(TAttribute), inherit: true) && m.GetParameters().Length == 0))
        {
            method.Invoke(instance, null);
        }
    }
}
