// SPDX-License-Identifier: MIT
// What both programs do with their standard streams, as coreutils do. A stream closed at start (`>&-`) is
// held by the read end of an empty pipe: no file opened later takes its number (the report would land
// in a CSV), and a write to it still fails (EBADF). A write to stdout that failed (a full disk,
// /dev/full, a closed stdout) is an error at the end: exit status 1 and one line on stderr. Numbers
// meant to be parsed are written in the C locale, whatever the user's. Qt-free, POSIX.
#pragma once

namespace ss {

// First thing in main, before any file is opened.
void hold_closed_standard_streams();

// After anything that may have called setlocale(LC_ALL, "") (QApplication does, on Unix): printf-style
// numbers and std::cout/std::cerr go back to the C locale's "245.0", never "245,0". Messages stay in the
// user's language where they are translated (LC_MESSAGES is left alone).
void write_numbers_in_the_c_locale();

// Last thing in main, with its exit status: flushes std::cout and stdout and closes stdout. Returns
// `code`, or 1 in place of 0 when what was written to stdout did not all get there; then "PROGRAM: cannot
// write to stdout: REASON" goes to stderr (lost too when stderr fails).
int finish_stdout(int code, const char* program);

} // namespace ss
