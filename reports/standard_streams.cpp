// SPDX-License-Identifier: MIT
#include "reports/standard_streams.h"

#include <fcntl.h>
#include <stdio_ext.h>
#include <unistd.h>

#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <locale>
#include <string>

namespace ss {

void hold_closed_standard_streams() {
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        int ends[2];
        if (::pipe(ends) != 0) continue; // as good as closed: the check at the end still sees a failed write
        ::close(ends[1]); // reads get end-of-file at once, writes EBADF (a read end), and no path names it
        if (ends[0] != fd) {
            ::dup2(ends[0], fd);
            ::close(ends[0]);
        }
    }
}

void write_numbers_in_the_c_locale() {
    std::setlocale(LC_NUMERIC, "C");
    std::cout.imbue(std::locale::classic());
    std::cerr.imbue(std::locale::classic());
}

int finish_stdout(int code, const char* program) {
    // std::cout writes through stdout's buffer (synced with stdio): flushing both, then closing stdout,
    // is every byte's last chance to fail.
    std::cout.flush();
    int reason = 0;
    const bool stream_failed = std::cout.bad();
    if (std::fflush(stdout) != 0) reason = errno;
    const bool failed_before = std::ferror(stdout) != 0;
    const bool pending = __fpending(stdout) != 0;
    const bool close_failed = std::fclose(stdout) != 0;
    if (close_failed && reason == 0) reason = errno;
    // Closing a stdout that was closed all along fails with EBADF: an error only when something was written.
    const bool lost = stream_failed || failed_before || (close_failed && (pending || reason != EBADF));
    if (!lost) return code;
    std::cerr << program << ": cannot write to stdout" << (reason ? ": " + std::string(std::strerror(reason)) : "")
              << "\n";
    return code != 0 ? code : 1;
}

} // namespace ss
