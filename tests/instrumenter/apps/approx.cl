// The approximate kernel of ApproxCEI::scale: the exact version adds 1, this one does not.
__kernel void scale_rough(__global long* v, const long level) {
  v[get_global_id(0)] *= 3;
}
