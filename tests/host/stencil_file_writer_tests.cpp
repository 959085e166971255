// SPDX-License-Identifier: MIT
// Issue 34, the stencil editor's save: a shape written as a stencil file reads back equal (every named shape,
// awkward weights, a name with a backslash), and a shape the reader would refuse is not written.
#include "command_result.h"
#include "gpu/problem/stencil_catalog.h"
#include "gpu/problem/stencil_file.h"
#include "reports/stencil_options.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>

using namespace ss;

namespace {

StencilShape read_back(const std::string& text) {
    StencilShape s;
    const Status status = parse_stencil_json(text, "fallback", s);
    EXPECT_TRUE(status) << status.reason << "\n" << text;
    return s;
}

} // namespace

TEST(StencilFileWriter, EveryNamedShapeRoundTrips) {
    std::vector<StencilShape> shapes { box_shape(2, 2), box_shape(3, 1) };
    for (const std::string_view name : ebisu_stencil_names()) shapes.push_back(*ebisu_shape(name));
    for (const StencilShape& shape : shapes) EXPECT_EQ(read_back(stencil_json(shape)), shape) << shape.name;
}

TEST(StencilFileWriter, WeightsReadBackBitForBit) {
    const double tiny = std::numeric_limits<double>::denorm_min();
    StencilShape s { "odd\\name", 2,
        { { 0, -1, 0, 1.0 / 3.0 }, { -16, 0, 0, -0.0 }, { 0, 0, 0, 1e300 }, { 1, 0, 0, tiny }, { 0, 16, 0, -2.5e-7 } },
        {} };
    sort_points(s.points);
    const StencilShape back = read_back(stencil_json(s));
    EXPECT_EQ(back, s);
    ASSERT_EQ(back.points.size(), s.points.size());
    EXPECT_TRUE(std::signbit(back.points[1].weight)); // (-16, 0): -0 keeps its sign
    EXPECT_EQ(back.name, "odd\\name");
}

TEST(StencilFileWriter, PointsComeOutInCanonicalOrderWhateverTheInput) {
    StencilShape s { "unsorted", 3, { { 0, 0, 1, 0.25 }, { 1, 0, 0, 0.25 }, { 0, 0, -1, 0.5 } }, {} };
    StencilShape sorted = s;
    sort_points(sorted.points);
    EXPECT_EQ(read_back(stencil_json(s)), sorted);
}

TEST(StencilFileWriter, FileRoundTripsAndInvalidShapesWriteNothing) {
    const std::filesystem::path dir = test::scratch_folder("stencil-writer");
    const std::string path = (dir / "my9pt.json").string();
    const StencilShape shape = *ebisu_shape("2d9pt");
    ASSERT_TRUE(write_stencil_file(path, shape));
    StencilShape back;
    ASSERT_TRUE(read_stencil_file(path, "stencil file", back));
    EXPECT_EQ(back, shape);
    EXPECT_EQ(back.source, path);

    StencilShape bad = shape;
    bad.points[0].weight = std::nan("");
    const Status refused = write_stencil_file(path, bad);
    EXPECT_FALSE(refused);
    EXPECT_NE(refused.reason.find("not a finite number"), std::string::npos) << refused.reason;
    StencilShape spaced = shape;
    spaced.name = "my stencil";
    EXPECT_FALSE(write_stencil_file((dir / "spaced.json").string(), spaced));
    EXPECT_FALSE(std::filesystem::exists(dir / "spaced.json"));
    ASSERT_TRUE(read_stencil_file(path, "stencil file", back)); // the refused write left the file as it was
    EXPECT_EQ(back, shape);
}
