// SPDX-License-Identifier: MIT
// Whether this translation unit is built with AddressSanitizer. ASan aborts the process when a library is
// loaded with RTLD_DEEPBIND, as CUPTI loads its metric library (github.com/google/sanitizers/issues/611),
// so a sanitizer build treats hardware counters as unavailable instead.
#pragma once

namespace ss {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

} // namespace ss
