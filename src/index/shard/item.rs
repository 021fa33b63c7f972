//! `IndexShard::makeItem`: a posting's document statistics (rank, summary
//! offset, BM25F relevance, score) read from the shard's doc infos, with
//! every value of the type and bits Yioop's PHP gives it. PHP's own
//! `number_format` and numeric-string reading come in through
//! [`NumberText`], so the strings are PHP's exactly.
//!
//! Yioop quirks kept: `2<<16 - 1` is 2<<15 (65536) and `2 << 19 - 1` is
//! 2<<18, by PHP's precedence; a stored weight of 0 unpacks as the int 0;
//! SCORE of a summary still needing its offset is DOC_RANK itself, unchecked.

use super::{Result, ShardError, ShardFile};
use crate::codec::modified9;
use crate::php_semantics::num::{self, Num};
use crate::codec::posting::{self, Format};

/// Yioop's configuration constants makeItem reads (`seekquarry\yioop\configs`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    pub precision: i64,
    pub avg_links_per_page: i64,
    pub max_generations: i64,
    pub ad_hoc_title_length: i64,
    pub title_weight: f64,
    pub description_weight: f64,
    pub link_weight: f64,
}

/// The shard's header fields makeItem reads (PHP's null read as 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    pub generation: i64,
    pub num_docs_per_generation: i64,
    pub num_docs: i64,
    pub num_link_docs: i64,
    pub len_all_docs: i64,
    pub len_all_link_docs: i64,
}

/// PHP's `number_format($d, $decimals)` and its reading of a numeric
/// string, supplied by the caller (the binding calls PHP's own).
pub trait NumberText {
    type Text;
    fn number_format(&mut self, d: f64, decimals: i64) -> Self::Text;
    /// The number a string is where `is_numeric` holds, else None.
    fn numeric(&self, text: &Self::Text) -> Option<Num>;
}

/// DOC_RANK: number_format's string, or a number where Yioop replaced it.
#[derive(Debug, Clone, PartialEq)]
pub enum Rank<T> {
    Text(T),
    Num(Num),
}

/// makeItem's item array, field by field in Yioop's key order.
#[derive(Debug, Clone, PartialEq)]
pub struct Item<T> {
    pub positions: Vec<i64>,
    pub doc_rank: Rank<T>,
    /// None is PHP's false (a doc info too short to hold one).
    pub summary_offset: Option<i64>,
    pub doc_len: i64,
    pub is_doc: bool,
    pub proximity: f64,
    /// position => weight, keys in PHP's array order.
    pub description_scores: Vec<(i64, Num)>,
    /// Present only for documents with auxiliary keys.
    pub user_ranks: Option<Vec<Num>>,
    pub relevance: Num,
    /// None: SCORE is DOC_RANK's own value (a summary needing its offset).
    pub score: Option<Num>,
}

/// `IndexShard::LINK_FLAG`, `DOC_KEY_LEN`, `DOC_ID_LEN`,
/// `CrawlConstants::NEEDS_OFFSET_FLAG`.
pub const LINK_FLAG: i64 = 0x80_0000;
pub const DOC_KEY_LEN: i64 = 8;
pub const DOC_ID_LEN: i64 = 24;
pub const NEEDS_OFFSET_FLAG: i64 = 0x7FFF_FFFF;
/// `2<<16 - 1` in Yioop: 65536, the divisor of a packed weight.
pub const MAX_SHORT: f64 = 65536.0;

/// The doc_infos section of a shard on disk (`$this->doc_info_offset`).
pub struct DocInfos<'a> {
    pub file: &'a ShardFile<'a>,
    pub base: i64,
}

impl DocInfos<'_> {
    /// `getDocInfoSubstring($offset, $len)`, uncached as Yioop's default.
    pub fn substring(&self, offset: i64, len: i64) -> Result<Vec<u8>> {
        self.file.substring(self.base.checked_add(offset).ok_or(ShardError::IntOverflow)?, len, false)
    }
}

/// `makeItem($posting, $num_doc_or_links, $direction)`: the doc id and item.
pub fn make_item<N: NumberText>(
    posting: &[u8],
    decoded: Option<&[u32]>,
    num_doc_or_links: f64,
    ascending: bool,
    shard: (&Stats, &Config, &DocInfos),
    numbers: &mut N,
) -> Result<(Vec<u8>, Item<N::Text>)> {
    let (stats, config, docs) = shard;
    // The 2021 line's posting format: the only IndexShard switched natively.
    let (doc_index, positions) = match decoded {
        Some(elements) => {
            let (d, p) = posting::split_posting(Format::Y2019, elements, true);
            (d.unwrap_or(0), p.collect::<Vec<i64>>())
        }
        None => {
            let post = modified9::next_post_string(posting, 0);
            posting::with_posting(Format::Y2019, &posting[post.bytes], true, |d, p| (d.unwrap_or(0), p.collect()))
        }
    };
    let depth = doc_depth(doc_index, ascending, stats, config).log10();
    let mut doc_rank = Rank::Text(numbers.number_format(10.0 - depth, config.precision));
    let doc_loc = num::shl(doc_index, 4);
    let head = docs.substring(doc_loc, DOC_KEY_LEN)?;
    let mut words = super::unpack_words(&head);
    let (summary_offset, doc_int) = match (words.next(), words.next()) {
        (Some(summary), Some(doc_int)) => (Some(summary), doc_int),
        _ => (None, 0), // false, and false's bits
    };
    let mut num_keys = doc_int & 255;
    if num_keys > 120 {
        num_keys = 3; // Yioop's guard against corrupted key counts
    }
    let mut doc_len = doc_int >> 8;
    let is_doc = doc_len & LINK_FLAG == 0;
    let title_length = if is_doc { config.ad_hoc_title_length } else { 0 };
    if !is_doc {
        doc_len &= LINK_FLAG - 1;
    }
    let proximity = proximity(&positions, is_doc, config);
    let id_pos = doc_loc.wrapping_add(DOC_KEY_LEN);
    let mut doc_id = docs.substring(id_pos, DOC_ID_LEN)?;
    let (mut description_scores, mut user_ranks) = (Vec::new(), None);
    if num_keys > 3 && is_doc {
        let aux = docs.substring(id_pos + DOC_ID_LEN, (num_keys - 3) * DOC_KEY_LEN)?;
        let (scores, ranks) = unpack_auxiliary_keys(&aux)?;
        description_scores = scores;
        user_ranks = Some(ranks);
    } else if num_keys == 3 {
        trim_padding(&mut doc_id, 0);
    } else if num_keys == 2 && trim_padding(&mut doc_id, 0xFF) {
        trim_padding(&mut doc_id, 0);
    }
    let occurrences = weighted_count(&positions, is_doc, title_length, &description_scores, config.title_weight);
    // Archive crawls keep a rank in the 4 bits after the high one.
    let pre_rank = doc_len & (0x0f << 19);
    let mut stats_len = doc_len;
    if pre_rank > 0 {
        doc_rank = Rank::Num(Num::Int(pre_rank >> 19));
        stats_len &= 2 << 18;
    }
    let (relevance, score) = if summary_offset == Some(NEEDS_OFFSET_FLAG) {
        (Num::Int(1), None)
    } else {
        let occurrences = (occurrences, title_length, stats_len, num_doc_or_links);
        let relevance = relevance(occurrences, is_doc, stats, config, numbers)?;
        let aux_scores = user_ranks.iter().flatten().fold(Num::Int(1), |product, &r| num::mul(product, r));
        let rank = match &doc_rank {
            Rank::Text(text) => numbers.numeric(text),
            Rank::Num(n) => Some(*n),
        };
        let rank = rank.unwrap_or_else(|| {
            doc_rank = Rank::Num(Num::Float(0.001));
            Num::Float(0.001)
        });
        (relevance, Some(num::mul(num::mul(rank, relevance), aux_scores)))
    };
    let item = Item {
        positions,
        doc_rank,
        summary_offset,
        doc_len,
        is_doc,
        proximity,
        description_scores,
        user_ranks,
        relevance,
        score,
    };
    Ok((doc_id, item))
}

/// The argument of makeItem's `log(..., 10)`: how deep the document lies
/// in the index, counted from the front or (descending) from the back.
fn doc_depth(doc_index: i64, ascending: bool, stats: &Stats, config: &Config) -> f64 {
    use num::{add, mul, sub};
    let int = Num::Int;
    let per_generation = mul(
        mul(add(int(config.avg_links_per_page), int(1)), int(stats.num_docs_per_generation)),
        int(stats.generation),
    );
    let depth = if ascending {
        add(add(int(doc_index), int(1)), per_generation)
    } else {
        let from_end = add(sub(int(stats.num_docs_per_generation), int(doc_index)), int(1));
        add(from_end, sub(int(config.max_generations), per_generation))
    };
    depth.as_f64()
}

/// `computeProximity`.
fn proximity(positions: &[i64], is_doc: bool, config: &Config) -> f64 {
    match positions.first() {
        _ if !is_doc => config.link_weight,
        Some(&first) if first < config.ad_hoc_title_length => config.title_weight,
        _ => config.description_weight,
    }
}

/// makeItem's `rtrim` of short ids: drops trailing `pad` bytes only when
/// exactly one key's worth of them goes; whether it did.
fn trim_padding(doc_id: &mut Vec<u8>, pad: u8) -> bool {
    let kept = doc_id.iter().rposition(|&b| b != pad).map_or(0, |i| i + 1);
    if kept as i64 + DOC_KEY_LEN != doc_id.len() as i64 {
        return false;
    }
    doc_id.truncate(kept);
    true
}

/// `unpackAuxiliaryDocumentKeys`: description scores (position => weight)
/// and user ranks.
pub fn unpack_auxiliary_keys(packed: &[u8]) -> Result<(Vec<(i64, Num)>, Vec<Num>)> {
    let mut scores = Vec::new();
    let mut offset = 0;
    if packed.get(..2) == Some(b"\xFF\xFF") {
        let (mut positions, after) = unpack_values(packed, 2);
        for i in 1..positions.len() {
            positions[i] += positions[i - 1]; // deDeltaList
        }
        let (weights, after) = unpack_values(packed, after);
        if positions.len() != weights.len() {
            return Err(ShardError::Throws("array_combine(): Argument #1 ($keys) and argument #2 ($values) must have the same number of elements"));
        }
        for (position, weight) in positions.into_iter().zip(weights) {
            // array_combine: a repeated key keeps its place, takes the later
            // weight. De-deltaed positions never decrease: repeats are adjacent.
            match scores.last_mut() {
                Some((last, w)) if *last == position => *w = weight_of(weight),
                _ => scores.push((position, weight_of(weight))),
            }
        }
        offset = after;
    }
    let ranks = unpack_values(packed, offset).0.into_iter().map(weight_of).collect();
    Ok((scores, ranks))
}

/// A packed weight as `unpackValues(..., "f")` gives it: `$value/65536`,
/// which is the int 0 for 0.
fn weight_of(value: i64) -> Num {
    if value == 0 {
        Num::Int(0)
    } else {
        Num::Float(value as f64 / MAX_SHORT)
    }
}

/// `unpackValues`: a little-endian 2-byte count, then that many shorts;
/// nothing (and the offset unchanged) where the data is too short.
fn unpack_values(packed: &[u8], offset: usize) -> (Vec<i64>, usize) {
    let Some(count) = packed.get(offset..offset + 2) else { return (Vec::new(), offset) };
    let count = usize::from(u16::from_le_bytes([count[0], count[1]]));
    let end = offset + 2 * (count + 1);
    let Some(values) = packed.get(offset + 2..end) else { return (Vec::new(), offset) };
    (values.chunks_exact(2).map(|v| i64::from(u16::from_le_bytes([v[0], v[1]]))).collect(), end)
}

/// `weightedCount`: occurrences in title, description and links, each
/// description occurrence weighted by the summarizer's score of its range.
/// Sums in floats equal PHP's int-then-float sums at these magnitudes.
pub fn weighted_count(positions: &[i64], is_doc: bool, title_length: i64, scores: &[(i64, Num)], title_weight: f64) -> [f64; 3] {
    let mut count = [0.0; 3];
    if !is_doc {
        count[2] = positions.len() as f64;
        return count;
    }
    let n = scores.len();
    let weight_at = |i: usize| title_weight * scores[i].1.as_f64();
    let last_score = if n > 0 { weight_at(n - 1) } else { 1.0 };
    // Yioop's $next_position is always set before it is read: a local here.
    let mut last_index = 0;
    for &position in positions {
        if position < title_length {
            count[0] += 1.0;
            continue;
        }
        let weight = if n == 0 {
            1.0
        } else if last_index >= n - 1 {
            last_score
        } else {
            let mut next_index = last_index;
            while next_index < n - 1 {
                let next_position = title_length.wrapping_add(scores[next_index + 1].0);
                if next_position > position {
                    break;
                }
                next_index += 1;
            }
            last_index = next_index;
            if last_index >= n - 1 {
                last_score
            } else {
                weight_at(last_index)
            }
        };
        count[1] += weight;
    }
    count
}

/// makeItem's BM25F relevance over the title, description and link
/// occurrences (each through `docStats`).
fn relevance<N: NumberText>(
    (occurrences, title_length, doc_len, num_doc_or_links): ([f64; 3], i64, i64, f64),
    is_doc: bool,
    stats: &Stats,
    config: &Config,
    numbers: &mut N,
) -> Result<Num> {
    use num::{add, div, sub};
    let int = Num::Int;
    let divide = |a, b| div(a, b).ok_or(ShardError::Throws("Division by zero"));
    let (mut average_doc_len, num_docs) = if is_doc {
        (divide(int(stats.len_all_docs), int(stats.num_docs))?, stats.num_docs)
    } else if stats.num_link_docs != 0 {
        (divide(int(stats.len_all_link_docs), int(stats.num_link_docs))?, stats.num_link_docs)
    } else {
        (int(0), stats.num_link_docs)
    };
    let total = add(int(stats.num_docs), int(stats.num_link_docs));
    let mut stat = DocStats { num_doc_or_links, num_docs, total, precision: config.precision, relevance: int(0) };
    let [title, description, links] = occurrences;
    if title > 0.0 {
        stat.add(title, int(title_length), int(title_length), config.title_weight, numbers)?;
    }
    let mut doc_len = int(doc_len);
    if description > 0.0 {
        average_doc_len = php_max(sub(average_doc_len, int(title_length)), int(1));
        doc_len = php_max(sub(doc_len, int(title_length)), int(1));
        stat.add(description, doc_len, average_doc_len, config.description_weight, numbers)?;
    }
    if links > 0.0 {
        stat.add(links, doc_len, average_doc_len, config.link_weight, numbers)?;
    }
    Ok(stat.relevance)
}

/// `docStats`'s arguments common to makeItem's calls, and the relevance
/// they add up.
struct DocStats {
    num_doc_or_links: f64,
    num_docs: i64,
    total: Num,
    precision: i64,
    relevance: Num,
}

impl DocStats {
    /// One `docStats` call: adds this part's BM25F term to the relevance.
    fn add<N: NumberText>(&mut self, occurrences: f64, doc_len: Num, average_doc_len: Num, weight: f64, numbers: &mut N) -> Result<()> {
        let half = 0.5;
        let doc_ratio = if greater(average_doc_len, Num::Int(0)) {
            num::div(doc_len, average_doc_len).map_or(0.0, Num::as_f64)
        } else {
            0.0
        };
        let text = numbers.number_format(3.0 * occurrences / (occurrences + half + 1.5 * doc_ratio), self.precision);
        let pre_relevance = numbers.numeric(&text).ok_or(ShardError::Throws("Unsupported operand types: non-numeric string"))?;
        let total = self.total.as_f64();
        // Yioop's sanity check: more documents with the term than in all.
        let num_doc_or_links = if self.num_doc_or_links > total { 0.5 * total } else { self.num_doc_or_links };
        let occurring = num::div(Num::Float(num_doc_or_links * self.num_docs as f64), self.total)
            .ok_or(ShardError::Throws("Division by zero"))?
            .as_f64();
        let idf = ((self.num_docs as f64 - occurring + half) / (occurring + half)).ln();
        let term = half * idf * pre_relevance.as_f64() * weight;
        self.relevance = num::add(self.relevance, Num::Float(term));
        Ok(())
    }
}

/// PHP's `$a > $b` on numbers.
fn greater(a: Num, b: Num) -> bool {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x > y,
        _ => a.as_f64() > b.as_f64(),
    }
}

/// PHP's `max($a, $b)`: the first unless the second is greater.
fn php_max(a: Num, b: Num) -> Num {
    if greater(b, a) {
        b
    } else {
        a
    }
}

/// `numDocsOrLinks($start, $last, $total_len / $postings)`: the slice's
/// estimate of how many documents hold the term, as PHP's ceil (a float).
pub fn num_docs_or_links(start_offset: i64, last_offset: i64, total_posting_len: i64, postings: i64) -> Result<f64> {
    let zero = ShardError::Throws("Division by zero");
    let average = num::div(Num::Int(total_posting_len), Num::Int(postings)).ok_or(zero.clone())?;
    let span = num::sub(Num::Int(last_offset), Num::Int(start_offset));
    Ok(num::div(span, average).ok_or(zero)?.as_f64().ceil())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_weight_unpacks_as_the_int_zero() {
        // Quirk: unpackValues divides by 2<<16 - 1, which PHP reads as 2<<15.
        let packed = [0xFF, 0xFF, 2, 0, 3, 0, 4, 0, 2, 0, 0, 0, 0, 0x80, 1, 0, 0, 0x40];
        let (scores, ranks) = unpack_auxiliary_keys(&packed).unwrap();
        assert_eq!(scores, vec![(3, Num::Int(0)), (7, Num::Float(0.5))]);
        assert_eq!(ranks, vec![Num::Float(0.25)]);
    }

    #[test]
    fn a_repeated_position_keeps_its_place_and_takes_the_later_weight() {
        let packed = [0xFF, 0xFF, 3, 0, 3, 0, 0, 0, 1, 0, 3, 0, 0, 0x10, 0, 0x20, 0, 0x40];
        let (scores, _) = unpack_auxiliary_keys(&packed).unwrap();
        assert_eq!(scores, vec![(3, Num::Float(0.125)), (4, Num::Float(0.25))]);
    }

    #[test]
    fn unequal_positions_and_weights_throw_as_array_combine_does() {
        let packed = [0xFF, 0xFF, 1, 0, 3, 0, 5, 0];
        assert!(matches!(unpack_auxiliary_keys(&packed), Err(ShardError::Throws(_))));
    }

    #[test]
    fn description_occurrences_take_the_weight_of_their_range() {
        let scores = [(0, Num::Float(0.5)), (10, Num::Float(0.25))];
        // Title 0..50; positions 50..59 in the first range, 60 on in the last.
        let count = weighted_count(&[1, 55, 61, 70], true, 50, &scores, 4.0);
        assert_eq!(count, [1.0, 2.0 + 1.0 + 1.0, 0.0]);
        assert_eq!(weighted_count(&[1, 2], false, 0, &[], 4.0), [0.0, 0.0, 2.0]);
    }

    #[test]
    fn num_docs_or_links_divides_as_php_and_rounds_up() {
        assert_eq!(num_docs_or_links(0, 100, 12, 3).unwrap(), 25.0);
        assert_eq!(num_docs_or_links(0, 100, 14, 3).unwrap(), 22.0); // 100/(14/3) = 21.43
        assert!(num_docs_or_links(0, 100, 0, 1).is_err());
    }

    #[test]
    fn short_ids_lose_exactly_one_key_of_padding() {
        let mut id = [b"abcdefgh".as_slice(), b"ijklmnop", &[0; 8]].concat();
        assert!(trim_padding(&mut id, 0));
        assert_eq!(id, b"abcdefghijklmnop");
        let mut id = [b"abcdefgh".as_slice(), b"ijklmno", &[0; 9]].concat();
        assert!(!trim_padding(&mut id, 0));
        assert_eq!(id.len(), 24);
    }

    #[test]
    fn descending_depth_counts_from_the_back() {
        let stats = Stats { generation: 1, num_docs_per_generation: 100, ..Stats::default() };
        let config = Config {
            precision: 10,
            avg_links_per_page: 24,
            max_generations: 10000,
            ad_hoc_title_length: 50,
            title_weight: 4.0,
            description_weight: 1.0,
            link_weight: 2.0,
        };
        assert_eq!(doc_depth(9, true, &stats, &config), 2510.0);
        assert_eq!(doc_depth(9, false, &stats, &config), 92.0 + 10000.0 - 2500.0);
    }
}
