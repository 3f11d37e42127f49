// Errors inside the core travel as fftmux::Error and become a status plus a
// thread-local message at the C boundary (api.cpp), so no exception crosses it.
#pragma once

#include <fftmux/fftmux.h>

#include <stdexcept>
#include <string>

namespace fftmux {

class Error : public std::runtime_error {
public:
  Error(fftmux_status status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  fftmux_status status() const { return status_; }

private:
  fftmux_status status_;
};

[[noreturn]] inline void fail(fftmux_status status, const std::string& message) {
  throw Error(status, message);
}

[[noreturn]] inline void invalid(const std::string& message) {
  fail(FFTMUX_ERROR_INVALID_ARGUMENT, message);
}

// The calling thread's message, as fftmux_last_error() returns it.
void set_last_error(const std::string& message);
void clear_last_error(); // on every call's hot path: no string built
const char* last_error();

// Runs body and turns every exception into a status, prefixing the message
// with the public function's name.
template <class Body> fftmux_status guard(const char* function, Body&& body) noexcept {
  try {
    clear_last_error();
    body();
    return FFTMUX_OK;
  } catch (const Error& e) {
    set_last_error(std::string(function) + ": " + e.what());
    return e.status();
  } catch (const std::bad_alloc&) {
    set_last_error(std::string(function) + ": out of host memory");
    return FFTMUX_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_last_error(std::string(function) + ": internal error: " + e.what());
    return FFTMUX_ERROR_INTERNAL;
  } catch (...) {
    set_last_error(std::string(function) + ": internal error of unknown type");
    return FFTMUX_ERROR_INTERNAL;
  }
}

} // namespace fftmux
