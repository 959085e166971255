// SPDX-License-Identifier: MIT
// libFuzzer target for the setup and lesson loader (session/setup_file). Whatever the bytes, the loader
// either refuses them with a one-line reason and leaves the setup as it was, or accepts a setup that the
// window's save writes back in a form the loader reads as the same setup.
#include "session/setup_file.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace ss;
using namespace ss::gui;

namespace {

bool same(const SetupState& a, const SetupState& b) {
    return a.settings == b.settings && a.steps_per_frame == b.steps_per_frame && a.colormap == b.colormap
        && a.slice == b.slice && a.title == b.title && a.explanation == b.explanation;
}

// A setup no file gives by accident, to see that a refused file leaves it untouched.
SetupState sentinel() {
    SetupState s;
    s.settings.config.problem.radius = 7;
    s.settings.config.problem.seed = 424242;
    s.steps_per_frame = 3;
    s.title = QStringLiteral("sentinel");
    return s;
}

[[noreturn]] void violated(const char* what, const QString& detail) {
    std::fprintf(stderr, "setup_loader_fuzzer: %s: %s\n", what, detail.toUtf8().constData());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray json = QByteArray::fromRawData(reinterpret_cast<const char*>(data), qsizetype(size));
    RunSettings current; // the hardware a lesson keeps: the CPU backend, as without a GPU
    current.config.placement.backend = Backend::Cpu;

    const SetupState before = sentinel();
    SetupState loaded = before;
    QString why;
    if (!setup_from_json(json, current, loaded, &why)) {
        if (why.isEmpty()) violated("refused without a reason", why);
        if (why.contains(QLatin1Char('\n')) || why.contains(QLatin1Char('\r')))
            violated("the reason is more than one line", why);
        if (why.size() > 400) violated("the reason is longer than 400 characters", why.left(400));
        if (!same(loaded, before)) violated("a refused setup changed the settings", why);
        return 0;
    }
    SetupState reloaded;
    if (!setup_from_json(setup_to_json(loaded), current, reloaded, &why))
        violated("a saved setup does not load back", why);
    if (!same(loaded, reloaded))
        violated("a saved setup loads back different", QString::fromUtf8(setup_to_json(reloaded)));
    return 0;
}
