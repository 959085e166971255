// SPDX-License-Identifier: MIT
#include "session/kernel_text.h"

#include "gpu/plan/launch_plan.h"

#include <QMetaObject>
#include <QThreadPool>

namespace ss::gui {
namespace {

MarkedText marked(const std::string& source, int cc_major, int cc_minor) {
    MarkedText m;
    m.text = QString::fromStdString(source);
    if (source.empty()) return m;
    m.marks = marked_lines(source);
    m.active = active_lines(source, cc_major, cc_minor);
    return m;
}

} // namespace

KernelText make_kernel_text(const StencilConfig& config, const DeviceCatalogue& devices, KernelTextKind kind) {
    KernelText k;
    k.kind = kind;
    k.config = config;
    const KernelTexts t = kernel_texts(make_launch_plan(config, devices));
    k.problem = QString::fromStdString(t.problem);
    if (!t.problem.empty()) return k;
    k.about = QString::fromStdString(t.about);
    k.entry = QString::fromStdString(t.entry);
    k.architecture = QStringLiteral("sm_%1%2").arg(t.cc_major).arg(t.cc_minor);
    k.generic = marked(t.generic, t.cc_major, t.cc_minor);
    k.specialised = marked(t.specialised, t.cc_major, t.cc_minor);
    k.specialised_note = QString::fromStdString(t.specialised_note);
    k.compiled_label
        = t.specialised.empty() ? QStringLiteral("the generic text") : QStringLiteral("the specialised text");
    if (kind != KernelTextKind::Listing) return k;
    const KernelListing l = kernel_listing(t.compiled(), t.cc_major, t.cc_minor);
    k.ptx = QString::fromStdString(l.ptx);
    k.ptx_problem = QString::fromStdString(l.ptx_problem);
    k.sass = QString::fromStdString(l.sass);
    k.sass_problem = QString::fromStdString(l.sass_problem);
    k.disassembler = QString::fromStdString(l.disassembler);
    return k;
}

KernelTextService::KernelTextService(const DeviceCatalogue& devices, QObject* parent)
    : QObject(parent)
    , m_devices(devices)
    , m_pool(new QThreadPool(this)) {
    m_pool->setMaxThreadCount(1); // one compile at a time: the engine thread may be building kernels too
    for (auto& latest : m_latest) latest = std::make_shared<std::atomic<std::uint64_t>>(0);
}

KernelTextService::~KernelTextService() {
    m_pool->clear();
    m_pool->waitForDone();
}

std::uint64_t KernelTextService::request(const StencilConfig& config, KernelTextKind kind) {
    const std::uint64_t id = ++m_next;
    std::shared_ptr<std::atomic<std::uint64_t>> latest = m_latest[kind == KernelTextKind::Listing ? 0 : 1];
    latest->store(id);
    m_pool->start([this, id, latest, config, kind, devices = m_devices] {
        if (latest->load() != id) return; // superseded before it started
        KernelText k = make_kernel_text(config, devices, kind);
        k.request = id;
        // This object outlives the job (its destructor waits for the pool), so the queued call finds it.
        QMetaObject::invokeMethod(
            this,
            [this, latest, k = std::move(k)] {
                if (latest->load() == k.request) emit ready(k);
            },
            Qt::QueuedConnection);
    });
    return id;
}

} // namespace ss::gui
