// Error handling of the CPU vendor: kernels throw impl::cpu::Error (via fail()
// or CPU_CHECK) and the guard() barrier turns it into a diopiError_t plus a
// thread-local message, so nothing ever unwinds through the C ABI.
#pragma once

#include <diopi/diopirt.h>

#include <exception>
#include <new>
#include <sstream>
#include <string>
#include <utility>

namespace impl::cpu {

/// Records `msg` as this thread's last error (the adaptor calls this too).
void setLastErrorString(const char* msg);
/// This thread's last error message ("" if none).
const char* lastErrorString();

/// A failure with a DIOPI status code; only ever thrown inside guard().
struct Error : std::exception {
    diopiError_t code;
    std::string msg;
    Error(diopiError_t c, std::string m) : code(c), msg(std::move(m)) {}
    const char* what() const noexcept override { return msg.c_str(); }
};

namespace detail {
template <class... Args>
std::string concat(Args&&... args) {
    std::ostringstream os;
    (os << ... << std::forward<Args>(args));
    return os.str();
}
}  // namespace detail

/// Throws a diopiErrorOccurred error whose message is the concatenation of `args`.
template <class... Args>
[[noreturn]] void fail(Args&&... args) {
    throw Error(diopiErrorOccurred, detail::concat(std::forward<Args>(args)...));
}
/// Throws with an explicit status code (e.g. diopiDtypeNotSupported, diopiNoImplement).
template <class... Args>
[[noreturn]] void failCode(diopiError_t code, Args&&... args) {
    throw Error(code, detail::concat(std::forward<Args>(args)...));
}

/// Throws diopiErrorOccurred with the message when `cond` is false.
#define CPU_CHECK(cond, ...)                                   \
    do {                                                       \
        if (!(cond)) ::impl::cpu::fail(__VA_ARGS__);           \
    } while (0)

/// Runs `body` and maps every exception to a status code; the message is
/// prefixed with `func` (pass __func__ so it names the DIOPI function).
template <class F>
diopiError_t guard(const char* func, F&& body) noexcept {
    try {
        body();
        return diopiSuccess;
    } catch (const Error& e) {
        setLastErrorString(detail::concat(func, ": ", e.msg).c_str());
        return e.code;
    } catch (const std::bad_alloc&) {
        setLastErrorString(detail::concat(func, ": out of host memory").c_str());
        return diopiErrorOccurred;
    } catch (const std::exception& e) {
        setLastErrorString(detail::concat(func, ": ", e.what()).c_str());
        return diopiErrorOccurred;
    } catch (...) {
        setLastErrorString(detail::concat(func, ": unknown C++ exception").c_str());
        return diopiErrorOccurred;
    }
}

}  // namespace impl::cpu
