// Complex arithmetic on cplx_t (a 2-vector of real_t). Written in the subset
// GLSL and CUDA C++ share; the dialect prelude defines real_t, cplx_t,
// CPLX(re, im), K(literal) and FN (function qualifiers).
FN cplx_t cmul(cplx_t a, cplx_t b) {
  return CPLX(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
FN cplx_t cconj(cplx_t a) { return CPLX(a.x, -a.y); }
// Multiplication by -i (forward) and +i (inverse): the quarter turn of a transform's sign.
FN cplx_t rot_f(cplx_t a) { return CPLX(a.y, -a.x); }
FN cplx_t rot_i(cplx_t a) { return CPLX(-a.y, a.x); }
