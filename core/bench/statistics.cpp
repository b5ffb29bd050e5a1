// SPDX-License-Identifier: MIT
#include "statistics.h"

#include <algorithm>
#include <cmath>

namespace asc {

Summary summarise(std::vector<double> values)
{
    Summary s;
    s.count = int(values.size());
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    s.min = values.front();
    s.max = values.back();
    const size_t n = values.size();
    s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    double sum = 0;
    for (double v : values)
        sum += v;
    s.mean = sum / double(n);
    if (n > 1) {
        double squares = 0;
        for (double v : values)
            squares += (v - s.mean) * (v - s.mean);
        s.sd = std::sqrt(squares / double(n - 1));
    }
    return s;
}

// Regularised incomplete beta I_x(a, b) by Lentz's continued fraction (Numerical Recipes' form).
static double incompleteBeta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
    if (x > (a + 1) / (a + b + 2))
        return 1 - incompleteBeta(b, a, 1 - x);
    const double tiny = 1e-300;
    double f = 1, c = 1, d = 0;
    for (int i = 0; i <= 400; ++i) {
        const int m = i / 2;
        double numerator;
        if (i == 0)
            numerator = 1;
        else if (i % 2 == 0)
            numerator = (m * (b - m) * x) / ((a + 2.0 * m - 1) * (a + 2.0 * m));
        else
            numerator = -((a + m) * (a + b + m) * x) / ((a + 2.0 * m) * (a + 2.0 * m + 1));
        d = 1 + numerator * d;
        if (std::fabs(d) < tiny)
            d = tiny;
        d = 1 / d;
        c = 1 + numerator / c;
        if (std::fabs(c) < tiny)
            c = tiny;
        const double cd = c * d;
        f *= cd;
        if (std::fabs(1 - cd) < 1e-12)
            break;
    }
    return front * (f - 1) / a;
}

WelchTest welch(const Summary &a, const Summary &b)
{
    WelchTest w;
    if (a.count < 2 || b.count < 2)
        return w;
    const double va = a.sd * a.sd / a.count;
    const double vb = b.sd * b.sd / b.count;
    if (va + vb <= 0) {
        w.pValue = a.mean == b.mean ? 1 : 0;
        w.t = a.mean == b.mean ? 0 : INFINITY;
        return w;
    }
    w.t = (b.mean - a.mean) / std::sqrt(va + vb);
    w.degreesOfFreedom = (va + vb) * (va + vb) / (va * va / (a.count - 1) + vb * vb / (b.count - 1));
    // Two-sided p from Student's t: p = I_{df/(df+t^2)}(df/2, 1/2).
    w.pValue = incompleteBeta(w.degreesOfFreedom / 2, 0.5, w.degreesOfFreedom / (w.degreesOfFreedom + w.t * w.t));
    return w;
}

Ratio ratioOf(const Summary &numerator, const Summary &denominator)
{
    Ratio r;
    if (denominator.mean == 0 || numerator.mean == 0)
        return r;
    r.value = numerator.mean / denominator.mean;
    r.sd = r.value * std::sqrt(std::pow(numerator.sd / numerator.mean, 2) + std::pow(denominator.sd / denominator.mean, 2));
    return r;
}

} // namespace asc
