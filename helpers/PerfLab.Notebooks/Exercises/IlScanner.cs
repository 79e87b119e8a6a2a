using System.Reflection;
using System.Reflection.Emit;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// Walks a method's IL instruction by instruction (not byte by byte, so operand bytes are never
/// mistaken for opcodes) and reports the opcodes and the methods it calls. Enough for structural
/// exercise checks such as "does this benchmark read its inputs" or "does it store its result".
/// </summary>
internal static class IlScanner
{
    private static readonly Dictionary<short, OpCode> OpCodesByValue = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => f.GetValue(null))
        .OfType<OpCode>()
        .ToDictionary(o => o.Value);

    /// <summary>One IL instruction: its opcode and, for call instructions, the method called (when it resolves).</summary>
    /// <param name="OpCode">The opcode.</param>
    /// <param name="Called">The called method for call, callvirt and newobj.</param>
    internal sealed record Instruction(OpCode OpCode, MethodBase? Called);

    /// <summary>The instructions of <paramref name="method"/>; empty when it has no IL body.</summary>
    /// <param name="method">A method with a body.</param>
    internal static IReadOnlyList<Instruction> Read(MethodBase method)
    {
        var il = method.GetMethodBody()?.GetILAsByteArray();
        if (il is null)
        {
            return [];
        }

        var instructions = new List<Instruction>();
        var position = 0;
        while (position < il.Length)
        {
            short value = il[position++];
            if (value == 0xFE && position < il.Length)
            {
                value = (short)(0xFE00 | il[position++]);
            }

            if (!OpCodesByValue.TryGetValue(value, out var opCode))
            {
                break; // Unknown byte: stop rather than guess.
            }

            MethodBase? called = null;
            if (opCode.OperandType == OperandType.InlineMethod && position + 4 <= il.Length)
            {
                called = Resolve(method, BitConverter.ToInt32(il, position));
            }

            position += OperandSize(opCode, il, position);
            instructions.Add(new Instruction(opCode, called));
        }

        return instructions;
    }

    private static MethodBase? Resolve(MethodBase method, int token)
    {
        try
        {
            // A constructor has no generic arguments of its own (and GetGenericArguments throws on one).
            var ownArguments = method is MethodInfo info ? info.GetGenericArguments() : Type.EmptyTypes;
            return method.Module.ResolveMethod(token, method.DeclaringType?.GetGenericArguments(), ownArguments);
        }
        catch (ArgumentException)
        {
            return null;
        }
    }

    private static int OperandSize(OpCode opCode, byte[] il, int position) => opCode.OperandType switch
    {
        OperandType.InlineNone => 0,
        OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar => 1,
        OperandType.InlineVar => 2,
        OperandType.InlineI8 or OperandType.InlineR => 8,
        OperandType.InlineSwitch => position + 4 <= il.Length ? 4 + (4 * BitConverter.ToInt32(il, position)) : il.Length,
        _ => 4,
    };
}
