using System.Runtime.CompilerServices;

public sealed class Point
{
    public Point(double x, double y) { X = x; Y = y; }
    public double X { get; }
    public double Y { get; }
}

public class Segment
{
    private readonly double _x1 = 1, _y1 = 2, _x2 = 4, _y2 = 6;

    [Benchmark]
    public double Length()
    {
        var start = new Point(_x1, _y1);
        var end = new Point(_x2, _y2);
        return Distance(start, end);
    }

    // No NoInlining: the JIT inlines Distance, sees the points only read there, and keeps them on the stack.
    private static double Distance(Point from, Point to)
    {
        double dx = to.X - from.X, dy = to.Y - from.Y;
        return Math.Sqrt(dx * dx + dy * dy);
    }
}
