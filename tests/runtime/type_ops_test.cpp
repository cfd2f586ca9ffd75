// type_ops<T>: the type-erased operations platforms use to move values around.
#include <cei/rt/type_ops.hpp>

#include <gtest/gtest.h>
#include <cereal/types/map.hpp>

#include <map>
#include <string>
#include <vector>

namespace rt = cei::rt;

namespace {
struct Particle {
  std::string name;
  std::map<int, double> weights;
  bool operator==(const Particle&) const = default;
  template <class A>
  void serialize(A& ar) {
    ar(name, weights);
  }
};
struct Opaque {
  int x = 0;
};
}  // namespace

TEST(TypeOps, ArrayRoundTripsThroughBytes) {
  cei::Matrix<float> m(2, 3);
  m(1, 2) = 7.5f;
  auto& ops = rt::type_ops<cei::Matrix<float>>();
  EXPECT_EQ(ops.kind, rt::TypeKind::Array);
  EXPECT_EQ(ops.rank, 2);
  EXPECT_EQ(ops.elem_size, sizeof(float));
  EXPECT_EQ(ops.extent(&m, 0), 2);
  EXPECT_EQ(ops.extent(&m, 1), 3);
  EXPECT_EQ(ops.extent(&m, 2), 0);
  EXPECT_EQ(ops.bytes(&m), 6 * sizeof(float));
  std::string bytes;
  ops.serialize(&m, bytes);
  cei::Matrix<float> back;
  ops.deserialize(&back, bytes);
  EXPECT_EQ(back, m);
  EXPECT_THROW(ops.deserialize(&back, std::string_view(bytes).substr(0, bytes.size() - 1)),
               std::runtime_error);
  EXPECT_NE(std::string(ops.name).find("cei::Array<float, 2>"), std::string::npos) << ops.name;
}

TEST(TypeOps, ReshapeForOverwriteShapesWithoutZeroFilling) {
  auto& ops = rt::type_ops<cei::Matrix<float>>();
  cei::Matrix<float> m(3, 4);
  m(2, 3) = 5.f;
  std::int64_t same[] = {3, 4};
  ops.reshape_for_overwrite(&m, same, 2);
  EXPECT_EQ(m(2, 3), 5.f) << "the same size keeps the storage as it is";
  std::int64_t other[] = {2, 5};
  ops.reshape_for_overwrite(&m, other, 2);
  EXPECT_EQ(m.extent(0), 2u);
  EXPECT_EQ(m.extent(1), 5u);
  EXPECT_EQ(ops.bytes(&m), 10 * sizeof(float));
  std::int64_t negative[] = {-1, 2};
  EXPECT_THROW(ops.reshape_for_overwrite(&m, negative, 2), std::invalid_argument);
  std::vector<int> v{1, 2};
  std::int64_t three = 3;
  rt::type_ops<std::vector<int>>().reshape_for_overwrite(&v, &three, 1);
  EXPECT_EQ(v.size(), 3u);
}

TEST(TypeOps, VectorsStringsAndScalars) {
  std::vector<int> v{3, 1, 4};
  auto& vo = rt::type_ops<std::vector<int>>();
  EXPECT_EQ(vo.kind, rt::TypeKind::StdVector);
  EXPECT_EQ(vo.element(&v, 2), 4);
  EXPECT_THROW(vo.element(&v, 3), std::out_of_range);
  std::int64_t ext = 5;
  vo.reshape(&v, &ext, 1);
  EXPECT_EQ(v, (std::vector<int>(5, 0)));

  std::string s = "hello";
  auto& so = rt::type_ops<std::string>();
  EXPECT_EQ(so.kind, rt::TypeKind::String);
  EXPECT_EQ(so.extent(&s, 0), 5);
  std::string bytes, back;
  so.serialize(&s, bytes);
  so.deserialize(&back, bytes);
  EXPECT_EQ(back, "hello");

  double d = 2.5;
  auto& dops = rt::type_ops<double>();
  EXPECT_EQ(dops.kind, rt::TypeKind::Scalar);
  void* copy = dops.create();
  dops.copy(copy, &d);
  EXPECT_EQ(*static_cast<double*>(copy), 2.5);
  dops.destroy(copy);
  int i = 5;
  EXPECT_EQ(rt::type_ops<int>().element(&i, 0), 5);
}

TEST(TypeOps, SerializableObjectsUseCereal) {
  Particle p{"p1", {{1, 0.5}, {2, 1.5}}};
  auto& ops = rt::type_ops<Particle>();
  EXPECT_EQ(ops.kind, rt::TypeKind::Object);
  EXPECT_EQ(ops.data, nullptr);
  std::string bytes;
  ops.serialize(&p, bytes);
  Particle back;
  ops.deserialize(&back, bytes);
  EXPECT_EQ(back, p);
  EXPECT_EQ(ops.bytes(&p), bytes.size());
  Opaque o;
  EXPECT_THROW(rt::type_ops<Opaque>().serialize(&o, bytes), std::runtime_error);
}
