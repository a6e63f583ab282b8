/*
 * op_kernel/math/mg_exp.h: exp(x) in float32 lanes, shared by every operator's kernel.
 *
 * Included by a kernel body after one ISA's vocabulary header (simd/mg_simd_*.h); written
 * in the vocabulary's IEEE operations only, so every ISA computes the same bits. Names as
 * XNNPACK's (rr2/rr1: a Cody-Waite reduction with two/one constants, lut16: a 16-entry table
 * of 2^(j/16), p3/p2: the polynomial's degree). mg_exp_rr2_lut16_p3 gives exp(x) as parts
 * T_j (1 + s') 2^m within 2^-27.5 relative (rounded: 0.55 ulp); mg_exp_rr1_lut16_p2, for
 * 16-bit results, within 2^-20.3. Both take x in [-200, 20] (the callers clamp): k = 16 m + j
 * stays in range, and T_j 2^m is a normal float for x >= -87.3 (below that, take the parts
 * and scale in double, as the kernels' tails do). The reduction, the error budget and the
 * measurements (tests/kernel/test_mg_exp.c): docs/accuracy.md, "The shared exp".
 */
#ifndef MG_EXP_H_
#define MG_EXP_H_

#if defined(__GNUC__)
#define MG_ALWAYS_INLINE static inline __attribute__((always_inline))
#define MG_OUT_OF_LINE static __attribute__((noinline))
#else
#define MG_ALWAYS_INLINE static inline
#define MG_OUT_OF_LINE static
#endif

#define MG_EXP_MAGIC 0x1.8p23f        /* 1.5 * 2^23 */
#define MG_EXP_16_OVER_LN2 0x1.715476p+4f
#define MG_EXP_MINUS_L_HI -0x1.62e430p-5f /* -ln2/16, high part (multiple of 2^-25) */
#define MG_EXP_MINUS_L_LO 0x1.05c610p-33f /* -(ln2/16 - L_hi) */

static const float mg_exp_lut16[16] = { /* T_j = 2^(j/16) rounded to float */
    0x1.000000p+0f, 0x1.0b5586p+0f, 0x1.172b84p+0f, 0x1.2387a6p+0f, 0x1.306fe0p+0f, 0x1.3dea64p+0f,
    0x1.4bfdaep+0f, 0x1.5ab07ep+0f, 0x1.6a09e6p+0f, 0x1.7a1148p+0f, 0x1.8ace54p+0f, 0x1.9c4918p+0f,
    0x1.ae89fap+0f, 0x1.c199bep+0f, 0x1.d5818ep+0f, 0x1.ea4afap+0f};
/* The same T_j with j << 19 taken off their bits: adding kbits << 19 = (m << 23) + (j << 19)
   to them gives T_j 2^m (mg_exp_lut16_scaled), one integer op fewer than m << 23 */
static const float mg_exp_lut16_less_j[16] = {
    0x1.000000p+0f, 0x1.fb5586p-1f, 0x1.f72b84p-1f, 0x1.f387a6p-1f, 0x1.f06fe0p-1f, 0x1.edea64p-1f,
    0x1.ebfdaep-1f, 0x1.eab07ep-1f, 0x1.ea09e6p-1f, 0x1.ea1148p-1f, 0x1.eace54p-1f, 0x1.ec4918p-1f,
    0x1.ee89fap-1f, 0x1.f199bep-1f, 0x1.f5818ep-1f, 0x1.fa4afap-1f};
static const float mg_exp_lut16_rho[16] = { /* rho_j = (2^(j/16) - T_j) / T_j rounded */
    0.0f,             0x1.8d96d4p-25f,  -0x1.9c0c22p-27f, 0x1.964904p-25f,  0x1.125002p-25f,  0x1.370be4p-25f,
    -0x1.0a3550p-25f, -0x1.00d8acp-27f, 0x1.26055cp-26f,  -0x1.05cb44p-25f, 0x1.67a1cap-28f,  0x1.a3b5e4p-28f,
    -0x1.f9c304p-27f, -0x1.6961b4p-28f, -0x1.a5217cp-28f, 0x1.61428ep-28f};

/* kbits (as integer lanes) of x: 0x4B400000 + k, k = round(16 x / ln2) */
MG_ALWAYS_INLINE mg_vi mg_exp_lut16_k(mg_vf x) {
    return mg_as_vi(mg_fma(x, mg_set(MG_EXP_16_OVER_LN2), mg_set(MG_EXP_MAGIC)));
}
/* k as a float (exact) */
MG_ALWAYS_INLINE mg_vf mg_exp_lut16_kf(mg_vi kbits) { return mg_sub(mg_as_vf(kbits), mg_set(MG_EXP_MAGIC)); }
/* T_j */
MG_ALWAYS_INLINE mg_vf mg_exp_lut16_t(mg_vi kbits) { return mg_lookup16(mg_exp_lut16, kbits); }
/* T_j 2^m, exact while it is a normal float */
MG_ALWAYS_INLINE mg_vf mg_exp_lut16_scaled(mg_vi kbits) {
    return mg_as_vf(mg_add_i(mg_as_vi(mg_lookup16(mg_exp_lut16_less_j, kbits)), mg_shl_i(kbits, 19)));
}
/* m, from the bits above j */
MG_ALWAYS_INLINE mg_vi mg_exp_lut16_m(mg_vi kbits) {
    return mg_sub_i(mg_shr_i(kbits, 4), mg_set_i(0x04B40000));
}

/* s' of exp(x) = T_j (1 + s') 2^m (see the top of the file), and kbits */
MG_ALWAYS_INLINE mg_vf mg_exp_rr2_lut16_p3_parts(mg_vf x, mg_vi *kbits_out) {
    const mg_vi kbits = mg_exp_lut16_k(x);
    const mg_vf kf = mg_exp_lut16_kf(kbits);
    mg_vf r = mg_fma(kf, mg_set(MG_EXP_MINUS_L_HI), x);
    r = mg_fma(kf, mg_set(MG_EXP_MINUS_L_LO), r);
    const mg_vf r_rho = mg_add(r, mg_lookup16(mg_exp_lut16_rho, kbits));
    const mg_vf cubic = mg_fma(mg_set(0x1.555a7ap-3f) /* c3 */, r, mg_set(0x1.000224p-1f) /* c2 */);
    *kbits_out = kbits;
    return mg_fma(mg_mul(r, r), cubic, r_rho);
}

/* exp(x) rounded once (x in [-87.3, 20]); *kbits_out and *s_out give its parts */
MG_ALWAYS_INLINE mg_vf mg_exp_rr2_lut16_p3(mg_vf x, mg_vi *kbits_out, mg_vf *s_out) {
    const mg_vf s = mg_exp_rr2_lut16_p3_parts(x, kbits_out);
    const mg_vf t_scaled = mg_exp_lut16_scaled(*kbits_out);
    *s_out = s;
    return mg_fma(t_scaled, s, t_scaled);
}

/* The short form: exp(x) = T_j 2^m (1 + c1 r + c2 r^2), r = x - k L_hi (one product:
   the k L_lo left out reaches 2^-21 at |x| = 87), c1, c2 minimax on |r| <= ln2/32
   (relative error 4.3e-7 = 2^-21.1); together <= 2^-20.3.
   For x in [-87.3, 20]. */
MG_ALWAYS_INLINE mg_vf mg_exp_rr1_lut16_p2(mg_vf x) {
    const mg_vi kbits = mg_exp_lut16_k(x);
    const mg_vf r = mg_fma(mg_exp_lut16_kf(kbits), mg_set(MG_EXP_MINUS_L_HI), x);
    const mg_vf s = mg_mul(r, mg_fma(r, mg_set(0x1.00059p-1f) /* c2 */, mg_set(0x1.0003e4p+0f) /* c1 */));
    const mg_vf t_scaled = mg_exp_lut16_scaled(kbits);
    return mg_fma(t_scaled, s, t_scaled);
}

#endif /* MG_EXP_H_ */
