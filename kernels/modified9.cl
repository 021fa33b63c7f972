/*
 * Modified9 decode, data parallel (OpenCL C 1.2). Appended to prefix_sum.cl
 * by src/codec/opencl/setup.rs; same -D WG / -D ITEMS, same tiles.
 *
 * Byte for byte the rules of decode_word in src/codec/modified9/ (Yioop's
 * unpackListModified9):
 *   - the layout (bits per element, slots) comes from the first byte:
 *     selector bits 5-4 00 -> 1x28, 01 -> 2x14, 10 -> 3x9; 11 -> the first
 *     of the codes 63 (24x1), 62 (12x2), 60 (7x3), 56 (6x4), 52 (5x5),
 *     48 (4x6) whose bits are all set in the byte;
 *   - a 1x28 word gives its element (low 28 bits) even when it is zero;
 *   - any other word is read from the low slot up and ends at the first
 *     zero slot; its elements come out high slot first.
 *
 * The three steps of the GPU decoders (count, scan, write):
 *   m9_tile_counts      each work item counts its words' elements, the work
 *                       group adds them up: the tile's element count;
 *   scan_tile_sums_uint tile counts -> each tile's output offset, and the
 *                       total (prefix_sum.cl);
 *   m9_decode_tiles     the counts again, scanned within the tile: each
 *                       word's output offset; then one work item per word
 *                       writes that word's elements.
 * (The per-word counts are recomputed rather than stored: a count costs a
 * few instructions, a round trip through global memory costs more.)
 */

/* Word i of a byte string, big-endian. */
inline uint m9_word(__global const uchar *bytes, size_t i) {
    const uchar4 b = vload4(i, bytes);
    return ((uint)b.s0 << 24) | ((uint)b.s1 << 16) | ((uint)b.s2 << 8) | (uint)b.s3;
}

/*
 * The layouts: (bits per element, slots, low, high), where low has the low
 * bits-1 bits of every slot set and high the top bit of every slot; they
 * let m9_filled test all slots for zero at once, without a loop. Slots 0 is
 * the 1x28 word.
 */
__constant uint4 M9_LAYOUTS[9] = {
    (uint4)(28, 0, 0, 0),
    (uint4)(14, 2, 0x7ffdfffu, 0x8002000u),
    (uint4)(9, 3, 0x3fdfeffu, 0x4020100u),
    (uint4)(6, 4, 0x7df7dfu, 0x820820u),
    (uint4)(5, 5, 0xf7bdefu, 0x1084210u),
    (uint4)(4, 6, 0x777777u, 0x888888u),
    (uint4)(3, 7, 0xdb6dbu, 0x124924u),
    (uint4)(2, 12, 0x555555u, 0xaaaaaau),
    (uint4)(1, 24, 0, 0xffffffu),
};

/* The word's layout, by Yioop's rules on its first byte. */
inline uint4 m9_layout(uint word) {
    const uint b = word >> 24;
    uint i;
    switch ((b >> 4) & 3) {
    case 0:
        i = 0; /* 1x28 */
        break;
    case 1:
        i = 1; /* 2x14 */
        break;
    case 2:
        i = 2; /* 3x9 */
        break;
    default:
        /* selector 11: the first code whose bits are all set */
        i = (b & 63) == 63   ? 8  /* 24x1 */
            : (b & 62) == 62 ? 7  /* 12x2 */
            : (b & 60) == 60 ? 6  /* 7x3 */
            : (b & 56) == 56 ? 5  /* 6x4 */
            : (b & 52) == 52 ? 4  /* 5x5 */
                             : 3; /* 4x6 */
    }
    return M9_LAYOUTS[i];
}

/*
 * How many slots, from the low one up, are non-zero (l is not 1x28). A
 * slot's top bit in `nonzero` is set iff the slot is: adding low to the
 * slot's low bits carries into its top bit iff they are not all zero. The
 * lowest zero slot then ends the word.
 */
inline uint m9_filled(uint word, uint4 l) {
    const uint nonzero = (((word & l.z) + l.z) | word) & l.w;
    const uint zero = ~nonzero & l.w;
    if (zero == 0)
        return l.y;
    const uint lowest_bit = popcount((zero & (0u - zero)) - 1); /* its top bit */
    return (lowest_bit + 1) / l.x - 1;
}

/* How many elements the word decodes to. */
inline uint m9_count(uint word) {
    const uint4 l = m9_layout(word);
    return l.y == 0 ? 1 : m9_filled(word, l);
}

/* The word's elements, to dst[0..m9_count(word)). */
inline void m9_write(uint word, __global uint *dst) {
    const uint4 l = m9_layout(word);
    if (l.y == 0) {
        dst[0] = word & 0x0FFFFFFFu;
        return;
    }
    const uint bits = l.x;
    const uint mask = (1u << bits) - 1;
    const uint filled = m9_filled(word, l);
    for (uint j = 0; j < filled; j++)
        dst[j] = (word >> ((filled - 1 - j) * bits)) & mask;
}

/* Step 1: the element count of each tile of TILE words. */
__kernel void m9_tile_counts(__global const uchar *bytes, const uint n_words,
                             __global uint *tile_sums) {
    __local uint s[WG];
    const uint lid = get_local_id(0);
    const uint g = get_group_id(0);
    const size_t base = (size_t)g * TILE;
    uint sum = 0;
    for (uint j = 0; j < ITEMS; j++) {
        const size_t w = base + j * WG + lid;
        if (w < n_words)
            sum += m9_count(m9_word(bytes, w));
    }
    s[lid] = sum;
    wg_reduce_uint(s);
    if (lid == 0)
        tile_sums[g] = s[0];
}

/* Step 3: each word's elements at its offset in out. */
__kernel void m9_decode_tiles(__global const uchar *bytes, const uint n_words,
                              __global const uint *tile_offsets, __global uint *out,
                              const uint count) {
    __local uint offsets[TILE];
    __local uint s[WG];
    __local uint total;
    const uint lid = get_local_id(0);
    const uint g = get_group_id(0);
    const size_t base = (size_t)g * TILE;
    uint words[ITEMS];
    for (uint j = 0; j < ITEMS; j++) {
        const size_t w = base + j * WG + lid;
        words[j] = w < n_words ? m9_word(bytes, w) : 0;
        offsets[j * WG + lid] = w < n_words ? m9_count(words[j]) : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    tile_exclusive_scan_uint(offsets, s, &total);
    __global uint *tile_out = out + tile_offsets[g];
    for (uint j = 0; j < ITEMS; j++) {
        const size_t w = base + j * WG + lid;
        /* Never past the buffer, whatever a faulty compiler made of the
         * scans (the host's self-check then refuses the context). */
        const uint at = tile_offsets[g] + offsets[j * WG + lid];
        if (w < n_words && at <= count && m9_count(words[j]) <= count - at)
            m9_write(words[j], tile_out + offsets[j * WG + lid]);
    }
}
