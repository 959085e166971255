// SPDX-License-Identifier: MIT
#include "gpu/backends/gl_interop.h"

#include "gpu/backends/cuda/display_range.h"

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <algorithm>

namespace ss {
namespace {

std::string cuda_text(const char* what, cudaError_t e) {
    return std::string(what) + ": " + cudaGetErrorString(e);
}

} // namespace

struct DeviceSliceBuffers::Impl {
    int device = 0;
    std::size_t floats = 0;
    float* slots[kSlots] = {};
    cudaEvent_t read_done[kSlots] = {}; // recorded by the GUI's copy; never recorded = never read
    unsigned* device_range = nullptr; // 2 encoded values
    unsigned* host_range = nullptr; // pinned: the copy back is a plain DMA on the simulation's stream
};

DeviceSliceBuffers::DeviceSliceBuffers(std::unique_ptr<Impl> impl)
    : m(std::move(impl)) { }

std::shared_ptr<DeviceSliceBuffers> DeviceSliceBuffers::create(int device, std::size_t floats, std::string* why) {
    auto impl = std::make_unique<Impl>();
    impl->device = device;
    impl->floats = floats;
    std::shared_ptr<DeviceSliceBuffers> out(new DeviceSliceBuffers(std::move(impl)));
    auto fail = [&](const char* what, cudaError_t e) {
        if (why) *why = cuda_text(what, e);
        return nullptr;
    };
    if (cudaError_t e = cudaSetDevice(device); e != cudaSuccess) return fail("cudaSetDevice", e);
    for (int i = 0; i < kSlots; ++i) {
        if (cudaError_t e = cudaMalloc(&out->m->slots[i], floats * sizeof(float)); e != cudaSuccess)
            return fail("cudaMalloc (display staging)", e);
        if (cudaError_t e = cudaEventCreateWithFlags(&out->m->read_done[i], cudaEventDisableTiming); e != cudaSuccess)
            return fail("cudaEventCreate", e);
    }
    if (cudaError_t e = cudaMalloc(&out->m->device_range, 2 * sizeof(unsigned)); e != cudaSuccess)
        return fail("cudaMalloc (display range)", e);
    if (cudaError_t e = cudaMallocHost(&out->m->host_range, 2 * sizeof(unsigned)); e != cudaSuccess)
        return fail("cudaMallocHost (display range)", e);
    return out;
}

DeviceSliceBuffers::~DeviceSliceBuffers() {
    cudaSetDevice(m->device);
    for (int i = 0; i < kSlots; ++i) {
        if (m->read_done[i]) cudaEventSynchronize(m->read_done[i]); // a GUI copy may still be reading
        if (m->read_done[i]) cudaEventDestroy(m->read_done[i]);
        if (m->slots[i]) cudaFree(m->slots[i]);
    }
    if (m->device_range) cudaFree(m->device_range);
    if (m->host_range) cudaFreeHost(m->host_range);
}

int DeviceSliceBuffers::device() const {
    return m->device;
}
std::size_t DeviceSliceBuffers::floats() const {
    return m->floats;
}
float* DeviceSliceBuffers::slot(int index) const {
    return m->slots[index];
}

void DeviceSliceBuffers::wait_for_reader(int index) {
    cudaSetDevice(m->device);
    cudaEventSynchronize(m->read_done[index]);
}

unsigned* DeviceSliceBuffers::range_scratch() const {
    return m->device_range;
}
unsigned* DeviceSliceBuffers::range_host() const {
    return m->host_range;
}
std::pair<float, float> DeviceSliceBuffers::queued_range() const {
    return decode_display_range(m->host_range);
}

GlInteropDevices gl_interop_devices() {
    GlInteropDevices out;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        (void)cudaGetLastError();
        out.reason = "no CUDA device";
        return out;
    }
    unsigned int found = 0;
    int devices[16] = {};
    const cudaError_t e = cudaGLGetDevices(&found, devices, 16, cudaGLDeviceListAll);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        out.reason
            = e == cudaErrorNoDevice ? "the GL context is not on a CUDA device" : cuda_text("cudaGLGetDevices", e);
        return out;
    }
    out.devices.assign(devices, devices + std::min(found, 16u));
    if (out.devices.empty()) out.reason = "the GL context is not on a CUDA device";
    return out;
}

struct GlTextureLink::Impl {
    unsigned int texture = 0;
    int width = 0, height = 0;
    int device = -1;
    cudaGraphicsResource_t resource = nullptr;
    cudaStream_t stream = nullptr;
};

GlTextureLink::GlTextureLink()
    : m(std::make_unique<Impl>()) { }

GlTextureLink::~GlTextureLink() {
    detach();
}

Status GlTextureLink::attach(unsigned int gl_texture, int width, int height, int device) {
    detach();
    if (cudaError_t e = cudaSetDevice(device); e != cudaSuccess) return Status::failure(cuda_text("cudaSetDevice", e));
    if (cudaError_t e = cudaStreamCreateWithFlags(&m->stream, cudaStreamNonBlocking); e != cudaSuccess)
        return Status::failure(cuda_text("cudaStreamCreate", e));
    constexpr unsigned kGlTexture2D = 0x0DE1; // GL_TEXTURE_2D, without including GL here
    const cudaError_t e
        = cudaGraphicsGLRegisterImage(&m->resource, gl_texture, kGlTexture2D, cudaGraphicsRegisterFlagsWriteDiscard);
    if (e != cudaSuccess) {
        m->resource = nullptr;
        detach();
        return Status::failure(cuda_text("cudaGraphicsGLRegisterImage", e));
    }
    m->texture = gl_texture;
    m->width = width, m->height = height;
    m->device = device;
    return Status::success();
}

void GlTextureLink::detach() {
    if (m->device >= 0) cudaSetDevice(m->device);
    if (m->resource) cudaGraphicsUnregisterResource(m->resource);
    if (m->stream) cudaStreamDestroy(m->stream);
    *m = Impl {};
}

bool GlTextureLink::attached() const {
    return m->resource != nullptr;
}
unsigned int GlTextureLink::gl_texture() const {
    return m->texture;
}
int GlTextureLink::device() const {
    return m->device;
}

Status GlTextureLink::fill(DeviceSliceBuffers& from, int slot, int width, int height) {
    if (!m->resource) return Status::failure("no GL texture is registered");
    if (from.device() != m->device) return Status::failure("the staging is on another CUDA device than the GL texture");
    if (width <= 0 || height <= 0 || width > m->width || height > m->height)
        return Status::failure("display slice is larger than the GL texture");
    const std::size_t row = std::size_t(width) * sizeof(float);
    if (slot < 0 || slot >= DeviceSliceBuffers::kSlots || std::size_t(width) * height > from.floats())
        return Status::failure("display slice does not fit the staging");
    cudaSetDevice(m->device);
    if (cudaError_t e = cudaGraphicsMapResources(1, &m->resource, m->stream); e != cudaSuccess)
        return Status::failure(cuda_text("cudaGraphicsMapResources", e));
    cudaArray_t array = nullptr;
    cudaError_t e = cudaGraphicsSubResourceGetMappedArray(&array, m->resource, 0, 0);
    if (e == cudaSuccess)
        e = cudaMemcpy2DToArrayAsync(
            array, 0, 0, from.slot(slot), row, row, height, cudaMemcpyDeviceToDevice, m->stream);
    if (e == cudaSuccess) e = cudaEventRecord(from.m->read_done[slot], m->stream);
    // Unmapping orders the copy before any GL command issued after it; no host wait needed.
    const cudaError_t unmap = cudaGraphicsUnmapResources(1, &m->resource, m->stream);
    if (e != cudaSuccess) return Status::failure(cuda_text("interop copy", e));
    if (unmap != cudaSuccess) return Status::failure(cuda_text("cudaGraphicsUnmapResources", unmap));
    return Status::success();
}

} // namespace ss
