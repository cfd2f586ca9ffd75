// REST request decoding: the bodies of POST /v1/tasks and POST /v1/data/{id}/fetch as the worker
// node decodes them (cei::remote::parse_task_request, parse_peer_fetch; the node's own handlers
// need a server, this does not), each input fed to both. Only ProtocolError with a 4xx status may
// come out, and an accepted request must carry valid data ids (and, for a fetch, its fields in
// range) and survive the client's encoding (to_json) unchanged.
#include "protocol.hpp"

#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"

namespace {

bool same(const cei::remote::TaskRequest& a, const cei::remote::TaskRequest& b) {
  if (a.interface_name != b.interface_name || a.ce != b.ce || a.result != b.result) return false;
  if (a.args.size() != b.args.size()) return false;
  for (std::size_t i = 0; i < a.args.size(); ++i)
    if (a.args[i].dir != b.args[i].dir || a.args[i].data != b.args[i].data ||
        a.args[i].out != b.args[i].out)
      return false;
  return true;
}

bool same(const cei::remote::PeerFetch& a, const cei::remote::PeerFetch& b) {
  return a.type == b.type && a.url == b.url && a.token == b.token && a.id == b.id &&
         a.extents == b.extents && a.timeout_ms == b.timeout_ms;
}

void peer_fetch(std::string_view body) {
  cei::remote::PeerFetch f;
  try {
    f = cei::remote::parse_peer_fetch(body);
  } catch (const cei::remote::ProtocolError& e) {
    FUZZ_CHECK(e.status() >= 400 && e.status() < 500, "a refused fetch must be a 4xx");
    return;
  }
  FUZZ_CHECK(cei::remote::valid_id(f.id), "invalid peer id accepted");
  FUZZ_CHECK(!f.token.empty(), "empty peer token accepted");
  FUZZ_CHECK(f.extents.size() <= 3, "more than 3 extents accepted");
  for (auto e : f.extents) FUZZ_CHECK(e >= 0, "negative extent accepted");
  FUZZ_CHECK(f.timeout_ms >= 1 && f.timeout_ms <= 600000, "timeout_ms out of range accepted");
  std::string again = cei::remote::to_json(f).dump();
  FUZZ_CHECK(same(cei::remote::parse_peer_fetch(again), f),
             "fetch to_json/parse round trip differs");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  peer_fetch(body);
  cei::remote::TaskRequest r;
  try {
    r = cei::remote::parse_task_request(body);
  } catch (const cei::remote::ProtocolError& e) {
    FUZZ_CHECK(e.status() >= 400 && e.status() < 500, "a refused request must be a 4xx");
    return 0;
  }
  using cei::remote::valid_id;
  FUZZ_CHECK(r.result.empty() || valid_id(r.result), "invalid result id accepted");
  for (const auto& a : r.args) {
    FUZZ_CHECK(a.dir == cei::rt::Dir::Out ? a.data.empty() : valid_id(a.data), "bad input id");
    FUZZ_CHECK(a.dir == cei::rt::Dir::In ? a.out.empty() : valid_id(a.out), "bad output id");
  }
  // The node quotes names back in JSON replies: dump() must not throw on what parse accepted.
  std::string again = cei::remote::to_json(r).dump();
  FUZZ_CHECK(same(cei::remote::parse_task_request(again), r), "to_json/parse round trip differs");
  return 0;
}
