//! `IndexShard::postingsSliceAscending` and `postingsSliceDescending`: up
//! to `len` documents' worth of a word's postings from `next_offset`, each
//! made into an item (`item::make_item`), and where the next slice starts.
//! Offsets are byte offsets into word_docs, as Yioop passes them.

use super::item::{self, Config, DocInfos, Item, NumberText, Stats};
use super::decoded_list::DecodedList;
use super::word_docs::WordDocs;
use super::{Result, ShardError};

/// A shard read from disk, as the slices read it.
pub struct SliceShard<'a> {
    pub word_docs: WordDocs<'a>,
    pub doc_infos: DocInfos<'a>,
    pub stats: Stats,
    pub config: Config,
    /// Yioop's `$wd_len`: `file_len - docids_len` once the file is open,
    /// else `word_docs_len`; None where that is null.
    pub wd_len: Option<i64>,
    /// The word's whole list, where the dispatch decoded it on the device
    /// (`decoded_list`); each posting is decoded on its own otherwise.
    pub decoded: Option<std::rc::Rc<DecodedList>>,
}

/// A slice call's int arguments (`$next_offset` as passed in).
#[derive(Debug, Clone, Copy)]
pub struct SliceArgs {
    pub start_offset: i64,
    pub next_offset: i64,
    pub last_offset: i64,
    pub len: i64,
}

/// Steps past the file's word count: only postings read from outside the
/// file (all alike) remain, and Yioop's loop runs on for as long as
/// `len` allows; past this bound it would not return in practice.
const MAX_EXTRA_STEPS: i64 = 1 << 16;

/// The slice in `ascending` (stored) or descending order: calls `each`
/// with every (doc id, item) in order and returns the new `$next_offset`.
pub fn postings_slice<N: NumberText>(
    shard: &SliceShard,
    args: SliceArgs,
    ascending: bool,
    numbers: &mut N,
    mut each: impl FnMut(Vec<u8>, Item<N::Text>),
) -> Result<i64> {
    let max_steps = (shard.word_docs.file.len() >> 2) + MAX_EXTRA_STEPS;
    let mut next = args.next_offset >> 2;
    // Ascending stops at the word's (or word_docs') end; descending at its
    // start, which Yioop passes as start_offset.
    let (end, last) = if ascending {
        let end = shard.wd_len.map_or(0, |w| w.min(args.last_offset) >> 2); // min(null, x) is null: 0
        (end, args.last_offset >> 2)
    } else {
        (args.start_offset >> 2, args.start_offset >> 2)
    };
    let (mut total_posting_len, mut postings, mut num_docs_so_far) = (0i64, 0i64, 0i64);
    loop {
        if (ascending && next > end) || (!ascending && next < end) {
            break;
        }
        if postings == max_steps {
            return Err(ShardError::NoConvergence);
        }
        let posting = shard.word_docs.posting_at(next)?;
        total_posting_len += posting.bytes.len() as i64;
        postings += 1;
        next = if ascending { posting.end.wrapping_add(1) } else { posting.start.wrapping_sub(1) };
        let num_docs_or_links = item::num_docs_or_links(args.start_offset, args.last_offset, total_posting_len, postings)?;
        let context = (&shard.stats, &shard.config, &shard.doc_infos);
        let decoded = shard.decoded.as_deref().and_then(|list| list.elements(posting.start, posting.end));
        let (doc_id, item) = item::make_item(&posting.bytes, decoded, num_docs_or_links, ascending, context, numbers)?;
        each(doc_id, item);
        let span = if ascending { next - posting.start } else { posting.end - next };
        num_docs_so_far = num_docs_so_far.wrapping_add(span);
        let more = if ascending { next <= last } else { next >= last };
        if !more || num_docs_so_far >= args.len {
            break;
        }
    }
    Ok(next.wrapping_shl(2))
}
