// SPDX-License-Identifier: MIT
// Issue 37: a process grid's faces are gathered, scattered and copied into a neighbour's field on the GPU, by the
// copy engine where the rows are long (y and z faces) and by a kernel where they are short (x faces). Both must move
// exactly the box's cells: against the host's pack_region on random bits, and a copy between two fields of other
// widths must leave every cell outside the box as it was (poisoned).
#include "gpu/backends/cuda/face_packing.h"
#include "gpu/backends/rank_domain.h"
#include "gpu_test_util.h"

#include <cstring>
#include <random>

using namespace ss;

namespace {

struct DeviceBuffer {
    explicit DeviceBuffer(std::size_t bytes) { EXPECT_EQ(cudaMalloc(&data, bytes), cudaSuccess); }
    ~DeviceBuffer() { cudaFree(data); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* data = nullptr;
};

std::vector<unsigned char> random_bytes(std::size_t n, unsigned seed) {
    std::mt19937 generator(seed);
    std::vector<unsigned char> bytes(n);
    for (unsigned char& b : bytes) b = static_cast<unsigned char>(generator());
    return bytes;
}

FaceBox box_in(const Extent& field, std::size_t element, const CellRegion& region) {
    FaceBox box;
    box.nx = field.nx, box.ny = field.ny, box.element = element;
    for (int a = 0; a < 3; ++a) box.begin[a] = region.begin[a], box.size[a] = region.size[a];
    return box;
}

struct Case {
    const char* name;
    CellRegion region; // in a 300 x 29 x 11 field
};

// An x face (rows of 4 cells: the kernel), a y face and a z face (rows of 290 cells: the copy engine in fp32 and
// fp64), and a y face of a narrow box (rows of 100 cells: the kernel in fp32, the copy engine in fp64).
const Case kCases[] = {
    { "x face", { { 4, 4, 4 }, { 4, 21, 3 } } },
    { "y face", { { 5, 20, 4 }, { 290, 4, 3 } } },
    { "z face", { { 5, 4, 0 }, { 290, 21, 4 } } },
    { "narrow y face", { { 100, 0, 2 }, { 100, 4, 9 } } },
};

void expect_packed_as_on_the_host(std::size_t element) {
    const Extent field { 300, 29, 11 };
    const std::size_t bytes = std::size_t(field.cells()) * element;
    const std::vector<unsigned char> values = random_bytes(bytes, 11);
    DeviceBuffer device_field(bytes);
    ASSERT_EQ(cudaMemcpy(device_field.data, values.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
    for (const Case& c : kCases) {
        SCOPED_TRACE(std::string(c.name) + ", " + std::to_string(element) + "-byte cells");
        const FaceBox box = box_in(field, element, c.region);
        const std::size_t packed_bytes = box.cells() * element;
        std::vector<unsigned char> expected(packed_bytes);
        pack_region(values.data(), field, element, c.region, expected.data());

        DeviceBuffer packed(packed_bytes);
        ASSERT_EQ(cudaMemset(packed.data, 0xA5, packed_bytes), cudaSuccess); // poisoned
        ASSERT_EQ(queue_pack_face(device_field.data, box, packed.data, nullptr), cudaSuccess);
        std::vector<unsigned char> got(packed_bytes);
        ASSERT_EQ(cudaMemcpy(got.data(), packed.data, packed_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
        EXPECT_TRUE(got == expected) << "packed face differs from the host's";

        // Unpacked into a poisoned field: the box's cells come back, every other cell keeps its poison.
        DeviceBuffer target(bytes);
        ASSERT_EQ(cudaMemset(target.data, 0x5A, bytes), cudaSuccess);
        ASSERT_EQ(queue_unpack_face(target.data, box, packed.data, nullptr), cudaSuccess);
        std::vector<unsigned char> unpacked(bytes), expected_field(bytes, 0x5A);
        unpack_region(expected_field.data(), field, element, c.region, expected.data());
        ASSERT_EQ(cudaMemcpy(unpacked.data(), target.data, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
        EXPECT_TRUE(unpacked == expected_field) << "unpacked field differs from the host's";
    }
}

// A face straight into another field (a neighbour's, wider and elsewhere): the cells land at `to`'s place.
void expect_copied_between_fields(std::size_t element) {
    const Extent from_field { 300, 29, 11 }, to_field { 310, 33, 12 };
    const std::size_t from_bytes = std::size_t(from_field.cells()) * element,
                      to_bytes = std::size_t(to_field.cells()) * element;
    const std::vector<unsigned char> values = random_bytes(from_bytes, 23);
    DeviceBuffer source(from_bytes), target(to_bytes);
    ASSERT_EQ(cudaMemcpy(source.data, values.data(), from_bytes, cudaMemcpyHostToDevice), cudaSuccess);
    for (const Case& c : kCases) {
        SCOPED_TRACE(std::string(c.name) + ", " + std::to_string(element) + "-byte cells");
        CellRegion landing = c.region;
        landing.begin[0] += 7, landing.begin[1] += 3, landing.begin[2] += 1;
        std::vector<unsigned char> packed(
            std::size_t(c.region.size[0]) * c.region.size[1] * c.region.size[2] * element);
        pack_region(values.data(), from_field, element, c.region, packed.data());
        std::vector<unsigned char> expected(to_bytes, 0xC3);
        unpack_region(expected.data(), to_field, element, landing, packed.data());

        ASSERT_EQ(cudaMemset(target.data, 0xC3, to_bytes), cudaSuccess);
        ASSERT_EQ(queue_copy_box(source.data, box_in(from_field, element, c.region), target.data,
                      box_in(to_field, element, landing), nullptr),
            cudaSuccess);
        std::vector<unsigned char> got(to_bytes);
        ASSERT_EQ(cudaMemcpy(got.data(), target.data, to_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
        EXPECT_TRUE(got == expected) << "copied face differs from the host's";
    }
}

} // namespace

TEST(FacePacking, PacksAndUnpacksTheBoxExactly) {
    SKIP_WITHOUT_GPU();
    expect_packed_as_on_the_host(4);
    expect_packed_as_on_the_host(8);
}

TEST(FacePacking, CopiesABoxIntoAnotherFieldAndNothingElse) {
    SKIP_WITHOUT_GPU();
    expect_copied_between_fields(4);
    expect_copied_between_fields(8);
}
