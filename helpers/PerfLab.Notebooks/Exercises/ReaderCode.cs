using System.Diagnostics.CodeAnalysis;
using System.Reflection;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The reader's class, reached by reflection: its methods looked up by signature, and called so that whatever the
/// reader's code throws (or a class that cannot be created) comes back as the cause for a hint, since a check never
/// throws for an unsolved exercise.
/// </summary>
internal static class ReaderCode
{
    /// <summary>Every member a class declares itself: public or not, static or not.</summary>
    public const BindingFlags Declared = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly;

    /// <summary>The class's public static method with these parameters, or null when there is none or it returns another type.</summary>
    /// <typeparam name="TResult">The return type the exercise keeps.</typeparam>
    /// <param name="type">The reader's class.</param>
    /// <param name="name">The method's name.</param>
    /// <param name="parameters">Its parameter types (none: parameterless).</param>
    public static MethodInfo? StaticMethod<TResult>(Type type, string name, params Type[] parameters) =>
        Returning<TResult>(type.GetMethod(name, BindingFlags.Public | BindingFlags.Static, parameters));

    /// <summary>The class's public parameterless instance method, or null when there is none or it returns another type.</summary>
    /// <typeparam name="TResult">The return type the exercise keeps.</typeparam>
    /// <param name="type">The reader's class.</param>
    /// <param name="name">The method's name.</param>
    public static MethodInfo? InstanceMethod<TResult>(Type type, string name) =>
        Returning<TResult>(type.GetMethod(name, BindingFlags.Public | BindingFlags.Instance, Type.EmptyTypes));

    /// <summary>Calls a static method of the reader's; false, with what it threw, when it threw.</summary>
    /// <typeparam name="TResult">What it returns.</typeparam>
    /// <param name="method">The method.</param>
    /// <param name="arguments">Its arguments.</param>
    /// <param name="result">What it returned.</param>
    /// <param name="thrown">What it threw.</param>
    public static bool TryCall<TResult>(MethodInfo method, object?[]? arguments, out TResult result, [NotNullWhen(false)] out Exception? thrown) =>
        TryRun(() => (TResult)method.Invoke(null, arguments)!, out result, out thrown);

    /// <summary>Runs <paramref name="code"/>, which reaches the reader's code by reflection; false, with the reader's exception, when it threw.</summary>
    /// <typeparam name="TResult">What the code returns.</typeparam>
    /// <param name="code">Reflection calls: creating the reader's class, calling its methods, reading its fields.</param>
    /// <param name="result">What the code returned.</param>
    /// <param name="thrown">What the reader's code threw (unwrapped), or why the class could not be created.</param>
    public static bool TryRun<TResult>(Func<TResult> code, out TResult result, [NotNullWhen(false)] out Exception? thrown)
    {
        try
        {
            result = code();
            thrown = null;
            return true;
        }
        catch (Exception ex) when (ex is TargetInvocationException or MissingMethodException or MemberAccessException)
        {
            result = default!;
            thrown = ex.InnerException ?? ex;
            return false;
        }
    }

    private static MethodInfo? Returning<TResult>(MethodInfo? method) => method?.ReturnType == typeof(TResult) ? method : null;
}
