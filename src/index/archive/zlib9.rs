//! `gzencode($text, 9)` written natively, the same bytes as zlib's (1.2.12
//! on: Debian 12's 1.2.13, Debian 13's 1.3.1) for texts below where
//! zlib's window slides ([`MAX_WHOLE_INPUT`]): deflate's lazy matching at
//! level 9 (memLevel 9, the default strategy), its Huffman trees with
//! their tie-breaking, the gzip wrapper. [`super::deflate`] uses it only
//! where a check at first use found it agreeing with the zlib this process
//! links (a system zlib of another lineage keeps zlib's own deflate).
//!
//! **Why the bytes are the same.** What decides zlib's output is
//! reproduced step for step: which positions enter the hash chains, the
//! chain walk (nearest first, at most 4,096 candidates, 1,024 once the
//! previous match reached 32 bytes, the first strictly longer one kept),
//! the lazy evaluation and its `TOO_FAR` rule, block splits at 32,767
//! symbols, the trees (`build_tree`'s heap and depth ties, the bit-length
//! overflow repair, the code-length runs) and the choice among stored,
//! fixed and dynamic blocks. Input may come in pieces, at any length
//! written here: as in zlib, a position is decided only once 262 bytes
//! follow it or the input is finished, so the bytes do not depend on where
//! the pieces break.
//!
//! **Why it is faster** (bench/README, "A native exact deflate"): zlib's
//! own walk, but the heap that builds each tree compares one key
//! (frequency over depth) where zlib compares two arrays, a code and its
//! extra bits go out in one write, 32 bits at a time, and nothing is
//! counted twice. On a queue server's records it takes 0.87 of zlib's
//! time: 0.77 under 2 KiB, where the trees are half the work, 0.95 over
//! 32 KiB, where zlib's chain walk is most of it.

/// The longest input written here, in pieces or whole, below where zlib's
/// window would slide (positions fit 16 bits); longer ones go to zlib.
pub const MAX_WHOLE_INPUT: usize = WSIZE + MAX_DIST - 1;

const WSIZE: usize = 1 << 15;
const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 258;
const MIN_LOOKAHEAD: usize = MAX_MATCH + MIN_MATCH + 1;
/// Level 9's configuration: good, lazy and chain lengths (nice is MAX_MATCH).
const GOOD_LENGTH: usize = 32;
const MAX_LAZY: usize = 258;
const MAX_CHAIN: usize = 4096;
const MAX_DIST: usize = WSIZE - MIN_LOOKAHEAD;
/// Symbols a block holds at most (memLevel 9's lit_bufsize − 1).
const BLOCK_SYMBOLS: usize = (1 << 15) - 1;
/// A 3-byte match farther than this is not worth its distance code.
const TOO_FAR: usize = 4096;
/// memLevel 9: 16 hash bits, shifted 6 a byte.
const HASH_SIZE: usize = 1 << 16;

const LITERALS: usize = 256;
const END_BLOCK: usize = 256;
const L_CODES: usize = LITERALS + 1 + 29;
const D_CODES: usize = 30;
const BL_CODES: usize = 19;
const HEAP_SIZE: usize = 2 * L_CODES + 1;
const MAX_BITS: usize = 15;
const MAX_BL_BITS: usize = 7;
const REP_3_6: usize = 16;
const REPZ_3_10: usize = 17;
const REPZ_11_138: usize = 18;

const EXTRA_LBITS: [u8; 29] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const EXTRA_DBITS: [u8; 30] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const EXTRA_BLBITS: [u8; BL_CODES] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7];
/// The order the code-length code lengths are sent in.
const BL_ORDER: [usize; BL_CODES] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/// The tables zlib's `tr_static_init` computes: length and distance codes,
/// their bases, and the fixed trees.
struct Tables {
    length_code: [u8; 256],
    base_length: [u16; 29],
    dist_code: [u8; 512],
    base_dist: [u16; 30],
    static_ltree_len: [u16; L_CODES + 2],
    static_ltree_code: [u16; L_CODES + 2],
    static_dtree_code: [u16; D_CODES],
}

const TABLES: Tables = static_tables();

const fn static_tables() -> Tables {
    let mut t = Tables {
        length_code: [0; 256],
        base_length: [0; 29],
        dist_code: [0; 512],
        base_dist: [0; 30],
        static_ltree_len: [0; L_CODES + 2],
        static_ltree_code: [0; L_CODES + 2],
        static_dtree_code: [0; D_CODES],
    };
    fill_codes(&mut t.length_code, &mut t.base_length, &EXTRA_LBITS, 0, 28, 0);
    // Length 258 (255 here) has two codes; the one without extra bits wins.
    t.length_code[255] = 28;
    // Distances to 256 one slot each, then one slot per 128.
    let (near, far) = t.dist_code.split_at_mut(256);
    fill_codes(near, &mut t.base_dist, &EXTRA_DBITS, 0, 16, 0);
    fill_codes(far, &mut t.base_dist, &EXTRA_DBITS, 16, D_CODES, 7);
    let mut n = 0;
    while n < L_CODES + 2 {
        t.static_ltree_len[n] = if n < 144 { 8 } else if n < 256 { 9 } else if n < 280 { 7 } else { 8 };
        n += 1;
    }
    let mut bl_count = [0u16; MAX_BITS + 1];
    bl_count[7] = 24;
    bl_count[8] = 152;
    bl_count[9] = 112;
    let mut next = next_codes(&bl_count);
    n = 0;
    while n < L_CODES + 2 {
        let len = t.static_ltree_len[n] as usize;
        t.static_ltree_code[n] = reverse(next[len], len);
        next[len] += 1;
        n += 1;
    }
    n = 0;
    while n < D_CODES {
        t.static_dtree_code[n] = reverse(n as u16, 5);
        n += 1;
    }
    t
}

/// `tr_static_init`'s loop over codes `from..to`: each code's base, and
/// the code in each of its slots of `table`, one slot per `2^shift` values
/// (the slots of the codes before `from` already filled).
const fn fill_codes(table: &mut [u8], base: &mut [u16], extra: &[u8], from: usize, to: usize, shift: u8) {
    let mut value = if from == 0 { 0 } else { base[from - 1] as usize + (1 << extra[from - 1]) };
    let mut code = from;
    while code < to {
        base[code] = value as u16;
        let mut n = 0;
        while n < 1 << (extra[code] - shift) {
            table[(value >> shift) + n] = code as u8;
            n += 1;
        }
        value += 1 << extra[code];
        code += 1;
    }
}

/// The first code of each bit length (`gen_codes`).
const fn next_codes(bl_count: &[u16; MAX_BITS + 1]) -> [u16; MAX_BITS + 1] {
    let mut next = [0u16; MAX_BITS + 1];
    let mut code = 0u16;
    let mut bits = 1;
    while bits <= MAX_BITS {
        code = (code.wrapping_add(bl_count[bits - 1])) << 1;
        next[bits] = code;
        bits += 1;
    }
    next
}

const fn reverse(code: u16, len: usize) -> u16 {
    let mut out = 0u16;
    let mut code = code;
    let mut i = 0;
    while i < len {
        out = (out << 1) | (code & 1);
        code >>= 1;
        i += 1;
    }
    out
}

fn dist_code(dist: usize) -> usize {
    (if dist < 256 { TABLES.dist_code[dist] } else { TABLES.dist_code[256 + (dist >> 7)] }) as usize
}

/// zlib's hash of the 3 bytes at a position (memLevel 9): older bytes
/// shift out, so it is a function of those 3 alone.
fn hash3(w: &[u8], p: usize) -> usize {
    let [a, b, c] = w[p..p + 3] else { unreachable!("3 bytes") };
    (((a as usize) << 12) ^ ((b as usize) << 6) ^ c as usize) & (HASH_SIZE - 1)
}

fn load64(w: &[u8], p: usize) -> u64 {
    u64::from_le_bytes(*w[p..].first_chunk::<8>().expect("8 bytes"))
}

fn load16(w: &[u8], p: usize) -> u16 {
    u16::from_le_bytes(*w[p..].first_chunk::<2>().expect("2 bytes"))
}

/// How many bytes at `a` and `b` agree, up to `max` (`a` < `b`, and `max`
/// bytes follow `b`).
fn common_prefix(w: &[u8], a: usize, b: usize, max: usize) -> usize {
    let run = &w[b..b + max];
    let earlier = &w[a..a + max];
    let mut n = 0;
    while n + 8 <= max {
        let x = load64(earlier, n);
        let y = load64(run, n);
        if x != y {
            return n + ((x ^ y).trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    while n < max && earlier[n] == run[n] {
        n += 1;
    }
    n
}

/// A table of zeros on the heap (too large for the stack).
fn zeroed<const N: usize>() -> Box<[u16; N]> {
    vec![0u16; N].into_boxed_slice().try_into().expect("N entries")
}

/// One gzip member being written: its input so far and deflate's state.
pub struct Deflate {
    window: Vec<u8>,
    /// zlib's `head`: the last position with each 3-byte hash (0: none, as
    /// in zlib, so position 0 is never a match).
    head: Box<[u16; HASH_SIZE]>,
    /// The `head` slots written, to clear (a text touches a few thousand).
    touched: Vec<u32>,
    /// zlib's `prev`: each position's chain link, by position mod WSIZE.
    prev: Box<[u16; WSIZE]>,
    strstart: usize,
    block_start: usize,
    out: BitWriter,
    match_available: bool,
    match_length: usize,
    match_start: usize,
    prev_length: usize,
    prev_match: usize,
    /// The block's symbols: a literal (distance 0) or a match's distance
    /// and length − 3, as zlib's `sym_buf` holds them.
    symbols: Vec<(u16, u8)>,
    lit_freq: [u16; HEAP_SIZE],
    dist_freq: [u16; 2 * D_CODES + 1],
    /// The CRC-32 of the input so far, taken as it comes (where a record
    /// is begun on one thread and finished on another, the finish does not
    /// read it all again).
    crc: u32,
}

thread_local! {
    /// The literal/length, distance and code-length trees, one set per
    /// thread: they stay in the cache of the core that builds them, where
    /// a member begun on another thread is finished.
    static TREES: std::cell::RefCell<[Box<Tree>; 3]> = std::cell::RefCell::new([Tree::new(), Tree::new(), Tree::new()]);
}

impl Deflate {
    pub fn new() -> Deflate {
        Deflate {
            window: Vec::new(),
            head: zeroed(),
            touched: Vec::new(),
            prev: zeroed(),
            strstart: 0,
            block_start: 0,
            out: BitWriter::new(),
            match_available: false,
            match_length: MIN_MATCH - 1,
            match_start: 0,
            prev_length: MIN_MATCH - 1,
            prev_match: 0,
            symbols: Vec::new(),
            lit_freq: [0; HEAP_SIZE],
            dist_freq: [0; 2 * D_CODES + 1],
            crc: 0,
        }
    }

    /// Ready for another text, keeping the allocations.
    pub fn reset(&mut self) {
        self.window.clear();
        for &h in &self.touched {
            self.head[h as usize] = 0;
        }
        self.touched.clear();
        self.symbols.clear();
        self.strstart = 0;
        self.block_start = 0;
        self.out = BitWriter::new();
        self.match_available = false;
        self.match_length = MIN_MATCH - 1;
        self.match_start = 0;
        self.prev_length = MIN_MATCH - 1;
        self.prev_match = 0;
        self.lit_freq = [0; HEAP_SIZE];
        self.dist_freq = [0; 2 * D_CODES + 1];
        self.crc = 0;
    }

    /// The input so far.
    pub fn input(&self) -> &[u8] {
        &self.window
    }

    /// Takes more input and decides every position that 262 bytes follow;
    /// false (nothing more decided) once the input passed
    /// [`MAX_WHOLE_INPUT`].
    pub fn feed(&mut self, input: &[u8]) -> bool {
        self.take(input);
        if self.window.len() > MAX_WHOLE_INPUT {
            return false;
        }
        self.run(false);
        true
    }

    /// `input` added to the window and the CRC.
    fn take(&mut self, input: &[u8]) {
        self.window.extend_from_slice(input);
        self.crc = unsafe { libdeflate_sys::libdeflate_crc32(self.crc, input.as_ptr().cast(), input.len()) };
    }

    /// The gzip member of all the input, `gzencode($input, 9)`; None where
    /// the input passed [`MAX_WHOLE_INPUT`].
    pub fn finish(&mut self, tail: &[u8]) -> Option<Vec<u8>> {
        if !self.feed(tail) {
            return None;
        }
        self.run(true);
        Some(self.wrap())
    }

    /// The gzip member: header, the blocks, CRC-32 and length.
    fn wrap(&mut self) -> Vec<u8> {
        self.flush_block(true);
        let mut out = std::mem::replace(&mut self.out, BitWriter::new());
        out.bytes.extend_from_slice(&self.crc.to_le_bytes());
        out.bytes.extend_from_slice(&(self.window.len() as u32).to_le_bytes());
        // Exactly its length: records are kept (written.rs).
        out.bytes.shrink_to_fit();
        out.bytes
    }

    /// zlib's INSERT_STRING: `p` into its chain; the chain's previous head.
    #[inline(always)]
    fn insert(&mut self, p: usize) -> usize {
        let h = hash3(&self.window, p);
        let old = self.head[h];
        if old == 0 {
            self.touched.push(h as u32);
        }
        self.head[h] = p as u16;
        self.prev[p % WSIZE] = old;
        old as usize
    }

    /// `deflate_slow` over the positions it can decide now.
    fn run(&mut self, finish: bool) {
        loop {
            // All the input fits zlib's window, which never slides.
            let lookahead = self.window.len() - self.strstart;
            if lookahead < MIN_LOOKAHEAD && !finish {
                return;
            }
            if lookahead == 0 {
                break;
            }
            let mut hash_head = 0;
            if lookahead >= MIN_MATCH {
                hash_head = self.insert(self.strstart);
            }
            self.prev_length = self.match_length;
            self.prev_match = self.match_start;
            self.match_length = MIN_MATCH - 1;
            if hash_head != 0 && self.prev_length < MAX_LAZY && self.strstart - hash_head <= MAX_DIST {
                self.match_length = self.longest_match(hash_head, lookahead);
                if self.match_length == MIN_MATCH && self.strstart - self.match_start > TOO_FAR {
                    self.match_length = MIN_MATCH - 1;
                }
            }
            if self.prev_length >= MIN_MATCH && self.match_length <= self.prev_length {
                let max_insert = self.strstart + lookahead - MIN_MATCH;
                self.tally_match(self.strstart - 1 - self.prev_match, self.prev_length - MIN_MATCH);
                for p in self.strstart + 1..self.strstart + self.prev_length - 1 {
                    if p <= max_insert {
                        self.insert(p);
                    }
                }
                self.strstart += self.prev_length - 1;
                self.match_available = false;
                self.match_length = MIN_MATCH - 1;
                if self.symbols.len() == BLOCK_SYMBOLS {
                    self.flush_block(false);
                }
            } else {
                if self.match_available {
                    self.tally_literal(self.window[self.strstart - 1]);
                    if self.symbols.len() == BLOCK_SYMBOLS {
                        self.flush_block(false);
                    }
                }
                self.match_available = true;
                self.strstart += 1;
            }
        }
        if self.match_available {
            self.tally_literal(self.window[self.strstart - 1]);
            self.match_available = false;
        }
    }

    /// zlib's `longest_match` from `hash_head`: the candidates of its chain,
    /// nearest first, at most `chain` of them, the first strictly longer
    /// one kept. Returns the length found (at most the lookahead);
    /// `match_start` is set where one longer than `prev_length` was found.
    fn longest_match(&mut self, hash_head: usize, lookahead: usize) -> usize {
        if self.prev_length >= lookahead {
            return lookahead; // no candidate could be longer
        }
        let mut chain = if self.prev_length >= GOOD_LENGTH { MAX_CHAIN >> 2 } else { MAX_CHAIN };
        let s = self.strstart;
        // A candidate past the first must be above this (nearer than
        // MAX_DIST; 0 is NIL).
        let limit = s.saturating_sub(MAX_DIST);
        let max = MAX_MATCH.min(lookahead);
        let w = &self.window[..];
        let mut best = self.prev_length;
        let mut start = self.match_start;
        let scan_start = load16(w, s);
        let mut scan_end = load16(w, s + best - 1);
        let mut cur = hash_head;
        loop {
            // zlib's quick test: the two bytes around `best`, then the
            // first two (the third agrees where the hashes do).
            // SAFETY: cur < s and best < max <= lookahead, so cur + best < len.
            let end = unsafe { u16::from_le_bytes([*w.get_unchecked(cur + best - 1), *w.get_unchecked(cur + best)]) };
            if end == scan_end && load16(w, cur) == scan_start {
                let len = common_prefix(w, cur, s, max);
                if len > best {
                    start = cur;
                    best = len;
                    if len >= max {
                        break;
                    }
                    scan_end = load16(w, s + best - 1);
                }
            }
            // SAFETY: the index is below WSIZE.
            cur = unsafe { *self.prev.get_unchecked(cur % WSIZE) } as usize;
            chain -= 1;
            if cur <= limit || chain == 0 {
                break;
            }
        }
        self.match_start = start;
        best
    }

    /// zlib's Z_HUFFMAN_ONLY: every byte a literal. Only the tests use it,
    /// to reach the trees with frequencies no match-finding leaves.
    #[cfg(test)]
    fn huffman_only(text: &[u8]) -> Vec<u8> {
        let mut deflate = Deflate::new();
        deflate.take(text);
        for &byte in text {
            deflate.tally_literal(byte);
        }
        deflate.strstart = text.len();
        deflate.wrap()
    }

    #[inline(always)]
    fn tally_literal(&mut self, byte: u8) {
        self.symbols.push((0, byte));
        self.lit_freq[byte as usize] += 1;
    }

    fn tally_match(&mut self, dist: usize, len_minus_3: usize) {
        self.symbols.push((dist as u16, len_minus_3 as u8));
        self.lit_freq[TABLES.length_code[len_minus_3] as usize + LITERALS + 1] += 1;
        self.dist_freq[dist_code(dist - 1)] += 1;
    }

    /// `_tr_flush_block`: the symbols since `block_start` as one block;
    /// the last one ends on a byte (`bi_windup`).
    fn flush_block(&mut self, last: bool) {
        let mut out = std::mem::replace(&mut self.out, BitWriter::new());
        self.write_block(&mut out, last);
        self.out = out;
        self.block_start = self.strstart;
        self.symbols.clear();
        self.lit_freq = [0; HEAP_SIZE];
        self.dist_freq = [0; 2 * D_CODES + 1];
    }

    fn write_block(&mut self, out: &mut BitWriter, last: bool) {
        TREES.with(|trees| self.write_block_with(&mut trees.borrow_mut(), out, last));
    }

    fn write_block_with(&mut self, trees: &mut [Box<Tree>; 3], out: &mut BitWriter, last: bool) {
        let [ltree, dtree, bltree] = trees;
        let last_bit = last as u32;
        self.lit_freq[END_BLOCK] += 1;
        let mut lengths = Lengths::default();
        ltree.load(&self.lit_freq[..L_CODES]);
        dtree.load(&self.dist_freq[..D_CODES]);
        ltree.build(&mut lengths, Some(&TABLES.static_ltree_len[..]), &EXTRA_LBITS, LITERALS + 1, MAX_BITS);
        dtree.build(&mut lengths, Some(&[5; D_CODES]), &EXTRA_DBITS, 0, MAX_BITS);
        let mut bl_freq = [0u16; BL_CODES];
        ltree.scan_runs(&mut bl_freq);
        dtree.scan_runs(&mut bl_freq);
        bltree.load(&bl_freq);
        bltree.build(&mut lengths, None, &EXTRA_BLBITS, 0, MAX_BL_BITS);
        let mut max_blindex = BL_CODES - 1;
        while max_blindex >= 3 && bltree.len[BL_ORDER[max_blindex]] == 0 {
            max_blindex -= 1;
        }
        lengths.opt += 3 * (max_blindex as u64 + 1) + 5 + 5 + 4;
        let mut opt_lenb = (lengths.opt + 3 + 7) >> 3;
        let static_lenb = (lengths.fixed + 3 + 7) >> 3;
        if static_lenb <= opt_lenb {
            opt_lenb = static_lenb;
        }
        let stored_len = (self.strstart - self.block_start) as u64;
        if stored_len + 4 <= opt_lenb {
            out.send(last_bit, 3); // stored
            out.align();
            out.bytes.extend_from_slice(&(stored_len as u16).to_le_bytes());
            out.bytes.extend_from_slice(&(!(stored_len as u16)).to_le_bytes());
            out.bytes.extend_from_slice(&self.window[self.block_start..self.strstart]);
            return;
        }
        if static_lenb == opt_lenb {
            out.send(2 | last_bit, 3); // fixed trees
            self.compress_block(out, &TABLES.static_ltree_code, &TABLES.static_ltree_len, &TABLES.static_dtree_code, &[5; D_CODES]);
        } else {
            out.send(4 | last_bit, 3); // dynamic trees
            let (lcodes, dcodes, blcodes) = (ltree.max_code + 1, dtree.max_code + 1, max_blindex + 1);
            out.send((lcodes - 257) as u32, 5);
            out.send((dcodes - 1) as u32, 5);
            out.send((blcodes - 4) as u32, 4);
            for &code in &BL_ORDER[..blcodes] {
                out.send(bltree.len[code] as u32, 3);
            }
            ltree.send_runs(out, bltree);
            dtree.send_runs(out, bltree);
            self.compress_block(out, &ltree.code, &ltree.len, &dtree.code, &dtree.len);
        }
        if last {
            out.align();
        }
    }

    fn compress_block(&self, out: &mut BitWriter, lcode: &[u16], llen: &[u16], dcode: &[u16], dlen: &[u16]) {
        for &(dist, lc) in &self.symbols {
            let lc = lc as usize;
            if dist == 0 {
                out.send(lcode[lc] as u32, llen[lc] as u32);
                continue;
            }
            // A code and its extra bits in one send (at most 15 + 13 bits).
            let code = TABLES.length_code[lc] as usize;
            let (bits, len) = (lcode[code + LITERALS + 1] as u32, llen[code + LITERALS + 1] as u32);
            // Length 258 (code 28) has no extra bits, and no base to take off.
            let xbits = EXTRA_LBITS[code] as u32;
            let extra = (lc - TABLES.base_length[code] as usize) as u32 & ((1 << xbits) - 1);
            out.send(bits | extra << len, len + xbits);
            let dist = dist as usize - 1;
            let code = dist_code(dist);
            let (bits, len) = (dcode[code] as u32, dlen[code] as u32);
            let extra = (dist - TABLES.base_dist[code] as usize) as u32;
            out.send(bits | extra << len, len + EXTRA_DBITS[code] as u32);
        }
        out.send(lcode[END_BLOCK] as u32, llen[END_BLOCK] as u32);
    }
}

impl Default for Deflate {
    fn default() -> Self {
        Deflate::new()
    }
}

/// The block's lengths in bits as zlib counts them: with the trees built
/// (`opt_len`) and with the fixed trees (`static_len`).
#[derive(Default)]
struct Lengths {
    opt: u64,
    fixed: u64,
}

/// One Huffman tree as zlib's `ct_data` array and `tree_desc` hold it,
/// with the heap `build_tree` sorts it in. Kept between blocks: building
/// sets every entry it reads.
struct Tree {
    elems: usize,
    freq: [u32; HEAP_SIZE],
    /// A node's parent while building, then each code's length (zlib keeps
    /// both in one field, the parent's length read before the child's).
    dad: [u16; HEAP_SIZE],
    len: [u16; HEAP_SIZE],
    code: [u16; HEAP_SIZE],
    max_code: usize,
    /// The nodes as `build_tree` takes them off its heap, from `heap_max`
    /// up: the order `gen_bitlen` reads them in.
    heap: [u16; HEAP_SIZE],
}

impl Tree {
    fn new() -> Box<Tree> {
        Box::new(Tree { elems: 0, freq: [0; HEAP_SIZE], dad: [0; HEAP_SIZE], len: [0; HEAP_SIZE], code: [0; HEAP_SIZE], max_code: 0, heap: [0; HEAP_SIZE] })
    }

    fn load(&mut self, freq: &[u16]) {
        self.elems = freq.len();
        for (to, &f) in self.freq.iter_mut().zip(freq) {
            *to = f as u32;
        }
    }

    /// `build_tree`, `gen_bitlen` and `gen_codes`.
    fn build(&mut self, lengths: &mut Lengths, fixed: Option<&[u16]>, extra: &[u8], extra_base: usize, max_length: usize) {
        let mut heap_len = 0;
        let mut heap_max = HEAP_SIZE;
        let mut max_code: isize = -1;
        // The heap as zlib's, each entry its node's (frequency, depth) key
        // above the node: zlib's `smaller` is then one comparison of keys.
        // Leaves are at depth 0; an inner node's depth lives in its key.
        let mut heap = [0u64; HEAP_SIZE + 1];
        for n in 0..self.elems {
            if self.freq[n] != 0 {
                heap_len += 1;
                heap[heap_len] = entry(self.freq[n], 0, n);
                max_code = n as isize;
            } else {
                self.len[n] = 0;
            }
        }
        // Two codes at least, so that some bit is sent.
        while heap_len < 2 {
            let node = if max_code < 2 {
                max_code += 1;
                max_code as usize
            } else {
                0
            };
            heap_len += 1;
            self.freq[node] = 1;
            heap[heap_len] = entry(1, 0, node);
            lengths.opt = lengths.opt.wrapping_sub(1);
            if let Some(fixed) = fixed {
                lengths.fixed = lengths.fixed.wrapping_sub(fixed[node] as u64);
            }
        }
        let max_code = max_code as usize;
        self.max_code = max_code;
        heap[heap_len + 1] = u64::MAX;
        for n in (1..=heap_len / 2).rev() {
            down_heap(&mut heap, heap_len, n);
        }
        let mut node = self.elems;
        loop {
            let n = heap[1];
            heap[1] = heap[heap_len];
            heap[heap_len] = u64::MAX;
            heap_len -= 1;
            down_heap(&mut heap, heap_len, 1);
            let m = heap[1];
            heap_max -= 1;
            self.heap[heap_max] = n as u16;
            heap_max -= 1;
            self.heap[heap_max] = m as u16;
            let freq = (n >> 24) as u32 + (m >> 24) as u32;
            let depth = ((n >> 16) as u8).max((m >> 16) as u8) + 1;
            self.freq[node] = freq;
            self.dad[n as u16 as usize] = node as u16;
            self.dad[m as u16 as usize] = node as u16;
            heap[1] = entry(freq, depth, node);
            node += 1;
            down_heap(&mut heap, heap_len, 1);
            if heap_len < 2 {
                break;
            }
        }
        heap_max -= 1;
        self.heap[heap_max] = heap[1] as u16;
        let bl_count = self.bit_lengths(heap_max, lengths, fixed, extra, extra_base, max_length);
        let mut next = next_codes(&bl_count);
        for n in 0..=max_code {
            let len = self.len[n] as usize;
            if len != 0 {
                self.code[n] = reverse(next[len], len);
                next[len] += 1;
            }
        }
    }

    /// `gen_bitlen`: code lengths from the tree, at most `max_length`, with
    /// zlib's repair of overflowed ones; the count of codes per length.
    #[allow(clippy::too_many_arguments)]
    fn bit_lengths(&mut self, heap_max: usize, lengths: &mut Lengths, fixed: Option<&[u16]>, extra: &[u8], extra_base: usize, max_length: usize) -> [u16; MAX_BITS + 1] {
        let mut bl_count = [0u16; MAX_BITS + 1];
        let mut overflow = 0i32;
        let heap = self.heap;
        self.len[heap[heap_max] as usize] = 0;
        let mut h = heap_max + 1;
        while h < HEAP_SIZE {
            let n = heap[h] as usize;
            h += 1;
            let mut bits = self.len[self.dad[n] as usize] as usize + 1;
            if bits > max_length {
                bits = max_length;
                overflow += 1;
            }
            self.len[n] = bits as u16;
            if n > self.max_code {
                continue; // an inner node
            }
            bl_count[bits] += 1;
            let xbits = if n >= extra_base { extra[n - extra_base] as u64 } else { 0 };
            let f = self.freq[n] as u64;
            lengths.opt = lengths.opt.wrapping_add(f * (bits as u64 + xbits));
            if let Some(fixed) = fixed {
                lengths.fixed = lengths.fixed.wrapping_add(f * (fixed[n] as u64 + xbits));
            }
        }
        if overflow == 0 {
            return bl_count;
        }
        loop {
            let mut bits = max_length - 1;
            while bl_count[bits] == 0 {
                bits -= 1;
            }
            bl_count[bits] -= 1;
            bl_count[bits + 1] += 2;
            bl_count[max_length] -= 1;
            overflow -= 2;
            if overflow <= 0 {
                break;
            }
        }
        let mut h = HEAP_SIZE;
        for bits in (1..=max_length).rev() {
            let mut n = bl_count[bits];
            while n != 0 {
                h -= 1;
                let m = heap[h] as usize;
                if m > self.max_code {
                    continue;
                }
                if self.len[m] as usize != bits {
                    lengths.opt = lengths.opt.wrapping_add((bits as u64).wrapping_sub(self.len[m] as u64).wrapping_mul(self.freq[m] as u64));
                    self.len[m] = bits as u16;
                }
                n -= 1;
            }
        }
        bl_count
    }

    /// The runs `scan_tree` counts and `send_tree` sends: each yields a
    /// code length, or a repeat code with its count.
    fn runs(&self, mut each: impl FnMut(Run)) {
        let mut prevlen: isize = -1;
        let mut nextlen = self.len[0] as isize;
        let mut count = 0;
        let (mut max_count, mut min_count) = if nextlen == 0 { (138, 3) } else { (7, 4) };
        for n in 0..=self.max_code {
            let curlen = nextlen;
            // zlib's guard: a length no code has, after the last code.
            nextlen = if n + 1 <= self.max_code { self.len[n + 1] as isize } else { 0xffff };
            count += 1;
            if count < max_count && curlen == nextlen {
                continue;
            } else if count < min_count {
                each(Run::Lengths(curlen as usize, count));
            } else if curlen != 0 {
                each(Run::Repeat { len: curlen as usize, count, new: curlen != prevlen });
            } else if count <= 10 {
                each(Run::Zeros3To10(count));
            } else {
                each(Run::Zeros11To138(count));
            }
            count = 0;
            prevlen = curlen;
            (max_count, min_count) = if nextlen == 0 {
                (138, 3)
            } else if curlen == nextlen {
                (6, 3)
            } else {
                (7, 4)
            };
        }
    }

    fn scan_runs(&self, bl_freq: &mut [u16; BL_CODES]) {
        self.runs(|run| match run {
            Run::Lengths(len, count) => bl_freq[len] += count as u16,
            Run::Repeat { len, new, .. } => {
                if new {
                    bl_freq[len] += 1;
                }
                bl_freq[REP_3_6] += 1;
            }
            Run::Zeros3To10(_) => bl_freq[REPZ_3_10] += 1,
            Run::Zeros11To138(_) => bl_freq[REPZ_11_138] += 1,
        });
    }

    fn send_runs(&self, out: &mut BitWriter, bl: &Tree) {
        let send = |out: &mut BitWriter, code: usize| out.send(bl.code[code] as u32, bl.len[code] as u32);
        self.runs(|run| match run {
            Run::Lengths(len, count) => {
                for _ in 0..count {
                    send(out, len);
                }
            }
            Run::Repeat { len, mut count, new } => {
                if new {
                    send(out, len);
                    count -= 1;
                }
                send(out, REP_3_6);
                out.send(count as u32 - 3, 2);
            }
            Run::Zeros3To10(count) => {
                send(out, REPZ_3_10);
                out.send(count as u32 - 3, 3);
            }
            Run::Zeros11To138(count) => {
                send(out, REPZ_11_138);
                out.send(count as u32 - 11, 7);
            }
        });
    }
}

/// A heap entry: the node's key (frequency, then depth) over its number.
#[inline(always)]
fn entry(freq: u32, depth: u8, node: usize) -> u64 {
    (freq as u64) << 24 | (depth as u64) << 16 | node as u64
}

/// zlib's `pqdownheap` over keyed entries; `heap[heap_len + 1]` is the
/// largest entry there is, so every node has a right child to compare.
#[inline(always)]
fn down_heap(heap: &mut [u64; HEAP_SIZE + 1], heap_len: usize, mut k: usize) {
    let v = heap[k];
    let mut j = k << 1;
    while j <= heap_len {
        let (left, right) = (heap[j], heap[j + 1]);
        // zlib takes the right child where it is not larger.
        let take_right = right >> 16 <= left >> 16;
        let child = if take_right { right } else { left };
        j += take_right as usize;
        if v >> 16 <= child >> 16 {
            break;
        }
        heap[k] = child;
        k = j;
        j <<= 1;
    }
    heap[k] = v;
}

enum Run {
    Lengths(usize, usize),
    Repeat { len: usize, count: usize, new: bool },
    Zeros3To10(usize),
    Zeros11To138(usize),
}

/// Deflate's bit order: each value's low bits first.
struct BitWriter {
    bytes: Vec<u8>,
    bits: u64,
    count: u32,
}

impl BitWriter {
    fn new() -> BitWriter {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3]);
        BitWriter { bytes, bits: 0, count: 0 }
    }

    /// `len` bits of `value` (at most 32), whole 32-bit words written out.
    #[inline(always)]
    fn send(&mut self, value: u32, len: u32) {
        self.bits |= (value as u64) << self.count;
        self.count += len;
        if self.count >= 32 {
            self.bytes.extend_from_slice(&(self.bits as u32).to_le_bytes());
            self.bits >>= 32;
            self.count -= 32;
        }
    }

    fn align(&mut self) {
        while self.count > 0 {
            self.bytes.push(self.bits as u8);
            self.bits >>= 8;
            self.count = self.count.saturating_sub(8);
        }
        self.bits = 0;
        self.count = 0;
    }
}

/// `gzencode($text, 9)` for a text of at most [`MAX_WHOLE_INPUT`] bytes.
pub fn gzencode9(text: &[u8]) -> Option<Vec<u8>> {
    let mut deflate = Deflate::new();
    deflate.finish(text)
}

/// A xorshift64 generator: the probes' and tests' texts, the same each run.
fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// Texts that take every path of this deflate: no input, a byte, stored,
/// fixed and dynamic blocks, code lengths past 15 bits that zlib repairs,
/// runs whose chains zlib cuts short, matches at the input's end, a
/// serialized summary's shape, and the longest input.
pub fn probes() -> Vec<Vec<u8>> {
    let mut random = xorshift(0x2545_f491_4f6c_dd1du64);
    let noise: Vec<u8> = (0..3000).map(|_| random() as u8).collect();
    // Frequencies growing as Fibonacci numbers make a tree deeper than 15.
    let mut skewed = Vec::new();
    let (mut a, mut b) = (1usize, 1usize);
    for symbol in 0..20u8 {
        skewed.extend(std::iter::repeat_n(b'A' + symbol, a));
        (a, b) = (b, a + b);
    }
    let mut shuffled = skewed.clone();
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, random() as usize % (i + 1));
    }
    let mut summary = Vec::new();
    for i in 0..120 {
        summary.extend_from_slice(format!("s:1:\"{}\";s:{}:\"field {i} of the summary\";i:{};", (b'a' + (i % 26) as u8) as char, 17 + i.to_string().len(), random() % 100_000).as_bytes());
    }
    let words: Vec<u8> = (0..MAX_DIST).map(|i| b"the quick brown fox jumps over a lazy dog "[(random() as usize ^ i) % 42]).collect();
    vec![
        Vec::new(),
        b"a".to_vec(),
        b"hello hello hello".to_vec(),
        noise.clone(),
        [&noise[..1000], &noise[..1000], &noise[500..1500]].concat(),
        shuffled,
        vec![b' '; 20_000],
        [vec![b'x'; 300], b"yxxxxxxxxxxxxxx".to_vec(), vec![b'x'; 9000]].concat(),
        summary.clone(),
        [&summary[..], &summary[..summary.len() / 2]].concat(),
        // Block splits, distances at MAX_DIST.
        [&words[..], &summary.repeat(20)[..], &noise[..], &words[..]].concat()[..MAX_WHOLE_INPUT].to_vec(),
        vec![b'z'; MAX_WHOLE_INPUT],
        // Stored blocks before the last.
        (0..40_000).map(|_| random() as u8).collect(),
        words,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::archive::deflate::zlib_gzencode9;

    fn assert_as_zlib(text: &[u8], what: &str) {
        let native = gzencode9(text).expect("within MAX_WHOLE_INPUT");
        assert!(native == zlib_gzencode9(text), "{what}: {} bytes differ from zlib's", text.len());
    }

    #[test]
    fn every_probe_is_zlibs_bytes() {
        let mut block_types = std::collections::BTreeSet::new();
        for (i, text) in probes().iter().enumerate() {
            assert_as_zlib(text, &format!("probe {i}"));
            block_types.insert((gzencode9(text).unwrap()[10] >> 1) & 3);
        }
        assert_eq!(block_types, [0, 1, 2].into(), "stored, fixed and dynamic blocks");
    }

    /// Texts of every length to MAX_WHOLE_INPUT over small alphabets, where
    /// matches, ties and long chains abound, and over all bytes.
    /// `len` bytes of `alphabet`: single bytes between repeats of eight
    /// pieces of up to `piece` bytes.
    fn patterned(random: &mut impl FnMut() -> u64, len: usize, alphabet: u64, piece: u64) -> Vec<u8> {
        let pieces: Vec<Vec<u8>> = (0..8).map(|_| (0..random() % piece).map(|_| (random() % alphabet) as u8).collect()).collect();
        let mut text = Vec::with_capacity(len);
        while text.len() < len {
            if random() % 3 == 0 {
                text.push((random() % alphabet) as u8);
            } else {
                text.extend_from_slice(&pieces[(random() % 8) as usize]);
            }
        }
        text.truncate(len);
        text
    }

    #[test]
    fn random_texts_are_zlibs_bytes() {
        let mut random = xorshift(0x9e37_79b9_7f4a_7c15u64);
        for round in 0..400 {
            let len = match round % 4 {
                0 => (random() % 64) as usize,
                1 => (random() % 2000) as usize,
                2 => (random() % 12_000) as usize,
                _ if round % 40 == 3 => MAX_WHOLE_INPUT - (random() % 30_000) as usize,
                _ => MAX_DIST - 300 + (random() % 600) as usize,
            };
            let alphabet = [2, 3, 4, 16, 256][(round + round / 40) % 5];
            let text = patterned(&mut random, len, alphabet, 40);
            assert_as_zlib(&text, &format!("round {round}, alphabet {alphabet}"));
        }
    }

    #[test]
    fn input_in_pieces_gives_the_same_bytes() {
        let text = probes().swap_remove(9);
        let whole = gzencode9(&text).unwrap();
        for cut in [0, 1, 261, 262, 263, text.len() / 2, text.len() - 262, text.len() - 1, text.len()] {
            let mut deflate = Deflate::new();
            assert!(deflate.feed(&text[..cut]));
            assert_eq!(deflate.finish(&text[cut..]).unwrap(), whole, "cut at {cut}");
        }
    }

    #[test]
    fn a_reset_deflater_forgets_the_last_text() {
        let probes = probes();
        let mut deflate = Deflate::new();
        for text in probes.iter().chain(probes.iter().rev()) {
            assert_eq!(deflate.finish(text), gzencode9(text));
            deflate.reset();
        }
    }

    /// zlib's own deflate with Z_HUFFMAN_ONLY, level 9, gzencode's wrapper.
    fn zlib_huffman_only(text: &[u8]) -> Vec<u8> {
        use libz_sys::*;
        let mut out = vec![0u8; text.len() * 2 + 1024];
        unsafe {
            let null = std::ptr::null_mut();
            let mut stream = z_stream { next_in: null, avail_in: 0, total_in: 0, next_out: null, avail_out: 0, total_out: 0, msg: null.cast(), state: null.cast(), zalloc: alloc, zfree: release, opaque: null.cast(), data_type: 0, adler: 0, reserved: 0 };
            let size = std::mem::size_of::<z_stream>() as i32;
            assert_eq!(deflateInit2_(&mut stream, 9, Z_DEFLATED, 31, 9, Z_HUFFMAN_ONLY, zlibVersion(), size), Z_OK);
            stream.next_in = text.as_ptr().cast_mut();
            stream.avail_in = text.len() as u32;
            stream.next_out = out.as_mut_ptr();
            stream.avail_out = out.len() as u32;
            assert_eq!(deflate(&mut stream, Z_FINISH), Z_STREAM_END);
            out.truncate(stream.total_out as usize);
            deflateEnd(&mut stream);
        }
        out
    }

    unsafe extern "C" fn alloc(_: libz_sys::voidpf, items: libz_sys::uInt, size: libz_sys::uInt) -> libz_sys::voidpf {
        unsafe { libc::calloc(items as usize, size as usize) }
    }

    unsafe extern "C" fn release(_: libz_sys::voidpf, pointer: libz_sys::voidpf) {
        unsafe { libc::free(pointer) }
    }

    /// The trees and the block choice, on literal frequencies of every
    /// shape: geometric ones whose Huffman codes pass 15 bits (and, in the
    /// code-length tree, 7), which zlib repairs in its own way.
    #[test]
    fn the_trees_are_zlibs_for_any_frequencies() {
        let mut random = xorshift(0x1234_5678_9abc_def1u64);
        for round in 0..300 {
            let len = [1, 40, 700, 5000, 32_000][round % 5] + (random() % 500) as usize;
            // Symbol k with probability falling by `ratio` a step.
            let ratio = 0.3 + (round % 13) as f64 * 0.05;
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    let mut k = 0u8;
                    while k < 255 && (random() % 1_000_000) as f64 / 1e6 < ratio {
                        k += 1;
                    }
                    k.wrapping_mul(37)
                })
                .collect();
            assert!(Deflate::huffman_only(&text) == zlib_huffman_only(&text), "round {round}: {len} bytes, ratio {ratio}");
        }
    }

    #[test]
    fn longer_inputs_are_left_to_zlib() {
        assert!(gzencode9(&vec![b'a'; MAX_WHOLE_INPUT + 1]).is_none());
    }

    /// Inputs past MAX_DIST, where blocks split and matches can be too
    /// far, cut where `addObjects` cuts a record (before its offset) and
    /// anywhere else: zlib's bytes every time.
    #[test]
    fn long_inputs_in_pieces_are_zlibs_bytes() {
        let mut random = xorshift(0x1234_5678_9abc_def1);
        for round in 0..80 {
            let len = MAX_DIST - 2000 + (random() % (MAX_WHOLE_INPUT - MAX_DIST + 2001) as u64) as usize;
            let alphabet = [2, 4, 16, 256][round % 4];
            let text = patterned(&mut random, len, alphabet, 300);
            let cut = len - (random() % 400) as usize;
            let mut deflate = Deflate::new();
            assert!(deflate.feed(&text[..cut / 2]) && deflate.feed(&text[cut / 2..cut]));
            assert!(deflate.finish(&text[cut..]).unwrap() == zlib_gzencode9(&text), "round {round}, alphabet {alphabet}");
        }
    }

    #[test]
    fn input_past_the_longest_is_left_to_zlib_in_pieces_too() {
        let text = vec![b'a'; MAX_WHOLE_INPUT + 1];
        let mut deflate = Deflate::new();
        assert!(deflate.feed(&text[..MAX_WHOLE_INPUT]));
        assert_eq!(deflate.finish(&text[MAX_WHOLE_INPUT..]), None);
        assert_eq!(deflate.input(), &text[..]);
    }
}
