// SPDX-License-Identifier: MIT
#include "widgets/colormap.h"

#include <algorithm>
#include <cmath>

namespace ss::gui {
namespace {

struct Rgb {
    double r, g, b;
};

// Polynomial fits of matplotlib's viridis and inferno (degree 6, max error < 1/255 per channel).
constexpr Rgb kViridis[7] = { { 0.2777273272234177, 0.005407344544966578, 0.3340998053353061 },
    { 0.1050930431085774, 1.404613529898575, 1.384590162594685 },
    { -0.3308618287255563, 0.214847559468213, 0.09509516302823659 },
    { -4.634230498983486, -5.799100973351585, -19.33244095627987 },
    { 6.228269936347081, 14.17993336680509, 56.69055260068105 },
    { 4.776384997670288, -13.74514537774601, -65.35303263337234 },
    { -5.435455855934631, 4.645852612178535, 26.3124352495832 } };
constexpr Rgb kInferno[7] = { { 0.0002189403691192265, 0.001651004631001012, -0.01948089843709184 },
    { 0.1065134194856116, 0.5639564367884091, 3.932712388889277 },
    { 11.60249308247187, -3.972853965665698, -15.9423941062914 },
    { -41.70399613139459, 17.43639888205313, 44.35414519872813 },
    { 77.162935699427, -33.40235894210092, -81.80730925738993 },
    { -71.31942824499214, 32.62606426397723, 73.20951985803202 },
    { 25.13112622477341, -12.24266895238567, -23.07032500287172 } };
// Moreland's cool-warm diverging map, sampled at 1/8 steps; neutral grey in the middle.
constexpr Rgb kCoolwarm[9] = { { 59, 76, 192 }, { 98, 130, 234 }, { 141, 176, 254 }, { 184, 208, 249 },
    { 221, 221, 221 }, { 245, 196, 173 }, { 244, 154, 123 }, { 222, 96, 77 }, { 180, 4, 38 } };

std::uint8_t to_byte(double v) {
    return std::uint8_t(std::lround(std::clamp(v, 0.0, 1.0) * 255.0));
}

ColormapTable from_polynomial(const Rgb (&c)[7]) {
    ColormapTable t {};
    for (int i = 0; i < kColormapSize; ++i) {
        const double x = double(i) / (kColormapSize - 1);
        Rgb v { 0, 0, 0 };
        for (int k = 6; k >= 0; --k) v = { v.r * x + c[k].r, v.g * x + c[k].g, v.b * x + c[k].b }; // Horner
        t[i] = { to_byte(v.r), to_byte(v.g), to_byte(v.b) };
    }
    return t;
}

ColormapTable from_samples(const Rgb (&s)[9]) {
    ColormapTable t {};
    for (int i = 0; i < kColormapSize; ++i) {
        const double x = double(i) / (kColormapSize - 1) * 8.0;
        const int k = std::min(int(x), 7);
        const double f = x - k;
        auto mix = [f](double a, double b) { return (a + (b - a) * f) / 255.0; };
        t[i] = { to_byte(mix(s[k].r, s[k + 1].r)), to_byte(mix(s[k].g, s[k + 1].g)), to_byte(mix(s[k].b, s[k + 1].b)) };
    }
    return t;
}

ColormapTable grayscale() {
    ColormapTable t {};
    for (int i = 0; i < kColormapSize; ++i) t[i] = { std::uint8_t(i), std::uint8_t(i), std::uint8_t(i) };
    return t;
}

} // namespace

const ColormapTable& colormap_table(ColormapKind kind) {
    static const ColormapTable viridis = from_polynomial(kViridis), inferno = from_polynomial(kInferno),
                               coolwarm = from_samples(kCoolwarm), gray = grayscale();
    switch (kind) {
    case ColormapKind::Viridis:
        return viridis;
    case ColormapKind::Inferno:
        return inferno;
    case ColormapKind::Coolwarm:
        return coolwarm;
    case ColormapKind::Grayscale:
        break;
    }
    return gray;
}

int colormap_index(float t) {
    if (!(t > 0.0f)) return 0; // also NaN
    if (t >= 1.0f) return kColormapSize - 1;
    return int(std::lround(t * float(kColormapSize - 1)));
}

} // namespace ss::gui
