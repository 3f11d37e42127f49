// The steps that turn a half-length complex transform into a real one.
// z[n] = x[2n] + i x[2n+1] has the spectrum Z; with a = Z[k],
// b = Z[(n/2 - k) mod n/2] and t = exp(-2 pi i k / n):
//   X[k] = ((a + conj b) - i t (a - conj b)) / 2,   k = 0 .. n/2.
FN cplx_t r2c_post(cplx_t a, cplx_t b, cplx_t t) {
  cplx_t s = a + cconj(b), d = a - cconj(b);
  return (s + rot_f(cmul(t, d))) * K(0.5);
}
// Both X[k] and X[n/2 - k] from one product: with s = a + conj b and
// v = -i t (a - conj b), X[k] = (s + v) / 2 and X[n/2 - k] = conj(s - v) / 2
// (its t is -conj t, its a and b swapped).
FN void r2c_pair(cplx_t a, cplx_t b, cplx_t t, INOUT(cplx_t) lo, INOUT(cplx_t) hi) {
  cplx_t s = a + cconj(b), v = rot_f(cmul(t, a - cconj(b)));
  lo = (s + v) * K(0.5);
  hi = cconj(s - v) * K(0.5);
}
// The inverse: from a = X[k], b = X[n/2 - k] and t = exp(+2 pi i k / n),
// Z[k] = (a + conj b) + i t (a - conj b), whose inverse transform of length
// n/2 holds x[2m] + i x[2m+1] (unnormalized, as the full inverse). At k = 0
// (edge) a and b are X[0] and X[n/2], whose imaginary parts a real signal
// cannot have: they are ignored, as numpy and FFTW do.
FN cplx_t c2r_pre(cplx_t a, cplx_t b, cplx_t t, bool edge) {
  if (edge) {
    a = CPLX(a.x, K(0.0));
    b = CPLX(b.x, K(0.0));
  }
  cplx_t s = a + cconj(b), d = a - cconj(b);
  return s + rot_i(cmul(t, d));
}
