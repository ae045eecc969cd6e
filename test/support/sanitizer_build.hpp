// Whether this test program is built with AddressSanitizer: long experiments skip themselves there.
#pragma once

namespace flashxxl_test {

#if defined(__SANITIZE_ADDRESS__)
//! True in the ASan + UBSan build, whose runs of the papers' larger experiments take minutes.
constexpr bool sanitized_build = true;
#else
//! True in the ASan + UBSan build, whose runs of the papers' larger experiments take minutes.
constexpr bool sanitized_build = false;
#endif

} // namespace flashxxl_test
