using System.Collections.Immutable;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;

namespace PerfLab.Disassembly;

/// <summary>A method of the compiled benchmark assembly, named as the JIT names it.</summary>
/// <param name="TypeName">"Ns.Outer+Inner", as in JIT listings.</param>
/// <param name="MetadataName">The method's name in metadata, e.g. "&lt;Sum&gt;g__Local|0_0".</param>
/// <param name="DisplayName">How the reader knows it: "Sum", "Sum › Local", "Sum › lambda", "Count.get".</param>
/// <param name="Signature">Parameter types as C#: "(int[], int)".</param>
/// <param name="IsPrimary">The method the reader named (not a lambda or local function inside it).</param>
internal sealed record ResolvedMethod(string TypeName, string MetadataName, string DisplayName, string Signature, bool IsPrimary)
{
    /// <summary>The start of the JIT's name: "Ns.Type:Method".</summary>
    public string JitPrefix => TypeName + ":" + MetadataName;
}

/// <summary>
/// Turns the name a reader typed into the JIT's names, reading the compiled assembly's metadata.
/// "Sum" finds a method Sum (with the lambdas and local functions declared in it), a property Sum's
/// getter, or a local function Sum; "Type.Sum" narrows to one class; "Sum(int[])" picks an overload.
/// </summary>
internal static class MethodResolver
{
    /// <summary>Resolves <paramref name="query"/> in the assembly at <paramref name="assemblyPath"/>.</summary>
    /// <param name="assemblyPath">The compiled benchmark assembly.</param>
    /// <param name="query">What the reader typed.</param>
    /// <exception cref="PerfLabException">Nothing matches (close matches listed), or overloads need a signature.</exception>
    public static IReadOnlyList<ResolvedMethod> Resolve(string assemblyPath, string query)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(query);
        var all = AllMethods(assemblyPath);
        var (typePart, namePart, signaturePart) = Split(query.Trim());

        bool TypeMatches(ResolvedMethod m) => typePart is null
            || m.TypeName.Equals(typePart, StringComparison.Ordinal)
            || m.TypeName.EndsWith("." + typePart, StringComparison.Ordinal)
            || m.TypeName.StartsWith(typePart + "+", StringComparison.Ordinal)
            || m.TypeName.Contains("." + typePart + "+", StringComparison.Ordinal)
            || m.TypeName.Split('.', '+').Contains(typePart, StringComparer.Ordinal);

        var primary = all.Where(m => TypeMatches(m) && IsNamed(m, namePart)).ToList();
        if (signaturePart is not null)
        {
            primary = primary.Where(m => Compact(m.Signature) == Compact(signaturePart)).ToList();
        }

        if (primary.Count == 0)
        {
            var close = all.Where(m => !m.MetadataName.StartsWith('<') || m.DisplayName.Contains('›', StringComparison.Ordinal))
                .Select(m => (m, d: Distance(ShortName(m).ToLowerInvariant(), namePart.ToLowerInvariant())))
                .Where(x => x.d <= Math.Max(2, namePart.Length / 3) || ShortName(x.m).Contains(namePart, StringComparison.OrdinalIgnoreCase))
                .OrderBy(x => x.d)
                .Select(x => Describe(x.m))
                .Distinct()
                .Take(8)
                .ToArray();
            throw new PerfLabException(
                $"No method named '{query}' in the benchmark source.",
                close.Length > 0 ? "Did you mean: " + string.Join(", ", close) + "?" : "Give the name of a method, property or local function of your benchmark class.");
        }

        var overloads = primary.Select(m => (m.TypeName, m.DisplayName)).Distinct().ToArray();
        if (signaturePart is null && primary.Count > overloads.Length)
        {
            throw new PerfLabException(
                $"'{query}' is ambiguous: {primary.Count} overloads.",
                "Pick one by its parameters: " + string.Join(", ", primary.Select(m => $"--method '{Short(m.TypeName)}.{ShortName(m)}{m.Signature}'")) + ".");
        }

        // The lambdas and local functions declared inside the named methods come along.
        var nested = all.Where(m => !m.IsPrimary && primary.Any(p => Encloses(p, m))).ToArray();
        return primary.Select(p => p with { IsPrimary = true }).Concat(nested).Distinct().ToArray();
    }

    /// <summary>"Class.Method" of every [Benchmark] method in the assembly, in metadata order.</summary>
    /// <param name="assemblyPath">The compiled benchmark assembly.</param>
    public static IReadOnlyList<string> BenchmarkMethods(string assemblyPath)
    {
        using var stream = File.OpenRead(assemblyPath);
        using var pe = new PEReader(stream);
        var reader = pe.GetMetadataReader();
        var names = new List<string>();
        foreach (var typeHandle in reader.TypeDefinitions)
        {
            var type = reader.GetTypeDefinition(typeHandle);
            foreach (var methodHandle in type.GetMethods())
            {
                var method = reader.GetMethodDefinition(methodHandle);
                if (method.GetCustomAttributes().Any(a => AttributeName(reader, reader.GetCustomAttribute(a)) == "BenchmarkAttribute"))
                {
                    names.Add($"{reader.GetString(type.Name)}.{reader.GetString(method.Name)}");
                }
            }
        }

        return names.Distinct().ToArray();
    }

    private static string? AttributeName(MetadataReader reader, CustomAttribute attribute) => attribute.Constructor.Kind switch
    {
        HandleKind.MemberReference when reader.GetMemberReference((MemberReferenceHandle)attribute.Constructor).Parent is { Kind: HandleKind.TypeReference } parent
            => reader.GetString(reader.GetTypeReference((TypeReferenceHandle)parent).Name),
        HandleKind.MethodDefinition => reader.GetString(reader.GetTypeDefinition(reader.GetMethodDefinition((MethodDefinitionHandle)attribute.Constructor).GetDeclaringType()).Name),
        _ => null,
    };

    private static bool IsNamed(ResolvedMethod m, string name) =>
        m.MetadataName == name
        || m.MetadataName == "get_" + name
        || (m.MetadataName.StartsWith('<') && m.MetadataName.Contains(">g__" + name + "|", StringComparison.Ordinal));

    // "<Sum>b__0_0" and "<Sum>g__Local|0_1" belong to Sum.
    private static bool Encloses(ResolvedMethod outer, ResolvedMethod inner) =>
        inner.MetadataName.StartsWith("<" + outer.MetadataName + ">", StringComparison.Ordinal)
        && (inner.TypeName == outer.TypeName || inner.TypeName.StartsWith(outer.TypeName + "+", StringComparison.Ordinal));

    private static string ShortName(ResolvedMethod m) => m.DisplayName.Split(" › ")[^1];

    private static string Short(string typeName) => typeName[(typeName.LastIndexOfAny(['.', '+']) + 1)..];

    private static string Describe(ResolvedMethod m) => $"{Short(m.TypeName.Split('+')[0])}.{m.DisplayName}";

    private static string Compact(string signature) => new(signature.Where(c => !char.IsWhiteSpace(c)).ToArray());

    private static (string? Type, string Name, string? Signature) Split(string query)
    {
        string? signature = null;
        var paren = query.IndexOf('(', StringComparison.Ordinal);
        if (paren >= 0)
        {
            signature = query[paren..];
            query = query[..paren];
        }

        var separator = query.LastIndexOfAny([':', '.']);
        return separator < 0 ? (null, query, signature) : (query[..separator].TrimEnd(':'), query[(separator + 1)..], signature);
    }

    private static List<ResolvedMethod> AllMethods(string assemblyPath)
    {
        using var stream = File.OpenRead(assemblyPath);
        using var pe = new PEReader(stream);
        var reader = pe.GetMetadataReader();
        var provider = new CSharpTypeNames(reader);
        var methods = new List<ResolvedMethod>();
        foreach (var typeHandle in reader.TypeDefinitions)
        {
            var type = reader.GetTypeDefinition(typeHandle);
            var typeName = FullName(reader, type);
            if (typeName == "<Module>")
            {
                continue;
            }

            foreach (var methodHandle in type.GetMethods())
            {
                var method = reader.GetMethodDefinition(methodHandle);
                var name = reader.GetString(method.Name);
                if (name is ".ctor" or ".cctor")
                {
                    continue;
                }

                var signature = method.DecodeSignature(provider, null);
                methods.Add(new ResolvedMethod(typeName, name, Display(name), "(" + string.Join(", ", signature.ParameterTypes) + ")", IsPrimary: false));
            }
        }

        return methods;
    }

    // What a reader calls a compiler-generated method: "Sum › Local", "Sum › lambda", "Count.get".
    private static string Display(string name)
    {
        if (name.StartsWith("get_", StringComparison.Ordinal))
        {
            return name[4..] + ".get";
        }

        if (!name.StartsWith('<'))
        {
            return name;
        }

        var close = name.IndexOf('>', StringComparison.Ordinal);
        var outer = name[1..close];
        var rest = name[(close + 1)..];
        if (rest.StartsWith("g__", StringComparison.Ordinal))
        {
            return $"{outer} › {rest[3..rest.IndexOf('|', StringComparison.Ordinal)]}";
        }

        return rest.StartsWith("b__", StringComparison.Ordinal) ? $"{outer} › lambda" : name;
    }

    private static string FullName(MetadataReader reader, TypeDefinition type)
    {
        var name = reader.GetString(type.Name);
        var declaring = type.GetDeclaringType();
        if (!declaring.IsNil)
        {
            return FullName(reader, reader.GetTypeDefinition(declaring)) + "+" + name;
        }

        var ns = reader.GetString(type.Namespace);
        return ns.Length == 0 ? name : ns + "." + name;
    }

    private static int Distance(string a, string b)
    {
        var d = new int[a.Length + 1, b.Length + 1];
        for (var i = 0; i <= a.Length; i++)
        {
            d[i, 0] = i;
        }

        for (var j = 0; j <= b.Length; j++)
        {
            d[0, j] = j;
        }

        for (var i = 1; i <= a.Length; i++)
        {
            for (var j = 1; j <= b.Length; j++)
            {
                d[i, j] = Math.Min(Math.Min(d[i - 1, j] + 1, d[i, j - 1] + 1), d[i - 1, j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1));
            }
        }

        return d[a.Length, b.Length];
    }

    // Parameter types as a C# reader writes them: int[], List<int>, ref Span<byte>.
    private sealed class CSharpTypeNames(MetadataReader reader) : ISignatureTypeProvider<string, object?>
    {
        public string GetPrimitiveType(PrimitiveTypeCode typeCode) => typeCode switch
        {
            PrimitiveTypeCode.Boolean => "bool",
            PrimitiveTypeCode.Byte => "byte",
            PrimitiveTypeCode.SByte => "sbyte",
            PrimitiveTypeCode.Char => "char",
            PrimitiveTypeCode.Int16 => "short",
            PrimitiveTypeCode.UInt16 => "ushort",
            PrimitiveTypeCode.Int32 => "int",
            PrimitiveTypeCode.UInt32 => "uint",
            PrimitiveTypeCode.Int64 => "long",
            PrimitiveTypeCode.UInt64 => "ulong",
            PrimitiveTypeCode.Single => "float",
            PrimitiveTypeCode.Double => "double",
            PrimitiveTypeCode.String => "string",
            PrimitiveTypeCode.Object => "object",
            PrimitiveTypeCode.IntPtr => "nint",
            PrimitiveTypeCode.UIntPtr => "nuint",
            PrimitiveTypeCode.Void => "void",
            _ => typeCode.ToString(),
        };

        public string GetTypeFromDefinition(MetadataReader r, TypeDefinitionHandle handle, byte rawTypeKind) => Strip(reader.GetString(reader.GetTypeDefinition(handle).Name));

        public string GetTypeFromReference(MetadataReader r, TypeReferenceHandle handle, byte rawTypeKind) => Strip(reader.GetString(reader.GetTypeReference(handle).Name));

        public string GetTypeFromSpecification(MetadataReader r, object? context, TypeSpecificationHandle handle, byte rawTypeKind) => reader.GetTypeSpecification(handle).DecodeSignature(this, context);

        public string GetSZArrayType(string elementType) => elementType + "[]";

        public string GetArrayType(string elementType, ArrayShape shape) => elementType + "[" + new string(',', shape.Rank - 1) + "]";

        public string GetByReferenceType(string elementType) => "ref " + elementType;

        public string GetPointerType(string elementType) => elementType + "*";

        public string GetGenericInstantiation(string genericType, ImmutableArray<string> typeArguments) => genericType + "<" + string.Join(", ", typeArguments) + ">";

        public string GetGenericTypeParameter(object? context, int index) => "T" + index;

        public string GetGenericMethodParameter(object? context, int index) => "M" + index;

        public string GetPinnedType(string elementType) => elementType;

        public string GetModifiedType(string modifier, string unmodifiedType, bool isRequired) => unmodifiedType;

        public string GetFunctionPointerType(MethodSignature<string> signature) => "delegate*";

        private static string Strip(string name) => name.Contains('`', StringComparison.Ordinal) ? name[..name.IndexOf('`', StringComparison.Ordinal)] : name;
    }
}
