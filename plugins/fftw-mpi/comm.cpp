#include "comm.hpp"

#include <fftmux/plugin_support.hpp>

#include <dlfcn.h>

#include <climits>
#include <cstdio>
#include <cstdlib>

namespace fftmux::fftw_mpi {

using plugin::fail;

namespace {

std::string library_of(const void* symbol) {
  Dl_info info{};
  return dladdr(symbol, &info) && info.dli_fname ? info.dli_fname : "an unknown library";
}

void finalize() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

} // namespace

std::string mpi_unusable() {
  const void* mine = reinterpret_cast<const void*>(&MPI_Initialized);
  const void* app = dlsym(RTLD_DEFAULT, "MPI_Initialized");
  if (app && app != mine)
    return "the application's MPI (" + library_of(app) +
           ") is not the one fftw-mpi is built "
           "against (" +
           library_of(mine) + "): build the plugin against the application's MPI";
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (finalized)
    return "MPI is finalized in this process (MPI_Finalized is true)";
  if (!initialized)
    return "MPI is not initialized in this process (MPI_Initialized of " + library_of(mine) +
           " is false): call MPI_Init before planning distributed transforms, or set "
           "FFTMUX_MPI_INIT=1 for fftw-mpi to call it; an application on another MPI library "
           "looks so too";
  return "";
}

void init_mpi() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized)
    return;
  int provided = 0;
  check_mpi(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  std::atexit(finalize);
}

void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    length = std::snprintf(text, sizeof text, "MPI error %d", code);
  fail(FFTMUX_ERROR_BACKEND, std::string(call) + " failed: " + std::string(text, size_t(length)));
}

Comm::Comm(uint64_t handle) {
  std::string why = mpi_unusable();
  if (!why.empty())
    fail(FFTMUX_ERROR_UNAVAILABLE, why);
  if (handle != FFTMUX_COMM_WORLD && handle > uint64_t(INT_MAX))
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         "distribution->comm = " + std::to_string(handle) +
             ": not a communicator's Fortran handle (MPI_Comm_c2f) nor FFTMUX_COMM_WORLD");
  MPI_Comm user =
      handle == FFTMUX_COMM_WORLD ? MPI_COMM_WORLD : MPI_Comm_f2c(MPI_Fint(int(handle)));
  if (user == MPI_COMM_NULL)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         "distribution->comm = " + std::to_string(handle) + ": MPI_Comm_f2c gives MPI_COMM_NULL");
  check_mpi(MPI_Comm_dup(user, &comm_), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

Comm::~Comm() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm_ != MPI_COMM_NULL && !finalized)
    MPI_Comm_free(&comm_);
}

void agree(const Comm& c, fftmux_agreement_v1& a, int* any) {
  MPI_Comm comm = c.get();
  int first = a.status != FFTMUX_OK ? c.rank() : c.size();
  int both[2] = {first, any && *any ? -1 : 0}; // one step: the lowest failing rank, -(any flag)
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, both, 2, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  first = both[0];
  if (any)
    *any = both[1] < 0;
  if (first == c.size() && a.key) { // everyone is fine so far: is it the same problem?
    std::string mine = a.key, root = mine;
    int length = int(mine.size());
    check_mpi(MPI_Bcast(&length, 1, MPI_INT, 0, comm), "MPI_Bcast");
    root.resize(size_t(length));
    check_mpi(MPI_Bcast(root.data(), length, MPI_CHAR, 0, comm), "MPI_Bcast");
    if (root != mine) {
      a.status = FFTMUX_ERROR_INVALID_ARGUMENT;
      std::snprintf(a.message, sizeof a.message, "its problem (%s) differs from rank 0's (%s)",
                    mine.c_str(), root.c_str());
      first = c.rank();
    }
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  }
  if (first == c.size()) {
    a.status = FFTMUX_OK;
    a.message[0] = '\0';
    return;
  }
  if (c.rank() == first) {
    std::string m = "rank " + std::to_string(first) + ": " + a.message;
    std::snprintf(a.message, sizeof a.message, "%s", m.c_str());
  }
  int status = a.status;
  check_mpi(MPI_Bcast(&status, 1, MPI_INT, first, comm), "MPI_Bcast");
  check_mpi(MPI_Bcast(a.message, int(sizeof a.message), MPI_CHAR, first, comm), "MPI_Bcast");
  a.status = status;
}

} // namespace fftmux::fftw_mpi
