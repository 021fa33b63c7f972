//! A posting's doc key as Yioop's WordIterator takes it apart: 8-byte parts
//! (the URL's hash, the page's hash, then the linking host's for a link),
//! the host key its search filter is asked about, and `base64Hash`, the
//! form in which Yioop writes a hash into a term ("info:", "link:").

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// `IndexShard::DOC_KEY_LEN`: the length of each part.
pub const PART_LEN: usize = 8;
/// `WordIterator::HOST_KEY_POS` and `KEY_LEN`.
const HOST_KEY_POS: usize = 17;
const HOST_KEY_LEN: usize = 8;

/// `substr($key, 17, 8)`: empty for a key of 17 bytes or fewer (PHP 8).
pub fn host_key(key: &[u8]) -> &[u8] {
    key.get(HOST_KEY_POS..).map_or(&[], |rest| &rest[..rest.len().min(HOST_KEY_LEN)])
}

/// `str_split($key, 8)`: none for an empty key (PHP 8.2 on).
pub fn parts(key: &[u8]) -> Vec<&[u8]> {
    key.chunks(PART_LEN).collect()
}

/// `base64Hash($bytes)`: base64 with `-` and `_` for `+` and `/`, and no
/// trailing `=`.
pub fn base64_hash(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_key_is_php_substr() {
        let key: Vec<u8> = (0u8..30).collect();
        assert_eq!(host_key(&key), &key[17..25]);
        assert_eq!(host_key(&key[..20]), &key[17..20]);
        assert!(host_key(&key[..17]).is_empty());
        assert!(host_key(&key[..3]).is_empty());
    }

    #[test]
    fn parts_are_str_split() {
        let key = b"aaaaaaaabbbbbbbbcc";
        assert_eq!(parts(key), vec![&b"aaaaaaaa"[..], b"bbbbbbbb", b"cc"]);
        assert!(parts(b"").is_empty());
    }

    #[test]
    fn base64_hash_replaces_and_trims() {
        // base64 of these bytes is "+/8=" in the standard alphabet.
        assert_eq!(base64_hash(&[0xfb, 0xff]), "-_8");
        assert_eq!(base64_hash(b"abcdefgh"), "YWJjZGVmZ2g");
    }
}
