//! Summary-like records for the archive benches: `serialize()` of an array
//! of a title, a URL and a description of N words from a small vocabulary.

/// The serialized record of `words` words.
pub fn serialized(words: usize, seed: u64) -> Vec<u8> {
    let vocabulary = ["search", "engine", "yioop", "index", "shard", "archive", "page", "summary", "crawl", "the", "of", "and", "documentation", "python", "function", "returns"];
    let mut x = seed;
    let mut text = String::new();
    for _ in 0..words {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        text.push_str(vocabulary[(x >> 59) as usize % vocabulary.len()]);
        text.push(' ');
    }
    format!("a:3:{{s:5:\"TITLE\";s:7:\"page {seed}\";s:3:\"URL\";s:24:\"https://example.com/{seed:04}\";s:11:\"DESCRIPTION\";s:{}:\"{text}\";}}", text.len()).into_bytes()
}
