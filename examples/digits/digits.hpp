// Native implementations of the digits example's Core Elements (see digits.cei.hpp): the layers of
// a small CNN, each applied to a whole batch. Activations are (batch, channels, side * side).
//
//   cei::Array<float, 3> a = digits::conv(images, w1, 1, 8);   // images: (batch, 1, 64)
//   a = digits::pool(digits::relu(a));                         // (batch, 8, 16)
//   cei::Matrix<float> logits = digits::dense(a, w3, 64, 10);  // after a second conv + pool
//   cei::Vector<int> labels = digits::classify(logits, 10);
//
// Channel and feature counts are parameters because the OpenCL kernels cannot see array extents.
#pragma once

#include <cei/array.hpp>

namespace digits {

// 3x3 convolution, zero padding, stride 1. weights: out x in x 3 x 3, then out biases.
cei::Array<float, 3> conv(const cei::Array<float, 3>& input, const cei::Vector<float>& weights,
                          int in_channels, int out_channels);
cei::Array<float, 3> relu(const cei::Array<float, 3>& x);
// 2x2 max pooling, stride 2: (batch, channels, side^2) -> (batch, channels, (side/2)^2).
cei::Array<float, 3> pool(const cei::Array<float, 3>& x);
// Fully connected layer. weights: outputs x inputs, then outputs biases.
cei::Matrix<float> dense(const cei::Array<float, 3>& x, const cei::Vector<float>& weights,
                         int inputs, int outputs);
// The index of each row's largest value (the first one on ties).
cei::Vector<int> classify(const cei::Matrix<float>& scores, int classes);

// The side of a square activation map of n values (n must be a perfect square).
int side_of(std::size_t n);

}  // namespace digits
