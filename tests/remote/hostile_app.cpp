#include "hostile_app.hpp"

#include "test_app.hpp"

#include <cei/array.hpp>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace remote_test {
namespace {

using cei::rt::Dir;
using cei::rt::type_ops;
using Vec = cei::Vector<float>;

int& out_int(void* const* a) {
  return *static_cast<int*>(a[1]);
}
int in_int(void* const* a) {
  return *static_cast<const int*>(a[0]);
}

int* volatile nowhere = nullptr;  // volatile: the compiler may not prove the crash away

void invoke_segv(void* const* a) {
  *nowhere = in_int(a);
  out_int(a) = *nowhere;
}
void invoke_abort(void* const*) {
  std::abort();
}
void invoke_quit(void* const* a) {
  std::exit(in_int(a));
}
void invoke_hang(void* const*) {
  for (;;) pause();
}
void invoke_meet(void* const* a) {
  const char* fifo = std::getenv("CEI_TEST_MEET_FIFO");
  if (!fifo) throw std::runtime_error("CEI_TEST_MEET_FIFO is not set");
  int side = in_int(a);
  // open() of a FIFO returns once the other end is open too: both tasks run at once, or neither
  // returns (the node's task timeout then fails them).
  int fd = open(fifo, side == 0 ? O_WRONLY : O_RDONLY);
  if (fd < 0) throw std::runtime_error(std::string("cannot open ") + fifo);
  close(fd);
  out_int(a) = side;
}
void invoke_fill(void* const* a) {
  const auto& v = *static_cast<const Vec*>(a[0]);
  int n = *static_cast<const int*>(a[1]);
  Vec r(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < r.size(); ++i) r.data()[i] = static_cast<float>(v.size());
  *static_cast<Vec*>(a[2]) = std::move(r);
}

const cei::rt::ParamInfo p_int[] = {{"x", Dir::In, &type_ops<int>()}};
const cei::rt::ParamInfo p_fill[] = {{"v", Dir::In, &type_ops<Vec>()},
                                     {"n", Dir::In, &type_ops<int>()}};
const cei::rt::NativeVersion v_segv[] = {{"hostile", &invoke_segv}};
const cei::rt::NativeVersion v_abort[] = {{"hostile", &invoke_abort}};
const cei::rt::NativeVersion v_quit[] = {{"hostile", &invoke_quit}};
const cei::rt::NativeVersion v_hang[] = {{"hostile", &invoke_hang}};
const cei::rt::NativeVersion v_meet[] = {{"hostile", &invoke_meet}};
const cei::rt::NativeVersion v_fill[] = {{"hostile", &invoke_fill}};
// Only the expressions matter here: the node runs native versions.
const cei::rt::OpenCLImpl cl_fill{"fill", "", "fill.cl", "par0.x", "", "", "par1"};

const cei::rt::CeInfo ce_segv{"segv",           "HostileCEI", false, p_int,  1,
                              &type_ops<int>(), v_segv,       1,     nullptr};
const cei::rt::CeInfo ce_abort{"abort_now",      "HostileCEI", false, p_int,  1,
                               &type_ops<int>(), v_abort,      1,     nullptr};
const cei::rt::CeInfo ce_quit{"quit",           "HostileCEI", false, p_int,  1,
                              &type_ops<int>(), v_quit,       1,     nullptr};
const cei::rt::CeInfo ce_hang{"hang",           "HostileCEI", false, p_int,  1,
                              &type_ops<int>(), v_hang,       1,     nullptr};
const cei::rt::CeInfo ce_meet{"meet",           "HostileCEI", false, p_int,  1,
                              &type_ops<int>(), v_meet,       1,     nullptr};
const cei::rt::CeInfo ce_fill{"fill",           "HostileCEI", false, p_fill,  2,
                              &type_ops<Vec>(), v_fill,       1,     &cl_fill};

}  // namespace

std::vector<const cei::rt::CeInfo*> hostile_ces() {
  std::vector<const cei::rt::CeInfo*> all = all_ces();
  all.insert(all.end(), {&ce_segv, &ce_abort, &ce_quit, &ce_hang, &ce_meet, &ce_fill});
  return all;
}

}  // namespace remote_test
