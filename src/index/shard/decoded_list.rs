//! Whole posting lists decoded on the OpenCL device. Yioop's iterators ask
//! for slices of at most a few hundred documents, each decoded posting by
//! posting on the CPU; a list long enough that the dispatch sends it to the
//! device (`yioop.opencl`, `yioop.opencl_min_length`, counted in words) is
//! instead decoded whole, in one device call, on its first slice, and kept
//! for the slices after it.
//!
//! Only the decoding moves: the slices still frame each posting as before
//! and take its elements from here only where this list framed a posting
//! with the same first and last word, so results are those of the scalar
//! path (the device decode is the scalar decode, tests/codec/opencl.rs).

use super::shared::Version;
use super::word_docs::WordDocs;
use crate::codec::backend::Dispatch;
use crate::codec::modified9::word_elements;
use crate::php_semantics::num::Num;
use crate::codec::posting_list::for_each_posting;
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

/// One list's postings: first word, last word and elements, in order.
pub struct DecodedList {
    postings: Vec<(i64, i64, Range<usize>)>,
    elements: Vec<u32>,
}

impl DecodedList {
    /// The list from word `first` to word `last` of word_docs, decoded on
    /// the device; None where the dispatch keeps it off the device, the
    /// device is not there or failed, the range is not inside the file, or
    /// the file has changed since the shard object opened it. The bytes
    /// come from the blocks shared by the file's version, so the object's
    /// own cache holds only what its reads would have put there.
    pub fn decode_on_device(word_docs: &WordDocs, first: i64, last: i64, dispatch: &Dispatch) -> Option<DecodedList> {
        let words = device_length(first, last, dispatch)?;
        let bytes = word_docs.file.shared_substring(word_docs.base.checked_add(first * 4)?, words * 4)?;
        let mut elements = Vec::new();
        if !dispatch.decode_words_on_device(&bytes, &mut elements) {
            return None;
        }
        let postings = frame(&bytes, first)?;
        (postings.last().map_or(0, |p| p.2.end) == elements.len()).then_some(DecodedList { postings, elements })
    }

    /// The elements of the posting from word `start` to word `end`, if this
    /// list framed exactly that posting.
    pub fn elements(&self, start: i64, end: i64) -> Option<&[u32]> {
        let i = self.postings.binary_search_by_key(&start, |p| p.0).ok()?;
        let (_, last, range) = &self.postings[i];
        (*last == end).then(|| &self.elements[range.clone()])
    }

    fn len(&self) -> usize {
        self.elements.len() + 4 * self.postings.len()
    }
}

/// The list's length in words, where it is one the dispatch sends to the
/// device.
fn device_length(first: i64, last: i64, dispatch: &Dispatch) -> Option<i64> {
    let words = last.checked_sub(first)?.checked_add(1)?;
    (first >= 0 && words > 0 && dispatch.decodes_on_device(words as usize)).then_some(words)
}

/// Each posting of `bytes` (whose first word is word `first`) as framed
/// by `nextPostString`, with the range of its elements in the decoded list.
fn frame(bytes: &[u8], first: i64) -> Option<Vec<(i64, i64, Range<usize>)>> {
    let mut postings = Vec::new();
    let mut at = 0;
    for_each_posting(bytes, Num::Int(0), None, |words| {
        let start = first + (words.as_ptr() as usize - bytes.as_ptr() as usize) as i64 / 4;
        let count: usize = words.chunks_exact(4).map(|w| word_elements(u32::from_be_bytes([w[0], w[1], w[2], w[3]])).len()).sum();
        postings.push((start, start + words.len() as i64 / 4 - 1, at..at + count));
        at += count;
    })
    .ok()?;
    Some(postings)
}

/// What identifies a list: the file's version, where word_docs starts in
/// it, the list's first and last word.
type Key = (Version, i64, i64, i64);

/// Elements (and a few per posting) all cached lists may hold together;
/// the least recently used go first.
const CACHE_ELEMENTS: usize = 16 << 20;

thread_local! {
    static CACHE: RefCell<Vec<(Key, Rc<DecodedList>)>> = const { RefCell::new(Vec::new()) };
}

/// The list from word `first` to word `last`, decoded on the device, from
/// this process's cache or now; None as for [`DecodedList::decode_on_device`].
pub fn cached(word_docs: &WordDocs, first: i64, last: i64, dispatch: &Dispatch) -> Option<Rc<DecodedList>> {
    // The settings first: they may change between requests (php-fpm), and
    // for most lists (all, by default) they say no.
    device_length(first, last, dispatch)?;
    let key = (word_docs.file.unchanged_version()?, word_docs.base, first, last);
    let hit = CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        let i = cache.iter().position(|(k, _)| *k == key)?;
        let entry = cache.remove(i);
        let list = entry.1.clone();
        cache.push(entry); // most recently used last
        Some(list)
    });
    if hit.is_some() {
        return hit;
    }
    let list = Rc::new(DecodedList::decode_on_device(word_docs, first, last, dispatch)?);
    CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        cache.push((key, list.clone()));
        while cache.iter().map(|(_, l)| l.len()).sum::<usize>() > CACHE_ELEMENTS && cache.len() > 1 {
            cache.remove(0);
        }
    });
    Some(list)
}
