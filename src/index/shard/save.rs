//! What `IndexShard::save()` computes, without PHP: the merge of the words
//! added since the last save into the shard's posting string
//! (`mergeWordPostingsToString`), the prefix index
//! (`prepareWordsAndPrefixes`), the dictionary (`packWords`) and the posting
//! lists (`outputPostingLists`).
//!
//! The posting string (`word_postings`) is a run of records: a 20-byte word
//! id, the postings' length (4 bytes, big-endian) and the postings.

use super::build::{pack_int, BLANK, DOC_KEY_LEN, WORD_ID_LEN};
use crate::index::prefetch::prefetch;

/// `IndexShard::POSTING_LEN`: the length field of a record.
const LEN_LEN: usize = 4;
/// A record's id and length field.
const RECORD_HEAD: usize = WORD_ID_LEN + LEN_LEN;
/// `WORD_KEY_LEN + WORD_DATA_LEN`: a dictionary entry.
pub const DICTIONARY_ENTRY: usize = 32;
/// `2 << 16` entries in the prefix index, as Yioop writes it (prefixes of
/// two bytes only ever fill the first half).
const PREFIX_ENTRIES: usize = 2 << 16;
/// `IndexShard::HALF_BLANK`: postings starting with it, 16 bytes long, are
/// kept in the dictionary entry itself.
const HALF_BLANK: [u8; LEN_LEN] = [0xff; LEN_LEN];

/// One record of a posting string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record<'a> {
    pub id: &'a [u8],
    pub postings: &'a [u8],
}

impl Record<'_> {
    /// Postings Yioop keeps in the dictionary entry rather than in
    /// word_docs: two doc keys' worth, the first four bytes all ones.
    fn is_inline(self) -> bool {
        self.postings.len() == 2 * DOC_KEY_LEN && self.postings[..LEN_LEN] == HALF_BLANK
    }
}

/// The records of a posting string, or None where the last one is cut
/// short (a damaged string, which the binding leaves to Yioop's PHP).
pub fn records(postings: &[u8]) -> Option<Vec<Record<'_>>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < postings.len() {
        let head = postings.get(pos..pos + RECORD_HEAD)?;
        let len = u32::from_be_bytes(head[WORD_ID_LEN..].try_into().expect("4 bytes")) as usize;
        let body = postings.get(pos + RECORD_HEAD..pos + RECORD_HEAD + len)?;
        out.push(Record { id: &head[..WORD_ID_LEN], postings: body });
        pos += RECORD_HEAD + len;
    }
    Some(out)
}

/// A part of a string being assembled: bytes of the input, or a record's
/// length field.
#[derive(Debug, Clone, Copy)]
pub enum Piece<'a> {
    Bytes(&'a [u8]),
    Len(u32),
}

impl Piece<'_> {
    fn len(self) -> usize {
        match self {
            Piece::Bytes(b) => b.len(),
            Piece::Len(_) => LEN_LEN,
        }
    }
}

/// A string as the pieces it is made of, most of them slices of the
/// input: its bytes are copied once, by `write_to` into a buffer of `len`
/// bytes (a PHP string, made to measure) or by `for_each_chunk`.
pub struct Pieces<'a> {
    pub pieces: Vec<Piece<'a>>,
    pub len: usize,
}

impl<'a> Pieces<'a> {
    fn new(pieces: Vec<Piece<'a>>) -> Pieces<'a> {
        let len = pieces.iter().map(|p| p.len()).sum();
        Pieces { pieces, len }
    }

    /// Writes the string into `out`, which is `self.len` bytes.
    pub fn write_to(&self, out: &mut [std::mem::MaybeUninit<u8>]) {
        assert_eq!(out.len(), self.len);
        let mut at = 0;
        for (i, piece) in self.pieces.iter().enumerate() {
            // The postings are scattered over the heap: fetch a few ahead.
            if let Some(Piece::Bytes(ahead)) = self.pieces.get(i + 8) {
                prefetch(ahead.as_ptr());
            }
            let len_bytes;
            let bytes = match *piece {
                Piece::Bytes(b) => b,
                Piece::Len(n) => {
                    len_bytes = n.to_be_bytes();
                    &len_bytes[..]
                }
            };
            // SAFETY: at + bytes.len() <= self.len, the sum of the pieces.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr().add(at).cast::<u8>(), bytes.len()) };
            at += bytes.len();
        }
    }

    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len);
        self.write_to(&mut out.spare_capacity_mut()[..self.len]);
        // SAFETY: write_to wrote all self.len bytes.
        unsafe { out.set_len(self.len) };
        out
    }

    /// Hands the string to `write` in runs of at least `size` bytes (the
    /// last may be shorter), stopping at the first error.
    pub fn for_each_chunk<E>(&self, size: usize, mut write: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), E> {
        let mut chunk = Vec::with_capacity(size);
        for piece in &self.pieces {
            match *piece {
                Piece::Bytes(b) => chunk.extend_from_slice(b),
                Piece::Len(n) => chunk.extend_from_slice(&n.to_be_bytes()),
            }
            if chunk.len() >= size {
                write(&chunk)?;
                chunk.clear();
            }
        }
        if chunk.is_empty() {
            return Ok(());
        }
        write(&chunk)
    }
}

/// `mergeWordPostingsToString()` (not `$replace`): the new words, in
/// `ksort(SORT_STRING)` order, merged into the old records. A word already
/// there gets its new postings appended to the old ones. Yioop's quirk is
/// kept: a word equal to the old string's *last* record is written twice,
/// merged and then again alone, because its loop takes the old string's end
/// as the cue to append the current word. Also says whether old records
/// came after the last new word (Yioop logs its final copy of them).
pub fn merge<'a>(old: &[Record<'a>], mut new: Vec<(&'a [u8], &'a [u8])>) -> (Pieces<'a>, bool) {
    sort_by_id(&mut new);
    let mut pieces = Vec::with_capacity(3 * (old.len() + new.len()) + 8);
    let mut record = |id: &'a [u8], len: u32, postings: &[&'a [u8]]| {
        pieces.push(Piece::Bytes(id));
        pieces.push(Piece::Len(len));
        pieces.extend(postings.iter().map(|&p| Piece::Bytes(p)));
    };
    let mut next = 0; // the first old record not yet written
    for &(id, postings) in &new {
        let mut order = std::cmp::Ordering::Less;
        while order.is_lt() && next < old.len() {
            let r = old[next];
            order = r.id.cmp(id);
            match order {
                std::cmp::Ordering::Equal => {
                    let len = (r.postings.len() as u32).wrapping_add(postings.len() as u32);
                    record(id, len, &[r.postings, postings]);
                    next += 1;
                }
                std::cmp::Ordering::Less => {
                    record(r.id, r.postings.len() as u32, &[r.postings]);
                    next += 1;
                }
                std::cmp::Ordering::Greater => record(id, postings.len() as u32, &[postings]),
            }
        }
        if next == old.len() {
            record(id, postings.len() as u32, &[postings]);
        }
    }
    let kept_tail = !new.is_empty() && next < old.len();
    for r in &old[next..] {
        record(r.id, r.postings.len() as u32, &[r.postings]);
    }
    (Pieces::new(pieces), kept_tail)
}

/// Sorts words by id as `ksort(SORT_STRING)` does (ids are unique keys).
/// By their first 8 bytes first: the ids' own bytes are scattered over the
/// heap, and those 8 (an MD5 prefix) nearly always decide.
fn sort_by_id(words: &mut [(&[u8], &[u8])]) {
    let lead = |id: &[u8]| {
        let mut head = [0u8; 8];
        let n = id.len().min(8);
        head[..n].copy_from_slice(&id[..n]);
        u64::from_be_bytes(head)
    };
    let mut keyed: Vec<(u64, usize)> = words.iter().enumerate().map(|(i, w)| (lead(w.0), i)).collect();
    keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| words[a.1].0.cmp(words[b.1].0)));
    let sorted: Vec<_> = keyed.iter().map(|&(_, i)| words[i]).collect();
    words.copy_from_slice(&sorted);
}

/// `prepareWordsAndPrefixes()`: the prefix index, 8 bytes for each two-byte
/// prefix (the dictionary offset of its first word and its word count, or
/// `BLANK`), and `words_len`. Quirks kept: a prefix that comes back after
/// another keeps only its last run, and an empty string marks prefix 0 as
/// (0, 0).
pub fn prefixes(records: &[Record]) -> (Vec<u8>, usize) {
    let mut table: Vec<Option<[u8; 8]>> = vec![None; PREFIX_ENTRIES];
    let mut set = |prefix: usize, offset: usize, count: usize| {
        let mut entry = [0u8; 8];
        entry[..4].copy_from_slice(&pack_int(offset as i64));
        entry[4..].copy_from_slice(&pack_int(count as i64));
        table[prefix] = Some(entry);
    };
    let (mut run, mut offset) = ((0usize, 0usize), 0usize); // (prefix, words), dictionary offset
    for (i, record) in records.iter().enumerate() {
        let prefix = usize::from(record.id[0]) << 8 | usize::from(record.id[1]);
        if i > 0 && prefix == run.0 {
            run.1 += 1;
        } else {
            if i > 0 {
                set(run.0, offset, run.1);
                offset += run.1 * DICTIONARY_ENTRY;
            }
            run = (prefix, 1);
        }
    }
    set(run.0, offset, if records.is_empty() { 0 } else { run.1 });
    let index = table.iter().flat_map(|entry| entry.unwrap_or(BLANK)).collect();
    (index, records.len() * DICTIONARY_ENTRY)
}

/// `packWords()`: the dictionary (each word's id, then generation, offset
/// into word_docs and length, with the document count folded into the
/// length where it fits; or the inline postings) and `word_docs_len`.
/// `num_docs[i]` is `num_docs_word` of record i.
pub fn dictionary(records: &[Record], generation: i64, num_docs: &[i64]) -> (Vec<u8>, i64) {
    let mut out = Vec::with_capacity(records.len() * DICTIONARY_ENTRY);
    let mut word_docs_len = 0i64;
    for (record, &num_docs) in records.iter().zip(num_docs) {
        out.extend_from_slice(record.id);
        if record.is_inline() {
            let mut entry = [0u8; 12];
            entry.copy_from_slice(&record.postings[LEN_LEN..]);
            entry[0] |= 0x80;
            out.extend_from_slice(&entry);
            continue;
        }
        let len = record.postings.len() as i64;
        let folded = if len < 32767 && num_docs <= len { len + (num_docs << 16) + (1 << 31) } else { len };
        for field in [generation, word_docs_len, folded] {
            out.extend_from_slice(&pack_int(field));
        }
        word_docs_len += len;
    }
    (out, word_docs_len)
}

/// `outputPostingLists()`: word_docs, the posting lists in order (inline
/// ones are in the dictionary instead).
pub fn posting_lists<'a>(records: &[Record<'a>]) -> Pieces<'a> {
    Pieces::new(records.iter().filter(|r| !r.is_inline()).map(|r| Piece::Bytes(r.postings)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(tag: u8) -> [u8; WORD_ID_LEN] {
        [tag; WORD_ID_LEN]
    }

    fn write_record(out: &mut Vec<u8>, id: &[u8], len: u32, parts: &[&[u8]]) {
        out.extend_from_slice(id);
        out.extend_from_slice(&len.to_be_bytes());
        for part in parts {
            out.extend_from_slice(part);
        }
    }

    fn string(records: &[([u8; WORD_ID_LEN], &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        for (id, postings) in records {
            write_record(&mut out, id, postings.len() as u32, &[postings]);
        }
        out
    }

    #[test]
    fn merge_interleaves_and_appends_to_existing_words() {
        let old = string(&[(id(2), b"bb"), (id(4), b"dd"), (id(6), b"ff")]);
        let (a, c, d) = (id(1), id(3), id(4));
        let new: [(&[u8], &[u8]); 3] = [(&d, b"D"), (&a, b"A"), (&c, b"C")];
        let (merged, kept_tail) = merge(&records(&old).unwrap(), new.to_vec());
        assert!(kept_tail);
        let merged = merged.to_vec();
        let want = string(&[(id(1), b"A"), (id(2), b"bb"), (id(3), b"C"), (id(4), b"ddD"), (id(6), b"ff")]);
        assert_eq!(merged, want);
    }

    #[test]
    fn merge_writes_a_word_equal_to_the_last_old_record_twice() {
        let old = string(&[(id(2), b"bb")]);
        let b = id(2);
        let (merged, kept_tail) = merge(&records(&old).unwrap(), vec![(&b[..], &b"B"[..])]);
        assert!(!kept_tail);
        let merged = merged.to_vec();
        assert_eq!(merged, string(&[(id(2), b"bbB"), (id(2), b"B")]));
    }

    #[test]
    fn merge_sorts_ids_as_strings_whatever_their_length() {
        let (long, short, shorter) = (b"abcdefghij".as_slice(), b"abcdefgh".as_slice(), b"abc".as_slice());
        let merged = merge(&[], vec![(long, b"1"), (shorter, b"2"), (short, b"3")]).0.to_vec();
        let ids: Vec<&[u8]> = vec![shorter, short, long];
        let mut want = Vec::new();
        for (id, p) in ids.iter().zip([b"2", b"3", b"1"]) {
            write_record(&mut want, id, 1, &[p]);
        }
        assert_eq!(merged, want);
    }

    #[test]
    fn chunks_make_up_the_string_and_are_at_least_the_size_asked() {
        let old = string(&[(id(1), b"abcdefg"), (id(2), b"hi"), (id(3), b"jklmnopqrstu")]);
        let (whole, _) = merge(&records(&old).unwrap(), Vec::new());
        let mut chunks: Vec<Vec<u8>> = Vec::new();
        whole.for_each_chunk(30, |c| Ok::<(), ()>(chunks.push(c.to_vec()))).unwrap();
        assert_eq!(chunks.concat(), whole.to_vec());
        assert!(chunks.len() > 1 && chunks[..chunks.len() - 1].iter().all(|c| c.len() >= 30));
        assert_eq!(whole.for_each_chunk(30, |_| Err("stop")), Err("stop"));
    }

    #[test]
    fn records_refuse_a_cut_string() {
        let whole = string(&[(id(1), b"abc")]);
        assert!(records(&whole).is_some());
        assert!(records(&whole[..whole.len() - 1]).is_none());
    }

    #[test]
    fn prefix_index_of_nothing_marks_prefix_zero() {
        let (index, words_len) = prefixes(&[]);
        assert_eq!(words_len, 0);
        assert_eq!(index.len(), PREFIX_ENTRIES * 8);
        assert_eq!(&index[..8], &[0; 8]);
        assert!(index[8..].iter().all(|&b| b == 0xff));
    }

    #[test]
    fn dictionary_folds_counts_and_inlines_half_blank_postings() {
        let inline = [0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
        let (a, b) = (id(1), id(2));
        let old = string(&[(a, b"12345678"), (b, &inline)]);
        let (dict, word_docs_len) = dictionary(&records(&old).unwrap(), 3, &[2, 2]);
        assert_eq!(word_docs_len, 8);
        assert_eq!(&dict[20..32], &[0, 0, 0, 3, 0, 0, 0, 0, 0x80, 2, 0, 8]);
        assert_eq!(&dict[52..64], &[0x81, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    }
}
