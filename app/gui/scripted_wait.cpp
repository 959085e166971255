// SPDX-License-Identifier: MIT
#include "app/gui/scripted_wait.h"

#include "session/session.h"
#include "widgets/field_view.h"
#include "widgets/main_window.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

namespace ss::gui {

bool wait_until(MainWindow& w, const std::function<bool()>& done, std::string& why) {
    QEventLoop loop;
    int last_frames = -1;
    QElapsedTimer since_progress;
    since_progress.start();
    QTimer poll;
    poll.setInterval(5);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done()) return loop.quit();
        const int frames = w.field_view().frames_presented();
        if (frames != last_frames) {
            last_frames = frames;
            since_progress.restart();
        } else if (since_progress.elapsed() > kStallSeconds * 1000) {
            why = "no frame was displayed for " + std::to_string(kStallSeconds) + " s";
            loop.quit();
        }
    });
    QObject::connect(&w.session(), &Session::failed, &loop, [&](const EngineFailure& f) {
        why = f.reason;
        loop.quit();
    });
    poll.start();
    loop.exec();
    return why.empty();
}

} // namespace ss::gui
