// SPDX-License-Identifier: MIT
// View > Kernel source's data: the CUDA text the backend compiles for a configuration, its PTX and SASS, with the
// marked and active lines, made off the GUI thread (NVRTC takes up to seconds) and delivered as plain values. The
// Session owns one KernelTextService and forwards requests and results; a newer request of a kind supersedes an
// older one, which is then neither compiled (when it has not started) nor delivered.
#pragma once

#include "gpu/backends/cuda/kernel_listing.h"
#include "gpu/problem/config.h"
#include "gpu/problem/device.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QThreadPool;
QT_END_NAMESPACE

namespace ss::gui {

enum class KernelTextKind {
    Listing, // source, PTX and SASS of the configuration shown
    SourceOnly, // source alone: the second configuration of a comparison
};

// One source text with its reading aids (kernel_listing.h): one entry per line.
struct MarkedText {
    QString text;
    std::vector<LineMark> marks;
    std::vector<bool> active;
};

struct KernelText {
    std::uint64_t request = 0;
    KernelTextKind kind = KernelTextKind::Listing;
    StencilConfig config;
    QString problem; // why there is no text; empty when there is
    QString about, entry, architecture;
    MarkedText generic, specialised; // specialised.text empty where the plan fixes no block
    QString specialised_note;
    QString compiled_label; // which text the PTX and SASS are of
    QString ptx, ptx_problem, sass, sass_problem, disassembler; // a form, or why it is missing (Listing only)
};

// The whole answer for `config` on `devices` (blocking: NVRTC and the disassembler run here).
KernelText make_kernel_text(const StencilConfig& config, const DeviceCatalogue& devices, KernelTextKind kind);

class KernelTextService : public QObject {
    Q_OBJECT
public:
    KernelTextService(const DeviceCatalogue& devices, QObject* parent);
    ~KernelTextService() override; // waits for a compile in flight

    std::uint64_t request(const StencilConfig&, KernelTextKind);

signals:
    void ready(const ss::gui::KernelText&);

private:
    DeviceCatalogue m_devices;
    QThreadPool* m_pool;
    std::uint64_t m_next = 0;
    // The newest request of each kind; shared with the jobs so that a superseded one skips its compile.
    std::shared_ptr<std::atomic<std::uint64_t>> m_latest[2];
};

} // namespace ss::gui
