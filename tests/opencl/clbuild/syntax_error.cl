// A syntax error inside a kernel body: cei-clbuild stops the build at its line.
__kernel void f(__global int* a) {
  int x = 3
  a[0] = x;
}
