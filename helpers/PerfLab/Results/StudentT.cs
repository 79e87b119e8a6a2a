namespace PerfLab.Results;

/// <summary>
/// Student's t distribution, for any positive (also fractional: Welch–Satterthwaite) degrees of freedom: the
/// quantiles behind a ratio's interval and BenchmarkDotNet's Error of combined launches.
/// </summary>
internal static class StudentT
{
    /// <summary>The value below which a share <paramref name="p"/> of the distribution lies, e.g. Quantile(0.975, 4) = 2.776.</summary>
    /// <param name="p">The probability, strictly between 0 and 1.</param>
    /// <param name="degreesOfFreedom">Positive, not necessarily whole.</param>
    public static double Quantile(double p, double degreesOfFreedom)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(degreesOfFreedom);
        if (!(p > 0 && p < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(p), p, "A probability strictly between 0 and 1.");
        }

        if (p < 0.5)
        {
            return -Quantile(1 - p, degreesOfFreedom);
        }

        // The distribution function rises monotonically: bracket the quantile, then halve the bracket.
        var (low, high) = (0.0, 1.0);
        while (Cdf(high, degreesOfFreedom) < p)
        {
            (low, high) = (high, high * 2);
        }

        for (var i = 0; i < 200 && high - low > 1e-12 * high; i++)
        {
            var middle = (low + high) / 2;
            (low, high) = Cdf(middle, degreesOfFreedom) < p ? (middle, high) : (low, middle);
        }

        return (low + high) / 2;
    }

    /// <summary>The share of the distribution below <paramref name="t"/>.</summary>
    /// <param name="t">The value.</param>
    /// <param name="degreesOfFreedom">Positive, not necessarily whole.</param>
    public static double Cdf(double t, double degreesOfFreedom)
    {
        var tail = 0.5 * RegularizedBeta(degreesOfFreedom / 2, 0.5, degreesOfFreedom / (degreesOfFreedom + (t * t)));
        return t >= 0 ? 1 - tail : tail;
    }

    // I_x(a, b) by its continued fraction (Numerical Recipes, 6.4), on the side where it converges fast.
    private static double RegularizedBeta(double a, double b, double x)
    {
        if (x <= 0)
        {
            return 0;
        }

        if (x >= 1)
        {
            return 1;
        }

        var front = Math.Exp(LogGamma(a + b) - LogGamma(a) - LogGamma(b) + (a * Math.Log(x)) + (b * Math.Log(1 - x)));
        return x < (a + 1) / (a + b + 2)
            ? front * BetaContinuedFraction(a, b, x) / a
            : 1 - (front * BetaContinuedFraction(b, a, 1 - x) / b);
    }

    private static double BetaContinuedFraction(double a, double b, double x)
    {
        const double Tiny = 1e-300;
        static double NotZero(double v) => Math.Abs(v) < Tiny ? Tiny : v;
        var c = 1.0;
        var d = 1 / NotZero(1 - ((a + b) * x / (a + 1)));
        var h = d;
        for (var m = 1; m <= 500; m++)
        {
            var even = m * (b - m) * x / ((a + (2 * m) - 1) * (a + (2 * m)));
            d = 1 / NotZero(1 + (even * d));
            c = NotZero(1 + (even / c));
            h *= d * c;
            var odd = -(a + m) * (a + b + m) * x / ((a + (2 * m)) * (a + (2 * m) + 1));
            d = 1 / NotZero(1 + (odd * d));
            c = NotZero(1 + (odd / c));
            var step = d * c;
            h *= step;
            if (Math.Abs(step - 1) < 1e-15)
            {
                break;
            }
        }

        return h;
    }

    // Lanczos' approximation (g = 7, nine terms): about 15 significant digits for positive arguments.
    private static readonly double[] Lanczos =
    [
        0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
        12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
    ];

    private static double LogGamma(double x)
    {
        if (x < 0.5)
        {
            // Reflection: Γ(x)Γ(1-x) = π / sin(πx).
            return Math.Log(Math.PI / Math.Abs(Math.Sin(Math.PI * x))) - LogGamma(1 - x);
        }

        x -= 1;
        var sum = Lanczos[0];
        for (var i = 1; i < Lanczos.Length; i++)
        {
            sum += Lanczos[i] / (x + i);
        }

        var t = x + 7.5;
        return (0.5 * Math.Log(2 * Math.PI)) + ((x + 0.5) * Math.Log(t)) - t + Math.Log(sum);
    }
}
