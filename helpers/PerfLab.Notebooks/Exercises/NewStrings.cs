using System.Reflection;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The calls that hand back a new string or array of strings, as the exercises that ask for none find and name them
/// (a reader's <c>Split</c>, <c>Substring</c>, <c>ToLowerInvariant</c>, <c>ToString()</c> of a span).
/// </summary>
internal static class NewStrings
{
    /// <summary>Whether <paramref name="called"/> returns a string or an array of strings.</summary>
    /// <param name="called">A method the reader's code calls.</param>
    public static bool Returned(MethodInfo called) => called.ReturnType == typeof(string) || called.ReturnType == typeof(string[]);

    /// <summary>The call for a hint: "String.Split, which returns a new array of strings".</summary>
    /// <param name="called">A method for which <see cref="Returned"/> is true.</param>
    public static string Describe(MethodInfo called)
    {
        var name = called.Name == "ToString" ? "ToString()" : $"{called.DeclaringType?.Name.Split('`')[0]}.{called.Name}";
        return $"{name}, which returns a new {(called.ReturnType == typeof(string) ? "string" : "array of strings")}";
    }
}
