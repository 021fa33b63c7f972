//! Which INI texts `parse_ini_file($file, true)` reads the same in every
//! request. PHP's INI scanner (INI_SCANNER_NORMAL) puts a constant's value
//! in place of a bare word that names a defined constant, and an
//! environment variable or INI setting in place of `${name}`, so the array
//! it gives can depend on the request. A text made only of sections,
//! comments and keys given one plain double-quoted string depends on
//! nothing but its bytes: the array PHP made of it once can be kept.

/// Whether every line of `text` is blank, a `;` comment, a `[section]` of
/// word characters, or `key = "value"` (`key[] = "value"` too) whose value
/// holds no `"`, backslash or `${`. Anything else (a bare word, a quoted
/// string spanning lines, an escape) answers false: the text may read
/// differently elsewhere, or at least is not worth proving otherwise.
pub fn reads_alike_everywhere(text: &[u8]) -> bool {
    !contains(text, b"${") && text.split(|&b| b == b'\n').all(|line| plain_line(line.trim_ascii()))
}

fn plain_line(line: &[u8]) -> bool {
    line.is_empty() || line[0] == b';' || is_section(line) || is_quoted_assignment(line)
}

fn is_section(line: &[u8]) -> bool {
    line.len() > 2 && line[0] == b'[' && line[line.len() - 1] == b']' && is_word(&line[1..line.len() - 1])
}

fn is_quoted_assignment(line: &[u8]) -> bool {
    let Some(equals) = line.iter().position(|&b| b == b'=') else { return false };
    let (key, value) = (line[..equals].trim_ascii(), line[equals + 1..].trim_ascii());
    let key = key.strip_suffix(b"[]").unwrap_or(key);
    is_word(key) && is_plain_string(value)
}

fn is_plain_string(value: &[u8]) -> bool {
    value.len() >= 2
        && value[0] == b'"'
        && value[value.len() - 1] == b'"'
        && !value[1..value.len() - 1].iter().any(|&b| b == b'"' || b == b'\\')
}

fn is_word(bytes: &[u8]) -> bool {
    !bytes.is_empty() && bytes.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_')
}

fn contains(text: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(text, needle).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_comments_and_quoted_values_read_alike() {
        let text = b"; Yioop's locale file\n[general]\nlocale_name = \"English\"\n\n[strings]\r\nkey_1 = \"\"\nlist[] = \"a = b; c\"\n";
        assert!(reads_alike_everywhere(text));
    }

    #[test]
    fn a_bare_word_may_name_a_constant() {
        assert!(!reads_alike_everywhere(b"[general]\nname = PHP_VERSION\n"));
        assert!(!reads_alike_everywhere(b"name = \"a\" PHP_EOL \"b\"\n"));
        assert!(!reads_alike_everywhere(b"flag = true\n"));
    }

    #[test]
    fn expansions_escapes_and_odd_lines_are_not_proved() {
        assert!(!reads_alike_everywhere(b"home = \"${HOME}\"\n"));
        assert!(!reads_alike_everywhere(b"; ${HOME} in a comment is still left out\n"));
        assert!(!reads_alike_everywhere(b"quote = \"say \\\"hi\\\"\"\n"));
        assert!(!reads_alike_everywhere(b"long = \"two\nlines\"\n"));
        assert!(!reads_alike_everywhere(b"[a.b]\n"));
        assert!(!reads_alike_everywhere(b"a.b = \"x\"\n"));
        assert!(!reads_alike_everywhere(b"# not a comment in PHP 8\n"));
        assert!(!reads_alike_everywhere(b"= \"no key\"\n"));
    }
}
