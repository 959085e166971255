// SPDX-License-Identifier: MIT
// The CUDA backend's entry points in a CPU-only build (cpu_only.h): no device, and kNoCudaBackend as the
// reason wherever one is asked for. gpu/profiler/cupti_absent.cpp does the same for the hardware counters.
#include "gpu/backends/cpu_only.h"

#include "gpu/backends/bandwidth.h"
#include "gpu/backends/compute_peaks.h"
#include "gpu/backends/cuda/kernel_listing.h"
#include "gpu/backends/cuda/multi_gpu_simulation.h"
#include "gpu/backends/cuda/rank_domain_cuda.h"
#include "gpu/backends/cuda/rank_strip_cuda.h"
#include "gpu/backends/gl_interop.h"
#include "gpu/problem/cuda_support.h"
#include "gpu/problem/device.h"

#include <algorithm>

namespace ss {
namespace {

CudaPieceStatus absent(const char* name) {
    CudaPieceStatus s;
    s.name = name;
    s.problem = kNoCudaBackend;
    return s;
}

void refuse(std::string* why) {
    if (why) *why = kNoCudaBackend;
}

} // namespace

// cuda_support.h: what --version, `devices` and the About box print.
CudaPieceStatus cuda_driver_status() {
    return absent("CUDA driver");
}
CudaPieceStatus nvrtc_status() {
    return absent("NVRTC 13");
}
CudaPieceStatus cupti_status() {
    return absent("CUPTI 13");
}
std::string nvrtc_unavailable_reason() {
    return kNoCudaBackend;
}
std::string cupti_unavailable_reason() {
    return kNoCudaBackend;
}
std::string gpu_unusable_reason() {
    return kNoCudaBackend;
}
std::string cuda_support_summary() {
    return std::string(kNoCudaBackend) + "; the CPU backend runs";
}
std::string cuda_support_report() {
    return "CUDA: " + cuda_support_summary()
        + "\n  configure with the CUDA toolkit installed (STENCILSCOPE_CUDA=ON) to run kernels on an NVIDIA GPU\n";
}

// device.h: the catalogue is empty and says why.
std::string cuda_unavailable_reason() {
    return kNoCudaBackend;
}
DeviceCatalogue query_device_catalogue() {
    DeviceCatalogue c;
    c.unavailable = kNoCudaBackend;
    c.cuda_support = cuda_support_report();
    c.host_available = host_available_memory();
    return c;
}
void refresh_free_memory(DeviceCatalogue& c, int, int) {
    c.host_available = host_available_memory();
}

// Simulations and strips on a GPU.
std::unique_ptr<Simulation> create_cuda_simulation(const KernelPlan&, std::string* why) {
    refuse(why);
    return nullptr;
}
bool prepare_cuda_kernels(const KernelPlan&, std::string* why) {
    refuse(why);
    return false;
}
std::unique_ptr<Simulation> create_cuda_simulation_on_field(const KernelPlan&, Simulation&, bool, std::string*) {
    return nullptr; // no GPU field to hand over: the caller saves and restores
}
std::unique_ptr<Simulation> create_multi_gpu_simulation(
    const StencilConfig&, const StripPlan&, const std::vector<KernelPlan>&, std::string* why) {
    refuse(why);
    return nullptr;
}
std::unique_ptr<RankStrip> create_cuda_rank_strip(const KernelPlan&, const Strip&, int, std::string* why) {
    refuse(why);
    return nullptr;
}
std::unique_ptr<RankDomain> create_cuda_rank_domain(const RankDomainPlan&, std::string* why) {
    refuse(why);
    return nullptr;
}
std::shared_ptr<unsigned char> allocate_pinned(std::size_t bytes) { // no page-locking without CUDA: plain memory
    return std::shared_ptr<unsigned char>(
        new unsigned char[std::max<std::size_t>(bytes, 1)], std::default_delete<unsigned char[]>());
}

// kernel_listing.h: no NVRTC to compile with, so no PTX and no SASS (the source text needs no CUDA).
KernelListing kernel_listing(const std::string&, int cc_major, int cc_minor, bool) {
    KernelListing l;
    l.architecture = "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
    l.ptx_problem = std::string("no PTX: ") + kNoCudaBackend;
    l.sass_problem = std::string("no SASS: ") + kNoCudaBackend;
    return l;
}

// bandwidth.h: nothing to measure.
BandwidthResult measure_copy_bandwidth(int, std::int64_t, int) {
    BandwidthResult r;
    r.error = kNoCudaBackend;
    return r;
}
const CopyRoofline& measure_copy_roofline(int) {
    static const CopyRoofline none = [] {
        CopyRoofline r;
        r.measured.error = kNoCudaBackend;
        r.note = std::string("copy roofline not measured: ") + kNoCudaBackend;
        return r;
    }();
    return none;
}
// compute_peaks.h: no GPU, no L2 and no FMA peaks.
const ComputePeaks& measure_compute_peaks(int) {
    static const ComputePeaks none = [] {
        ComputePeaks r;
        r.error = kNoCudaBackend;
        return r;
    }();
    return none;
}

// gl_interop.h: frames always reach the screen through the host (create() refuses, so no buffers exist).
struct DeviceSliceBuffers::Impl { };
DeviceSliceBuffers::DeviceSliceBuffers(std::unique_ptr<Impl> impl)
    : m(std::move(impl)) { }
DeviceSliceBuffers::~DeviceSliceBuffers() = default;
std::shared_ptr<DeviceSliceBuffers> DeviceSliceBuffers::create(int, std::size_t, std::string* why) {
    refuse(why);
    return nullptr;
}
int DeviceSliceBuffers::device() const {
    return -1;
}
std::size_t DeviceSliceBuffers::floats() const {
    return 0;
}
float* DeviceSliceBuffers::slot(int) const {
    return nullptr;
}
void DeviceSliceBuffers::wait_for_reader(int) { }
unsigned* DeviceSliceBuffers::range_scratch() const {
    return nullptr;
}
unsigned* DeviceSliceBuffers::range_host() const {
    return nullptr;
}
std::pair<float, float> DeviceSliceBuffers::queued_range() const {
    return { 0.0f, 0.0f };
}

GlInteropDevices gl_interop_devices() {
    return { {}, kNoCudaBackend };
}

struct GlTextureLink::Impl { };
GlTextureLink::GlTextureLink()
    : m(std::make_unique<Impl>()) { }
GlTextureLink::~GlTextureLink() = default;
Status GlTextureLink::attach(unsigned int, int, int, int) {
    return Status::failure(kNoCudaBackend);
}
void GlTextureLink::detach() { }
bool GlTextureLink::attached() const {
    return false;
}
unsigned int GlTextureLink::gl_texture() const {
    return 0;
}
int GlTextureLink::device() const {
    return -1;
}
Status GlTextureLink::fill(DeviceSliceBuffers&, int, int, int) {
    return Status::failure(kNoCudaBackend);
}

} // namespace ss
