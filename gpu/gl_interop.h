// SPDX-License-Identifier: MIT
// CUDA-OpenGL interop for the live view, with neither Qt nor CUDA nor GL headers: GL objects are
// passed by name (unsigned int). The engine thread writes display slices into device staging; the
// GUI thread, with its GL context current, copies a slot into a registered pixel buffer, device to
// device, and uploads it to a texture. No host memory is touched on the way.
#pragma once

#include "gpu/config.h"

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
    friend class GlBufferLink;
};

// The CUDA devices that can map buffers of the GL context current on the calling thread; when the
// list is empty, `reason` says why (no CUDA, GL on another GPU, ...).
struct GlInteropDevices {
    std::vector<int> devices;
    std::string reason;
};
GlInteropDevices gl_interop_devices();

// One GL buffer object registered with CUDA. Use it on the GUI thread with the GL context current.
class GlBufferLink {
public:
    GlBufferLink();
    ~GlBufferLink(); // unregisters: the GL context must still be current
    GlBufferLink(const GlBufferLink&) = delete;
    GlBufferLink& operator=(const GlBufferLink&) = delete;

    Status attach(unsigned int gl_buffer, int device);
    void detach();
    bool attached() const;
    unsigned int gl_buffer() const;
    // Map the buffer, copy `floats` values out of a staging slot on the link's own stream, mark the
    // slot read (the engine waits on that, not the GUI), unmap. GL commands issued afterwards see the data.
    Status fill(DeviceSliceBuffers& from, int slot, std::size_t floats);

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace ss
