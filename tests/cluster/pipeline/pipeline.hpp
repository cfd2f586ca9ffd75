// A relay pipeline: make -> smooth -> rescale -> digest, per item (pipeline.cei.hpp). Each stage
// repeats its pass `rounds` times, so that a test can weigh compute against the links.
#pragma once

#include <cei/array.hpp>

namespace pipeline {

cei::Vector<float> make(int item, int n, int rounds);
cei::Vector<float> smooth(const cei::Vector<float>& x, int rounds);
cei::Vector<float> rescale(const cei::Vector<float>& x, int rounds);
cei::Vector<double> digest(const cei::Vector<float>& x, int rounds);

// Seconds spent in each stage (make, smooth, rescale, digest) by this process so far: what
// pipeline-seq reports as the stages' compute time (in the program, the stages run on the nodes).
const double* stage_seconds();

}  // namespace pipeline
