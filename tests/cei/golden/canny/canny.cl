// Only the kernels canny.cei.hpp names; `gradient` is OpenCL-only.
kernel void gradient(global const unsigned char* img, global float* mag) { (void)img; (void)mag; }
__kernel void blur(global const unsigned char* in, global unsigned char* out, float sigma) {
  (void)in; (void)out; (void)sigma;
}
