public class PathLength
{
    private readonly double[] _xs = Enumerable.Range(0, 100).Select(i => Math.Cos(i * 0.1) * i).ToArray();
    private readonly double[] _ys = Enumerable.Range(0, 100).Select(i => Math.Sin(i * 0.1) * i).ToArray();

    [Benchmark]
    public double Measure()
    {
        double length = 0;
        for (int i = 1; i < _xs.Length; i++)
        {
            double dx = _xs[i] - _xs[i - 1];
            double dy = _ys[i] - _ys[i - 1];
            length += Math.Sqrt(dx * dx + dy * dy);
        }

        return length; // handed to BenchmarkDotNet, so every runtime has to compute it
    }
}
