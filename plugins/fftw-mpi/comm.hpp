// The MPI side of the backend: whether this process's MPI is the plugin's
// and initialized, communicators from fftmux's handles, and the agreement
// that makes a failure on one rank every rank's (plugin.h).
#pragma once

#include <fftmux/plugin.h>

#include <mpi.h>

#include <string>

namespace fftmux::fftw_mpi {

// Why this process cannot run distributed plans through the plugin's MPI
// (not initialized, finalized, another MPI library); "" when it can.
std::string mpi_unusable();

// MPI_Init_thread on the application's behalf, finalized at exit: for
// programs that do not link MPI (the fftmux command).
void init_mpi();

// Throws Failure(BACKEND) naming the call where an MPI call failed.
void check_mpi(int code, const char* call);

// A duplicate of the handle's communicator that returns MPI errors rather
// than aborting; freed with the object.
class Comm {
public:
  explicit Comm(uint64_t handle);
  ~Comm();
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;
  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
};

// Each rank's status and message in, the lowest failing rank's out (its
// message prefixed "rank R: "), on every rank; a.key: text every rank must
// give alike, or NULL. any: NULL, or a flag in and whether any rank set it
// out, in the same collective step.
void agree(const Comm& comm, fftmux_agreement_v1& a, int* any = nullptr);

} // namespace fftmux::fftw_mpi
