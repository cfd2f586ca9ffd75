// [[cei::requires]] on a real application's node: matmul-worker answers 400, with the message the
// program would see, the task requests whose shapes its kernel and native code do not take
// (issue 38: A 2x1 x B 1x20000 crashed the node, A 20000x1 x B 1x2 came back wrong), runs the
// others, and keeps serving.
#include "node_client.hpp"
#include "worker_process.hpp"

#include <gtest/gtest.h>
#include <cei/array.hpp>
#include <cei/rt/type_ops.hpp>

#include <string>

namespace remote_test {
namespace {

using M = cei::Matrix<int>;
using cei::remote::NodeClient;
using cei::remote::NodeError;

void put_matrix(NodeClient& node, const std::string& id, std::size_t rows, std::size_t cols) {
  M m(rows, cols);
  for (std::size_t i = 0; i < m.size(); ++i) m.data()[i] = static_cast<int>(i % 7);
  node.put(id, cei::rt::type_ops<M>(), &m);
}

// The node's answer to MatmulCEI::multiply(A, B): "" when it takes the task, else its error.
std::string multiply(NodeClient& node, std::size_t n, std::size_t k1, std::size_t k2,
                     std::size_t m) {
  put_matrix(node, "A", n, k1);
  put_matrix(node, "B", k2, m);
  try {
    const std::string id = node.submit(
        {"MatmulCEI", "multiply", {{cei::rt::Dir::In, "A", ""}, {cei::rt::Dir::In, "B", ""}}, "C"});
    EXPECT_EQ(node.status(id, 20000).state, "done");
    return "";
  } catch (const NodeError& e) {
    EXPECT_EQ(e.status(), 400) << e.what();
    return e.what();
  }
}

TEST(RemoteRequires, MatmulNodeRefusesShapesItsImplementationsDoNotTake) {
  WorkerProcess worker;  // CEI_TEST_WORKER: matmul-worker
  NodeClient node(worker.url(), worker.token());
  EXPECT_EQ(multiply(node, 2, 1, 1, 20000),
            "node answered 400: CE MatmulCEI::multiply failed: its arguments break requires "
            "\"par1.x == par1.y\": par1.x = 1, par1.y = 20000");
  EXPECT_EQ(multiply(node, 20000, 1, 1, 2),
            "node answered 400: CE MatmulCEI::multiply failed: its arguments break requires "
            "\"par1.x == par1.y\": par1.x = 1, par1.y = 2");
  EXPECT_EQ(multiply(node, 4, 3, 2, 2),
            "node answered 400: CE MatmulCEI::multiply failed: its arguments break requires "
            "\"par0.y == par1.x\": par0.y = 3, par1.x = 2");
  EXPECT_EQ(multiply(node, 5, 3, 3, 3), "");  // any number of rows of A
  EXPECT_TRUE(node.health());
}

}  // namespace
}  // namespace remote_test
