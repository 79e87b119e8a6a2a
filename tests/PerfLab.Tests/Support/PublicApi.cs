using System.Reflection;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.RegularExpressions;

namespace PerfLab.Tests.Support;

/// <summary>
/// An assembly's public surface as text, one line per type and per member a caller outside it can use
/// (public, or protected in a type that can be derived from), with C# signatures: nullability, defaults,
/// ref kinds and tuple names included. Sorted, so the text changes only when the surface does.
/// </summary>
public static class PublicApi
{
    private const BindingFlags Declared = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;

    private static readonly Dictionary<Type, string> Keywords = new()
    {
        [typeof(void)] = "void", [typeof(object)] = "object", [typeof(string)] = "string", [typeof(bool)] = "bool",
        [typeof(char)] = "char", [typeof(byte)] = "byte", [typeof(sbyte)] = "sbyte", [typeof(short)] = "short",
        [typeof(ushort)] = "ushort", [typeof(int)] = "int", [typeof(uint)] = "uint", [typeof(long)] = "long",
        [typeof(ulong)] = "ulong", [typeof(float)] = "float", [typeof(double)] = "double", [typeof(decimal)] = "decimal",
    };

    /// <summary>The surface of <paramref name="assembly"/>: each type's line, then its members' lines indented under it.</summary>
    public static string Of(Assembly assembly)
    {
        var text = new StringBuilder();
        foreach (var type in assembly.GetExportedTypes().OrderBy(t => t.FullName, StringComparer.Ordinal))
        {
            text.Append(TypeLine(type)).Append('\n');
            foreach (var member in Members(type).Order(StringComparer.Ordinal))
            {
                text.Append("  ").Append(member).Append('\n');
            }
        }

        return text.ToString();
    }

    private static string TypeLine(Type type)
    {
        var kind = type.IsEnum ? "enum" : type.IsInterface ? "interface" : type.IsValueType ? "struct" : typeof(Delegate).IsAssignableFrom(type) ? "delegate" : "class";
        var modifiers = kind != "class" ? "" : type is { IsAbstract: true, IsSealed: true } ? "static " : type.IsAbstract ? "abstract " : type.IsSealed ? "sealed " : "";
        var bases = new List<string>();
        if (kind == "class" && type.BaseType is { } baseType && baseType != typeof(object))
        {
            bases.Add(Name(baseType));
        }

        if (type.IsEnum)
        {
            bases.Add(Name(Enum.GetUnderlyingType(type)));
        }
        else if (kind != "delegate")
        {
            bases.AddRange(type.GetInterfaces().Where(i => i.IsPublic || i.IsNestedPublic).Select(Name).Order(StringComparer.Ordinal));
        }

        return $"{modifiers}{kind} {Regex.Replace(type.FullName!, "`[0-9]+", "").Replace('+', '.')}{GenericParameters(type.GetGenericArguments())}"
            + (bases.Count == 0 ? "" : " : " + string.Join(", ", bases));
    }

    private static IEnumerable<string> Members(Type type)
    {
        if (type.IsEnum)
        {
            return type.GetFields(BindingFlags.Public | BindingFlags.Static).Select(f => $"{f.Name} = {Convert.ToInt64(f.GetRawConstantValue(), System.Globalization.CultureInfo.InvariantCulture)}");
        }

        if (typeof(Delegate).IsAssignableFrom(type))
        {
            return [Method(type.GetMethod("Invoke")!)];
        }

        var members = new List<string>();
        var nullability = new NullabilityInfoContext();
        foreach (var member in type.GetMembers(Declared).Where(m => Visible(m) && !m.Name.Contains('<', StringComparison.Ordinal)))
        {
            switch (member)
            {
                case ConstructorInfo constructor:
                    members.Add($"{Access(constructor)}{(constructor.IsStatic ? "static " : "")}{type.Name.Split('`')[0]}({Parameters(constructor, nullability)})");
                    break;
                case MethodInfo { IsSpecialName: false } method:
                    members.Add(Access(method) + Modifiers(method) + Method(method, nullability));
                    break;
                case MethodInfo { IsSpecialName: true } method when method.Name.StartsWith("op_", StringComparison.Ordinal):
                    members.Add(Access(method) + "static " + Method(method, nullability));
                    break;
                case PropertyInfo property:
                    members.Add(Property(property, nullability));
                    break;
                case FieldInfo field:
                    var constant = field.IsLiteral ? $" = {Literal(field.GetRawConstantValue())}" : "";
                    members.Add($"{Access(field)}{(field.IsLiteral ? "const " : field.IsStatic ? "static " : "")}{(field.IsInitOnly ? "readonly " : "")}{Name(field.FieldType, nullability.Create(field))} {field.Name}{constant}");
                    break;
                case EventInfo @event:
                    members.Add($"{Access(@event.AddMethod!)}event {Name(@event.EventHandlerType!, nullability.Create(@event))} {@event.Name}");
                    break;
            }
        }

        return members;
    }

    private static bool Visible(MemberInfo member) => member switch
    {
        MethodBase method => method.IsPublic || method.IsFamily || method.IsFamilyOrAssembly,
        FieldInfo field => field.IsPublic || field.IsFamily || field.IsFamilyOrAssembly,
        PropertyInfo property => property.GetAccessors(nonPublic: true).Any(Visible),
        EventInfo @event => Visible(@event.AddMethod!),
        _ => false, // nested types are listed as types of their own
    };

    private static string Access(MethodBase method) => method.IsPublic ? "" : "protected ";

    private static string Access(FieldInfo field) => field.IsPublic ? "" : "protected ";

    private static string Modifiers(MethodInfo method) =>
        method.IsStatic ? "static "
        : method.DeclaringType!.IsInterface ? ""
        : method.IsAbstract ? "abstract "
        : method.GetBaseDefinition().DeclaringType != method.DeclaringType ? (method.IsFinal ? "sealed override " : "override ")
        : method.IsVirtual && !method.IsFinal ? "virtual " : "";

    private static string Method(MethodInfo method, NullabilityInfoContext? nullability = null)
    {
        nullability ??= new NullabilityInfoContext();
        return $"{Name(method.ReturnType, nullability.Create(method.ReturnParameter), TupleNames(method.ReturnParameter))} {method.Name}"
            + $"{GenericParameters(method.GetGenericArguments())}({Parameters(method, nullability)})";
    }

    private static string Property(PropertyInfo property, NullabilityInfoContext nullability)
    {
        var getter = property.GetMethod is { } get && Visible(get) ? get : null;
        var setter = property.SetMethod is { } set && Visible(set) ? set : null;
        var accessor = (getter ?? setter)!;
        var initOnly = setter?.ReturnParameter.GetRequiredCustomModifiers().Contains(typeof(IsExternalInit)) == true;
        var name = property.GetIndexParameters() is { Length: > 0 } index
            ? $"this[{string.Join(", ", index.Select(p => Parameter(p, nullability)))}]"
            : property.Name;
        var setterAccess = setter is not null && getter is not null && setter.IsPublic != getter.IsPublic ? Access(setter) : "";
        var accessors = (getter is null ? "" : "get; ") + (setter is null ? "" : setterAccess + (initOnly ? "init; " : "set; "));
        return $"{Access(accessor)}{Modifiers(accessor)}{Name(property.PropertyType, nullability.Create(property), TupleNames(property))} {name} {{ {accessors}}}";
    }

    private static string Parameters(MethodBase method, NullabilityInfoContext nullability) =>
        string.Join(", ", method.GetParameters().Select(p => Parameter(p, nullability)));

    private static string Parameter(ParameterInfo parameter, NullabilityInfoContext nullability)
    {
        var type = parameter.ParameterType;
        var kind = !type.IsByRef ? "" : parameter.IsOut ? "out " : parameter.IsIn ? "in " : "ref ";
        var isParams = parameter.IsDefined(typeof(ParamArrayAttribute)) || parameter.IsDefined(typeof(ParamCollectionAttribute));
        var text = $"{(isParams ? "params " : "")}{kind}{Name(type.IsByRef ? type.GetElementType()! : type, nullability.Create(parameter), TupleNames(parameter))} {parameter.Name}";
        return parameter.HasDefaultValue ? $"{text} = {Default(parameter.ParameterType, parameter.RawDefaultValue)}" : text;
    }

    private static string GenericParameters(IEnumerable<Type> parameters) =>
        parameters.Select(p => p.Name).ToArray() is { Length: > 0 } names ? $"<{string.Join(", ", names)}>" : "";

    // A parameter's default as written: an enum member by name, a struct's as default.
    private static string Default(Type type, object? value) =>
        Nullable.GetUnderlyingType(type) is null && type.IsValueType && value is null ? "default"
        : type.IsEnum && value is not null ? Enum.ToObject(type, value) is var member && Enum.IsDefined(type, member) ? $"{Name(type)}.{member}" : $"({Name(type)}){Literal(value)}"
        : Literal(value);

    private static string Literal(object? value) => value switch
    {
        null => "null",
        string text => "\"" + text.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal) + "\"",
        bool flag => flag ? "true" : "false",
        char c => $"'{c}'",
        IFormattable number => number.ToString(null, System.Globalization.CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };

    private static Queue<string?>? TupleNames(ICustomAttributeProvider provider) =>
        provider.GetCustomAttributes(typeof(TupleElementNamesAttribute), inherit: false).OfType<TupleElementNamesAttribute>().FirstOrDefault() is { } names
            ? new Queue<string?>(names.TransformNames)
            : null;

    private static string Name(Type type) => Name(type, null, null);

    // C#'s spelling of a type: keywords, generic arguments, arrays, nullable annotations (when known) and tuple
    // element names, which come in the order the type's tuples appear, depth first.
    private static string Name(Type type, NullabilityInfo? nullability, Queue<string?>? tupleNames = null)
    {
        var nullable = nullability?.ReadState == NullabilityState.Nullable && !type.IsValueType ? "?" : "";
        if (type.IsGenericParameter)
        {
            return type.Name + nullable;
        }

        if (type.IsArray)
        {
            return Name(type.GetElementType()!, nullability?.ElementType, tupleNames) + "[" + new string(',', type.GetArrayRank() - 1) + "]" + nullable;
        }

        if (Nullable.GetUnderlyingType(type) is { } underlying)
        {
            return Name(underlying, nullability?.GenericTypeArguments.FirstOrDefault(), tupleNames) + "?";
        }

        if (Keywords.TryGetValue(type, out var keyword))
        {
            return keyword + nullable;
        }

        var arguments = type.GetGenericArguments();
        if (type.IsGenericType && type.FullName?.StartsWith("System.ValueTuple`", StringComparison.Ordinal) == true)
        {
            var names = arguments.Select(_ => tupleNames is { Count: > 0 } ? tupleNames.Dequeue() : null).ToArray();
            var elements = arguments.Select((a, i) => Name(a, nullability?.GenericTypeArguments.ElementAtOrDefault(i), tupleNames) + (names[i] is { } n ? " " + n : ""));
            return "(" + string.Join(", ", elements) + ")";
        }

        var name = (type.IsNested ? Name(type.DeclaringType!) + "." : type.Namespace is { Length: > 0 } ns ? ns + "." : "") + type.Name.Split('`')[0];
        var own = arguments.Skip(type.DeclaringType?.GetGenericArguments().Length ?? 0).ToArray();
        if (own.Length == 0)
        {
            return name + nullable;
        }

        var offset = arguments.Length - own.Length;
        return name + "<" + string.Join(", ", own.Select((a, i) => Name(a, nullability?.GenericTypeArguments.ElementAtOrDefault(offset + i), tupleNames))) + ">" + nullable;
    }
}
