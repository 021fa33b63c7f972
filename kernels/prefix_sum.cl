/*
 * Work-efficient scans for yioop_codec's OpenCL path (OpenCL C 1.2).
 *
 * Built by src/codec/opencl/setup.rs with -D WG=<work-group size, a power of two> and
 * -D ITEMS=<elements per work item>; a work group handles one tile of
 * TILE = WG * ITEMS elements.
 *
 * Every scan here is the three-phase reduce-then-scan:
 *   1. one work group per tile reduces its tile to a tile sum;
 *   2. a single work group scans the tile sums (exclusive), in chunks of
 *      TILE with a running carry, so any number of tiles works;
 *   3. one work group per tile scans its tile in local memory, seeded with
 *      the tile's offset, and writes the result.
 * Within a tile each work item scans ITEMS consecutive elements serially and
 * the WG per-item totals go through a Blelloch up-sweep/down-sweep, so the
 * work stays O(n). Global loads and stores are strided by WG (coalesced).
 *
 * The 64-bit prefix sum (Yioop's deDeltaList) computes in 128 bits, so the
 * exact sum of every prefix is known whatever the order of additions: an
 * element whose exact prefix sum does not fit a signed 64-bit int is where
 * the sequential loop would overflow into a PHP float. The lowest such index
 * is reported (atomic_min) and the host then falls back to the scalar path.
 * All arithmetic is on unsigned types: signed overflow is undefined in C.
 */

#define TILE (WG * ITEMS)
#define NO_OVERFLOW 0xFFFFFFFFu

/* A 128-bit two's-complement integer. */
typedef struct {
    ulong lo;
    ulong hi;
} wide;

inline wide wide_zero(void) {
    wide r;
    r.lo = 0;
    r.hi = 0;
    return r;
}

inline wide wide_from(long v) {
    wide r;
    r.lo = as_ulong(v);
    r.hi = as_ulong(v >> 63);
    return r;
}

inline wide wide_add(wide a, wide b) {
    wide r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo ? 1 : 0);
    return r;
}

/* Whether the value fits a signed 64-bit int. */
inline int wide_fits(wide a) {
    return a.hi == as_ulong(as_long(a.lo) >> 63);
}

/*
 * Blelloch exclusive scan of s[0..WG) in place; the sum of all of them goes
 * to *total. Every work item of the group must call it. Begins and ends with
 * a barrier, so the caller may write s[lid] right before and read any s[]
 * right after.
 */
void wg_exclusive_scan_uint(__local uint *s, __local uint *total) {
    const uint lid = get_local_id(0);
    for (uint d = 1; d < WG; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint i = (lid + 1) * 2 * d - 1;
        if (i < WG)
            s[i] += s[i - d];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        *total = s[WG - 1];
        s[WG - 1] = 0;
    }
    for (uint d = WG / 2; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint i = (lid + 1) * 2 * d - 1;
        if (i < WG) {
            const uint t = s[i - d];
            s[i - d] = s[i];
            s[i] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The same on 128-bit values. */
void wg_exclusive_scan_wide(__local wide *s, __local wide *total) {
    const uint lid = get_local_id(0);
    for (uint d = 1; d < WG; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint i = (lid + 1) * 2 * d - 1;
        if (i < WG)
            s[i] = wide_add(s[i], s[i - d]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        *total = s[WG - 1];
        s[WG - 1] = wide_zero();
    }
    for (uint d = WG / 2; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint i = (lid + 1) * 2 * d - 1;
        if (i < WG) {
            const wide t = s[i - d];
            s[i - d] = s[i];
            s[i] = wide_add(s[i], t);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/*
 * Exclusive scan of a tile a[0..TILE) in place; returns the tile's total.
 * The caller must have put a barrier between filling a[] and this call.
 * Ends with a barrier.
 */
uint tile_exclusive_scan_uint(__local uint *a, __local uint *s, __local uint *total) {
    const uint lid = get_local_id(0);
    __local uint *mine = a + lid * ITEMS;
    uint sum = 0;
    for (uint k = 0; k < ITEMS; k++) {
        const uint v = mine[k];
        mine[k] = sum;
        sum += v;
    }
    s[lid] = sum;
    wg_exclusive_scan_uint(s, total);
    const uint offset = s[lid];
    for (uint k = 0; k < ITEMS; k++)
        mine[k] += offset;
    barrier(CLK_LOCAL_MEM_FENCE);
    return *total;
}

/* Sum of s[0..WG) into s[0] (tree reduction). Begins with a barrier. */
void wg_reduce_uint(__local uint *s) {
    const uint lid = get_local_id(0);
    for (uint d = WG / 2; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d)
            s[lid] += s[lid + d];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

void wg_reduce_wide(__local wide *s) {
    const uint lid = get_local_id(0);
    for (uint d = WG / 2; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d)
            s[lid] = wide_add(s[lid], s[lid + d]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/*
 * Phase 2 for uint tile sums: sums[0..n) becomes its exclusive scan and
 * total[0] the sum of all. Run as a single work group of WG items.
 */
__kernel void scan_tile_sums_uint(__global uint *sums, const uint n, __global uint *total) {
    __local uint a[TILE];
    __local uint s[WG];
    __local uint chunk_total;
    const uint lid = get_local_id(0);
    uint carry = 0;
    for (uint base = 0; base < n; base += TILE) {
        for (uint j = 0; j < ITEMS; j++) {
            const uint i = base + j * WG + lid;
            a[j * WG + lid] = i < n ? sums[i] : 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint t = tile_exclusive_scan_uint(a, s, &chunk_total);
        for (uint j = 0; j < ITEMS; j++) {
            const uint i = base + j * WG + lid;
            if (i < n)
                sums[i] = a[j * WG + lid] + carry;
        }
        carry += t;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        total[0] = carry;
}

/* ---- 64-bit inclusive prefix sum (deDeltaList) ---- */

/* Phase 1: the exact (128-bit) sum of each tile. */
__kernel void ps_tile_sums(__global const long *in, const uint n,
                           __global ulong *tile_lo, __global ulong *tile_hi) {
    __local wide s[WG];
    const uint lid = get_local_id(0);
    const uint g = get_group_id(0);
    const size_t base = (size_t)g * TILE;
    wide sum = wide_zero();
    for (uint j = 0; j < ITEMS; j++) {
        const size_t i = base + j * WG + lid;
        if (i < n)
            sum = wide_add(sum, wide_from(in[i]));
    }
    s[lid] = sum;
    wg_reduce_wide(s);
    if (lid == 0) {
        tile_lo[g] = s[0].lo;
        tile_hi[g] = s[0].hi;
    }
}

/* Phase 2: exclusive scan of the 128-bit tile sums, one work group. */
__kernel void ps_scan_tile_sums(__global ulong *tile_lo, __global ulong *tile_hi, const uint n) {
    __local wide a[TILE];
    __local wide s[WG];
    __local wide chunk_total;
    const uint lid = get_local_id(0);
    __local wide *mine = a + lid * ITEMS;
    wide carry = wide_zero();
    for (uint base = 0; base < n; base += TILE) {
        for (uint j = 0; j < ITEMS; j++) {
            const uint i = base + j * WG + lid;
            wide v = wide_zero();
            if (i < n) {
                v.lo = tile_lo[i];
                v.hi = tile_hi[i];
            }
            a[j * WG + lid] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        wide sum = wide_zero();
        for (uint k = 0; k < ITEMS; k++) {
            const wide v = mine[k];
            mine[k] = sum;
            sum = wide_add(sum, v);
        }
        s[lid] = sum;
        wg_exclusive_scan_wide(s, &chunk_total);
        const wide offset = wide_add(carry, s[lid]);
        for (uint k = 0; k < ITEMS; k++)
            mine[k] = wide_add(mine[k], offset);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint j = 0; j < ITEMS; j++) {
            const uint i = base + j * WG + lid;
            if (i < n) {
                tile_lo[i] = a[j * WG + lid].lo;
                tile_hi[i] = a[j * WG + lid].hi;
            }
        }
        carry = wide_add(carry, chunk_total);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/*
 * Phase 3: the inclusive prefix sums of each tile, seeded with the tile's
 * offset, into out; the lowest index whose exact sum does not fit 64 bits
 * into *overflow (which the host sets to NO_OVERFLOW first).
 */
__kernel void ps_tiles(__global const long *in, __global long *out, const uint n,
                       __global const ulong *tile_lo, __global const ulong *tile_hi,
                       volatile __global uint *overflow) {
    __local long a[TILE];
    __local wide s[WG];
    __local wide total;
    const uint lid = get_local_id(0);
    const uint g = get_group_id(0);
    const size_t base = (size_t)g * TILE;
    for (uint j = 0; j < ITEMS; j++) {
        const size_t i = base + j * WG + lid;
        a[j * WG + lid] = i < n ? in[i] : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __local long *mine = a + lid * ITEMS;
    wide sum = wide_zero();
    for (uint k = 0; k < ITEMS; k++)
        sum = wide_add(sum, wide_from(mine[k]));
    s[lid] = sum;
    wg_exclusive_scan_wide(s, &total);
    wide run;
    run.lo = tile_lo[g];
    run.hi = tile_hi[g];
    run = wide_add(run, s[lid]);
    uint first_bad = NO_OVERFLOW;
    const size_t first = base + lid * ITEMS;
    for (uint k = 0; k < ITEMS; k++) {
        run = wide_add(run, wide_from(mine[k]));
        if (first_bad == NO_OVERFLOW && first + k < n && !wide_fits(run))
            first_bad = (uint)(first + k);
        mine[k] = as_long(run.lo);
    }
    if (first_bad != NO_OVERFLOW)
        atomic_min(overflow, first_bad);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < ITEMS; j++) {
        const size_t i = base + j * WG + lid;
        if (i < n)
            out[i] = a[j * WG + lid];
    }
}

/*
 * Encode-side experiment: Yioop's deltaList, out[i] = in[i] - in[i-1]
 * (in[-1] = 0); the lowest index whose difference overflows into *overflow.
 */
__kernel void delta_list(__global const long *in, __global long *out, const uint n,
                         volatile __global uint *overflow) {
    const size_t i = get_global_id(0);
    if (i >= n)
        return;
    const long cur = in[i];
    const long prev = i > 0 ? in[i - 1] : 0;
    const long d = as_long(as_ulong(cur) - as_ulong(prev));
    /* cur - prev overflows iff the operands' signs differ and the result's
       sign differs from cur's. */
    if (((cur ^ prev) & (cur ^ d)) < 0)
        atomic_min(overflow, (uint)i);
    out[i] = d;
}
