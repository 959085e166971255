// SPDX-License-Identifier: MIT
// CUDA-OpenGL interop for the live view, with neither Qt nor CUDA nor GL headers: GL objects are
// passed by name (unsigned int). The engine thread writes display slices into device staging; the
// GUI thread, with its GL context current, copies a slot straight into the registered GL texture that
// it draws, device to device. No host memory is touched on the way, and GL copies nothing.
#pragma once

#include "gpu/problem/config.h"

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ss {

// Two slots of device memory for display slices, so the engine can write one while the GUI reads
// the other. Each slot records when the GUI has finished reading it.
class DeviceSliceBuffers {
public:
    static constexpr int kSlots = 2;
    // nullptr with `why` set when the device memory cannot be allocated.
    static std::shared_ptr<DeviceSliceBuffers> create(int device, std::size_t floats, std::string* why);
    ~DeviceSliceBuffers();
    DeviceSliceBuffers(const DeviceSliceBuffers&) = delete;
    DeviceSliceBuffers& operator=(const DeviceSliceBuffers&) = delete;

    int device() const;
    std::size_t floats() const;
    float* slot(int index) const;
    // Engine thread: blocks until the GUI's last copy out of `index` has completed.
    void wait_for_reader(int index);
    // The automatic colour range of a slot: Simulation::queue_display_range(slot, count, range_scratch(),
    // range_host()) reduces it on the GPU; queued_range() reads it, once a later marker was waited for
    // ({0, 1} when no value was finite).
    unsigned* range_scratch() const;
    unsigned* range_host() const;
    std::pair<float, float> queued_range() const;

    struct Impl;

private:
    explicit DeviceSliceBuffers(std::unique_ptr<Impl>);
    std::unique_ptr<Impl> m;
    friend class GlTextureLink;
};

// The CUDA devices that can map buffers of the GL context current on the calling thread; when the
// list is empty, `reason` says why (no CUDA, GL on another GPU, ...).
struct GlInteropDevices {
    std::vector<int> devices;
    std::string reason;
};
GlInteropDevices gl_interop_devices();

// One GL_R32F 2D texture registered with CUDA. Use it on the GUI thread with the GL context current;
// detach before the texture is reallocated or deleted. (A pixel buffer, the usual route, made GL copy
// every frame into the texture on the H100's few graphics units, where it competes with the compute.)
class GlTextureLink {
public:
    GlTextureLink();
    ~GlTextureLink(); // unregisters: the GL context must still be current
    GlTextureLink(const GlTextureLink&) = delete;
    GlTextureLink& operator=(const GlTextureLink&) = delete;

    // width x height: the texture's storage; frames may fill a smaller corner of it (fill's extent).
    Status attach(unsigned int gl_texture, int width, int height, int device);
    void detach();
    bool attached() const;
    unsigned int gl_texture() const;
    int device() const; // -1 while detached
    // Map the texture, copy a width x height slice (rows of `width` floats, at most the storage's size) out of a
    // staging slot into the texture's corner on the link's own stream, mark the slot read (the engine waits on
    // that, not the GUI), unmap. GL commands issued afterwards see it.
    Status fill(DeviceSliceBuffers& from, int slot, int width, int height);

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace ss
