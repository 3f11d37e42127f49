// Compiles a kernel file with NVRTC for sm_90 as the backend does; prints the log.
#include <nvrtc.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
int main(int argc, char** argv) {
  std::ifstream f(argv[1]);
  std::stringstream s;
  s << f.rdbuf();
  std::string src = s.str();
  nvrtcProgram p;
  nvrtcCreateProgram(&p, src.c_str(), "k.cu", 0, 0, 0);
  const char* o[] = {"--gpu-architecture=sm_90", "-std=c++17", "--ptxas-options=-v"};
  nvrtcResult r = nvrtcCompileProgram(p, 3, o);
  size_t n;
  nvrtcGetProgramLogSize(p, &n);
  std::string log(n, 0);
  nvrtcGetProgramLog(p, log.data());
  printf("%s%s\n", r == NVRTC_SUCCESS ? "" : "FAILED\n", log.c_str());
  return r != NVRTC_SUCCESS;
}
