// The steps that turn a half-length complex transform into a real one.
// z[n] = x[2n] + i x[2n+1] has the spectrum Z; with a = Z[k],
// b = Z[(n/2 - k) mod n/2] and t = exp(-2 pi i k / n):
//   X[k] = ((a + conj b) - i t (a - conj b)) / 2,   k = 0 .. n/2.
FN cplx_t r2c_post(cplx_t a, cplx_t b, cplx_t t) {
  cplx_t s = a + cconj(b), d = a - cconj(b);
  return (s + rot_f(cmul(t, d))) * K(0.5);
}
// The inverse: from a = X[k], b = X[n/2 - k] and t = exp(+2 pi i k / n),
// Z[k] = (a + conj b) + i t (a - conj b), whose inverse transform of length
// n/2 holds x[2m] + i x[2m+1] (unnormalized, as the full inverse).
FN cplx_t c2r_pre(cplx_t a, cplx_t b, cplx_t t) {
  cplx_t s = a + cconj(b), d = a - cconj(b);
  return s + rot_i(cmul(t, d));
}
