//! `gzencode($text, 9)` written natively, the same bytes as zlib's (1.2.12
//! on: Debian 12's 1.2.13, Debian 13's 1.3.1) for texts up to [`MAX_INPUT`]
//! bytes: deflate's lazy matching at level 9 (memLevel 9, the default
//! strategy), its Huffman trees with their tie-breaking, one block, the
//! gzip wrapper. [`super::deflate`] uses it only where a check at first
//! use found it agreeing with the zlib this process links (a system zlib
//! of another lineage, such as zlib-ng, keeps zlib's own deflate).
//!
//! **Why it is faster.** At level 9 zlib looks for each position's match
//! along a hash chain of every earlier position with the same 3-byte hash,
//! nearest first, keeping the first strictly longer one: the longest
//! match, the nearest of the longest, unless the chain holds more entries
//! than zlib walks (4,096; 1,024 once the previous match reached 32 bytes).
//! In a serialized summary the chains of `";s:` and the like run through
//! every field, and most of the walk is candidates no longer than the best
//! so far. Where the chain is short enough for zlib to walk it whole, this
//! finds the same match from a chain of 4-byte prefixes, which a
//! candidate must share to beat a match of 3 bytes; elsewhere it walks
//! zlib's chain as zlib does.
//!
//! **Why the bytes are the same.** Every input of this size fits zlib's
//! window with room to spare: no window slide, no distance limit, and
//! fewer symbols than zlib's 32,767 a block, so zlib writes one block at
//! the finish. What remains is reproduced step for step: which positions
//! enter the hash chains, the lazy evaluation and its `TOO_FAR` rule, the
//! trees (`build_tree`'s heap and depth ties, the bit-length overflow
//! repair, the code-length runs) and the choice among stored, fixed and
//! dynamic blocks. Input may come in pieces: as in zlib, a position is
//! decided only once 262 bytes follow it or the input is finished, so the
//! bytes do not depend on where the pieces break. Tests compare with the
//! system zlib on varied, repetitive, binary and real-record texts.

/// The longest input taken in pieces ([`Deflate::feed`]): zlib's MAX_DIST
/// (32,768 − 262), below which no match is too far, the window never
/// slides and one block holds every symbol. A longer input is written
/// again from its start when finished.
pub const MAX_INPUT: usize = WSIZE - MIN_LOOKAHEAD;
/// The longest input written here at all, below where zlib's window would
/// slide (positions fit 16 bits); longer ones go to zlib.
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
/// Slots of the 8-byte chains (not zlib's; any size finds the same match).
const HASH8_BITS: u32 = 14;
/// The best length from which a longer match shares 8 bytes: the walk
/// leaves zlib's chain for the 8-byte one there.
const LONG_KEY: usize = 8;
/// Inputs from this long on keep the 8-byte chain: in shorter ones zlib's
/// chains are short, and keeping it costs more than it saves.
const LONG_CHAIN_FROM: usize = 8 << 10;

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
    let mut length = 0usize;
    let mut code = 0;
    while code < 28 {
        t.base_length[code] = length as u16;
        let mut n = 0;
        while n < 1 << EXTRA_LBITS[code] {
            t.length_code[length] = code as u8;
            length += 1;
            n += 1;
        }
        code += 1;
    }
    // Length 258 (255 here) has two codes; the one without extra bits wins.
    t.length_code[255] = 28;
    let mut dist = 0usize;
    code = 0;
    while code < 16 {
        t.base_dist[code] = dist as u16;
        let mut n = 0;
        while n < 1 << EXTRA_DBITS[code] {
            t.dist_code[dist] = code as u8;
            dist += 1;
            n += 1;
        }
        code += 1;
    }
    dist >>= 7;
    while code < D_CODES {
        t.base_dist[code] = (dist << 7) as u16;
        let mut n = 0;
        while n < 1 << (EXTRA_DBITS[code] - 7) {
            t.dist_code[256 + dist] = code as u8;
            dist += 1;
            n += 1;
        }
        code += 1;
    }
    let mut n = 0;
    while n < L_CODES + 2 {
        t.static_ltree_len[n] = if n < 144 { 8 } else if n < 256 { 9 } else if n < 280 { 7 } else { 8 };
        n += 1;
    }
    let mut bl_count = [0u16; MAX_BITS + 1];
    bl_count[7] = 24;
    bl_count[8] = 152;
    bl_count[9] = 112;
    let next = next_codes(&bl_count);
    let mut next = next;
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

fn hash8(w: &[u8], p: usize) -> usize {
    (load64(w, p).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - HASH8_BITS)) as usize
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

/// What a position's hash slot holds, reset between texts.
struct Slots {
    /// zlib's `head`: the last position with this 3-byte hash (0: none, as
    /// in zlib, so position 0 is never a match), and how many positions
    /// within reach went into the slot: at least as many as zlib's walk
    /// can meet. Together, one cache line a look-up.
    head: Box<[u16; HASH_SIZE]>,
    /// How many positions within reach went into each 16 `head` slots: at
    /// least as many as zlib's walk can meet in one (small enough to stay
    /// in the first-level cache).
    count: Box<[u16; HASH_SIZE >> COUNT_SHIFT]>,
    /// The last position with this 8-byte hash.
    head8: Box<[u16; 1 << HASH8_BITS]>,
    /// The slots written, to clear (a text touches a few thousand of them).
    touched: Vec<u32>,
    touched8: Vec<u32>,
}

/// The slots of `head` one count covers.
const COUNT_SHIFT: u32 = 4;

impl Slots {
    fn new() -> Slots {
        Slots { head: zeroed(), count: zeroed(), head8: zeroed(), touched: Vec::new(), touched8: Vec::new() }
    }

    /// Back to empty; `counted`: whether `count` was kept.
    fn clear(&mut self, counted: bool) {
        for &h in &self.touched {
            self.head[h as usize] = 0;
        }
        if counted {
            self.count.fill(0);
        }
        for &h in &self.touched8 {
            self.head8[h as usize] = 0;
        }
        self.touched.clear();
        self.touched8.clear();
    }
}

/// One gzip member being written: its input so far and deflate's state.
pub struct Deflate {
    window: Vec<u8>,
    slots: Slots,
    /// zlib's `prev`: each position's chain link, by position mod WSIZE.
    prev: Box<[u16; WSIZE]>,
    prev8: Box<[u16; WSIZE]>,
    strstart: usize,
    /// Whether the 8-byte chain is kept: decided by the first input run.
    long_chain: Option<bool>,
    /// Positions below this are out of reach, taken off `count`.
    expired: usize,
    block_start: usize,
    out: BitWriter,
    match_available: bool,
    match_length: usize,
    match_start: usize,
    prev_length: usize,
    prev_match: usize,
    /// The 3-byte hash of `strstart`, set by its insertion.
    hash_here: usize,
    /// The block's symbols: a literal (distance 0) or a match's distance
    /// and length − 3, as zlib's `sym_buf` holds them.
    symbols: Vec<(u16, u8)>,
    lit_freq: [u16; HEAP_SIZE],
    dist_freq: [u16; 2 * D_CODES + 1],
    /// The literal/length, distance and code-length trees.
    trees: Option<[Box<Tree>; 3]>,
}

impl Deflate {
    pub fn new() -> Deflate {
        Deflate {
            window: Vec::new(),
            slots: Slots::new(),
            prev: zeroed(),
            prev8: zeroed(),
            strstart: 0,
            long_chain: None,
            expired: 0,
            block_start: 0,
            out: BitWriter::new(),
            match_available: false,
            match_length: MIN_MATCH - 1,
            match_start: 0,
            prev_length: MIN_MATCH - 1,
            prev_match: 0,
            hash_here: 0,
            symbols: Vec::new(),
            lit_freq: [0; HEAP_SIZE],
            dist_freq: [0; 2 * D_CODES + 1],
            trees: Some([Tree::new(), Tree::new(), Tree::new()]),
        }
    }

    /// Ready for another text, keeping the allocations.
    pub fn reset(&mut self) {
        self.window.clear();
        self.restart();
    }

    /// The state a new input starts in, the input kept.
    fn restart(&mut self) {
        self.slots.clear(self.long_chain == Some(true));
        self.symbols.clear();
        self.strstart = 0;
        self.long_chain = None;
        self.expired = 0;
        self.block_start = 0;
        self.out = BitWriter::new();
        self.match_available = false;
        self.match_length = MIN_MATCH - 1;
        self.match_start = 0;
        self.prev_length = MIN_MATCH - 1;
        self.prev_match = 0;
        self.lit_freq = [0; HEAP_SIZE];
        self.dist_freq = [0; 2 * D_CODES + 1];
    }

    /// The input so far.
    pub fn input(&self) -> &[u8] {
        &self.window
    }

    /// Takes more input and decides every position that 262 bytes follow;
    /// false (nothing decided) once the input would pass [`MAX_INPUT`].
    pub fn feed(&mut self, input: &[u8]) -> bool {
        self.window.extend_from_slice(input);
        if self.window.len() > MAX_INPUT {
            return false;
        }
        self.run(false);
        true
    }

    /// The gzip member of all the input, `gzencode($input, 9)`; None where
    /// the input passed [`MAX_WHOLE_INPUT`].
    pub fn finish(&mut self, tail: &[u8]) -> Option<Vec<u8>> {
        if !self.feed(tail) {
            if self.window.len() > MAX_WHOLE_INPUT {
                return None;
            }
            self.restart();
        }
        self.run(true);
        Some(self.wrap())
    }

    /// The gzip member: header, the blocks, CRC-32 and length.
    fn wrap(&mut self) -> Vec<u8> {
        self.flush_block(true);
        let mut out = std::mem::replace(&mut self.out, BitWriter::new());
        let crc = unsafe { libdeflate_sys::libdeflate_crc32(0, self.window.as_ptr().cast(), self.window.len()) };
        out.bytes.extend_from_slice(&crc.to_le_bytes());
        out.bytes.extend_from_slice(&(self.window.len() as u32).to_le_bytes());
        // Exactly its length: records are kept (written.rs).
        out.bytes.shrink_to_fit();
        out.bytes
    }

    /// zlib's INSERT_STRING: `p` into both chains; the 3-byte chain's
    /// previous head.
    #[inline(always)]
    fn insert(&mut self, p: usize) -> usize {
        let w = &self.window;
        let h = hash3(w, p);
        let old = self.slots.head[h];
        if old == 0 {
            self.slots.touched.push(h as u32);
        }
        self.slots.head[h] = p as u16;
        self.prev[p % WSIZE] = old;
        if self.long_chain == Some(true) {
            self.slots.count[h >> COUNT_SHIFT] += 1;
        }
        if self.long_chain == Some(true) && p + LONG_KEY <= w.len() {
            let h8 = hash8(w, p) & ((1 << HASH8_BITS) - 1);
            let old8 = self.slots.head8[h8];
            if old8 == 0 {
                self.slots.touched8.push(h8 as u32);
            }
            self.prev8[p % WSIZE] = old8;
            self.slots.head8[h8] = p as u16;
        }
        self.hash_here = h;
        old as usize
    }

    /// Takes positions out of reach of `strstart` off their slots' counts.
    fn expire(&mut self) {
        while self.expired + MAX_DIST < self.strstart {
            let h = hash3(&self.window, self.expired);
            self.slots.count[h >> COUNT_SHIFT] -= 1;
            self.expired += 1;
        }
    }

    /// `deflate_slow` over the positions it can decide now.
    fn run(&mut self, finish: bool) {
        if self.long_chain.is_none() && !self.window.is_empty() {
            self.long_chain = Some(self.window.len() >= LONG_CHAIN_FROM);
        }
        let long_chain = self.long_chain == Some(true);
        loop {
            // All the input fits zlib's window, which never slides.
            let lookahead = self.window.len() - self.strstart;
            if lookahead < MIN_LOOKAHEAD && !finish {
                return;
            }
            if lookahead == 0 {
                break;
            }
            if long_chain {
                self.expire();
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

    /// zlib's `longest_match` from `hash_head`: the length found (at most
    /// the lookahead), `match_start` set where a longer one than
    /// `prev_length` was found.
    fn longest_match(&mut self, hash_head: usize, lookahead: usize) -> usize {
        if self.prev_length >= lookahead {
            return lookahead; // no candidate could be longer
        }
        let chain = if self.prev_length >= GOOD_LENGTH { MAX_CHAIN >> 2 } else { MAX_CHAIN };
        // Where zlib walks the whole chain it finds the longest match, the
        // nearest of the longest, and the walk may take a shorter way there.
        let whole = self.long_chain == Some(true) && self.slots.count[self.hash_here >> COUNT_SHIFT] as usize <= chain;
        self.walk_chain(hash_head, chain, lookahead, whole)
    }

    /// zlib's walk: the candidates of the 3-byte chain, nearest first, at
    /// most `chain` of them, the first strictly longer one kept. With
    /// `whole` (the chain is shorter than `chain`), once the best is
    /// [`LONG_KEY`] − 1 long the rest are taken from the 8-byte chain,
    /// which holds every candidate that could be longer.
    fn walk_chain(&mut self, hash_head: usize, mut chain: usize, lookahead: usize, whole: bool) -> usize {
        let s = self.strstart;
        let limit = self.reach();
        let max = MAX_MATCH.min(lookahead);
        let mut best = self.prev_length;
        let mut cur = hash_head;
        loop {
            if whole && best >= LONG_KEY - 1 && s + LONG_KEY <= self.window.len() {
                return self.walk_long_chain(cur, hash_head, best, max);
            }
            if self.longer_at(cur, best) {
                let len = common_prefix(&self.window, cur, s, max);
                if len > best {
                    self.match_start = cur;
                    best = len;
                    if len >= max {
                        break;
                    }
                }
            }
            cur = self.prev[cur % WSIZE] as usize;
            chain -= 1;
            if cur <= limit || chain == 0 {
                break;
            }
        }
        best
    }

    /// zlib's quick test of a candidate: the two bytes around `best` and
    /// the first two agree (the third does where the hashes do).
    #[inline(always)]
    fn longer_at(&self, cur: usize, best: usize) -> bool {
        let (w, s) = (&self.window, self.strstart);
        load16(w, cur + best - 1) == load16(w, s + best - 1) && load16(w, cur) == load16(w, s)
    }

    /// The rest of a whole walk from `from` on (nearest first): the
    /// 8-byte chain's candidates not nearer than `from`.
    fn walk_long_chain(&mut self, from: usize, hash_head: usize, mut best: usize, max: usize) -> usize {
        let s = self.strstart;
        let limit = self.reach();
        let mut cur = self.prev8[s % WSIZE] as usize;
        while cur > from {
            cur = self.prev8[cur % WSIZE] as usize;
        }
        // The chain's first candidate may be at MAX_DIST, the rest nearer.
        while cur > limit || cur == hash_head {
            if self.longer_at(cur, best) {
                let len = common_prefix(&self.window, cur, s, max);
                if len > best {
                    best = len;
                    self.match_start = cur;
                    if best >= max {
                        break;
                    }
                }
            }
            cur = self.prev8[cur % WSIZE] as usize;
        }
        best
    }

    /// zlib's `limit`: a candidate of the chain past its first must be
    /// above it (nearer than MAX_DIST; 0 is NIL).
    fn reach(&self) -> usize {
        self.strstart.saturating_sub(MAX_DIST)
    }

    /// zlib's Z_HUFFMAN_ONLY: every byte a literal. Only the tests use it,
    /// to reach the trees with frequencies no match-finding leaves.
    #[cfg(test)]
    fn huffman_only(text: &[u8]) -> Vec<u8> {
        let mut deflate = Deflate::new();
        deflate.window.extend_from_slice(text);
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
        let mut trees = self.trees.take().expect("trees kept between blocks");
        self.write_block_with(&mut trees, out, last);
        self.trees = Some(trees);
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
            let code = TABLES.length_code[lc] as usize;
            out.send(lcode[code + LITERALS + 1] as u32, llen[code + LITERALS + 1] as u32);
            if EXTRA_LBITS[code] != 0 {
                out.send((lc - TABLES.base_length[code] as usize) as u32, EXTRA_LBITS[code] as u32);
            }
            let dist = dist as usize - 1;
            let code = dist_code(dist);
            out.send(dcode[code] as u32, dlen[code] as u32);
            if EXTRA_DBITS[code] != 0 {
                out.send((dist - TABLES.base_dist[code] as usize) as u32, EXTRA_DBITS[code] as u32);
            }
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
    heap: [u16; HEAP_SIZE],
    depth: [u8; HEAP_SIZE],
}

/// An entry every caller has checked is in bounds (heap nodes are below
/// HEAP_SIZE by construction); checked in debug builds.
#[inline(always)]
fn at<T: Copy>(items: &[T], i: usize) -> T {
    debug_assert!(i < items.len());
    // SAFETY: the callers index with heap nodes, which are < HEAP_SIZE.
    unsafe { *items.get_unchecked(i) }
}

impl Tree {
    fn new() -> Box<Tree> {
        Box::new(Tree { elems: 0, freq: [0; HEAP_SIZE], dad: [0; HEAP_SIZE], len: [0; HEAP_SIZE], code: [0; HEAP_SIZE], max_code: 0, heap: [0; HEAP_SIZE], depth: [0; HEAP_SIZE] })
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
        for n in 0..self.elems {
            if self.freq[n] != 0 {
                heap_len += 1;
                self.heap[heap_len] = n as u16;
                self.depth[n] = 0;
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
            self.heap[heap_len] = node as u16;
            self.freq[node] = 1;
            self.depth[node] = 0;
            lengths.opt = lengths.opt.wrapping_sub(1);
            if let Some(fixed) = fixed {
                lengths.fixed = lengths.fixed.wrapping_sub(fixed[node] as u64);
            }
        }
        let max_code = max_code as usize;
        self.max_code = max_code;
        for n in (1..=heap_len / 2).rev() {
            self.down_heap(heap_len, n);
        }
        let mut node = self.elems;
        loop {
            let n = self.heap[1] as usize;
            self.heap[1] = self.heap[heap_len];
            heap_len -= 1;
            self.down_heap(heap_len, 1);
            let m = self.heap[1] as usize;
            heap_max -= 1;
            self.heap[heap_max] = n as u16;
            heap_max -= 1;
            self.heap[heap_max] = m as u16;
            self.freq[node] = self.freq[n] + self.freq[m];
            self.depth[node] = self.depth[n].max(self.depth[m]) + 1;
            self.dad[n] = node as u16;
            self.dad[m] = node as u16;
            self.heap[1] = node as u16;
            node += 1;
            self.down_heap(heap_len, 1);
            if heap_len < 2 {
                break;
            }
        }
        heap_max -= 1;
        self.heap[heap_max] = self.heap[1];
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

    /// zlib's `smaller`: by frequency, then by depth.
    #[inline(always)]
    fn smaller(&self, n: usize, m: usize) -> bool {
        let (fn_, fm) = (at(&self.freq, n), at(&self.freq, m));
        fn_ < fm || (fn_ == fm && at(&self.depth, n) <= at(&self.depth, m))
    }

    fn down_heap(&mut self, heap_len: usize, mut k: usize) {
        let v = self.heap[k] as usize;
        let mut j = k << 1;
        while j <= heap_len {
            if j < heap_len && self.smaller(at(&self.heap, j + 1) as usize, at(&self.heap, j) as usize) {
                j += 1;
            }
            let next = at(&self.heap, j);
            if self.smaller(v, next as usize) {
                break;
            }
            self.heap[k] = next;
            k = j;
            j <<= 1;
        }
        self.heap[k] = v as u16;
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

    fn send(&mut self, value: u32, len: u32) {
        self.bits |= (value as u64) << self.count;
        self.count += len;
        while self.count >= 8 {
            self.bytes.push(self.bits as u8);
            self.bits >>= 8;
            self.count -= 8;
        }
    }

    fn align(&mut self) {
        if self.count > 0 {
            self.bytes.push(self.bits as u8);
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

/// Texts that take every path of this deflate: no input, a byte, stored,
/// fixed and dynamic blocks, code lengths past 15 bits that zlib repairs,
/// runs whose chains zlib cuts short, matches at the input's end, a
/// serialized summary's shape, and the longest input.
pub fn probes() -> Vec<Vec<u8>> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut random = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
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
    let words: Vec<u8> = (0..MAX_INPUT).map(|i| b"the quick brown fox jumps over a lazy dog "[(random() as usize ^ i) % 42]).collect();
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
        let native = gzencode9(text).expect("within MAX_INPUT");
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

    /// Texts of every length to MAX_INPUT over small alphabets, where
    /// matches, ties and long chains abound, and over all bytes.
    #[test]
    fn random_texts_are_zlibs_bytes() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..400 {
            let len = match round % 4 {
                0 => (random() % 64) as usize,
                1 => (random() % 2000) as usize,
                2 => (random() % 12_000) as usize,
                _ if round % 40 == 3 => MAX_WHOLE_INPUT - (random() % 30_000) as usize,
                _ => MAX_INPUT - 300 + (random() % 600) as usize,
            };
            let alphabet = [2, 3, 4, 16, 256][(round + round / 40) % 5] as u64;
            let pieces: Vec<Vec<u8>> = (0..8).map(|_| (0..(random() % 40) as usize).map(|_| (random() % alphabet) as u8).collect()).collect();
            let mut text = Vec::with_capacity(len);
            while text.len() < len {
                if random() % 3 == 0 {
                    text.push((random() % alphabet) as u8);
                } else {
                    text.extend_from_slice(&pieces[(random() % 8) as usize]);
                }
            }
            text.truncate(len);
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
        let mut x = 0x1234_5678_9abc_def1u64;
        let mut random = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
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

    #[test]
    fn a_long_input_in_pieces_is_written_again_whole() {
        let text: Vec<u8> = probes().concat()[..MAX_WHOLE_INPUT].to_vec();
        let whole = gzencode9(&text).unwrap();
        assert!(whole == zlib_gzencode9(&text));
        let mut deflate = Deflate::new();
        assert!(deflate.feed(&text[..20_000]));
        assert!(!deflate.feed(&text[20_000..MAX_INPUT + 5]));
        assert_eq!(deflate.finish(&text[MAX_INPUT + 5..]).unwrap(), whole);
    }
}
