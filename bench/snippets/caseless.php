<?php
/**
 * Lists the non-ASCII code points that a literal ASCII letter or digit
 * matches under /ui with this PHP's PCRE: the characters a search for an
 * ASCII word's occurrences must also allow (PCRE2 10.42: U+017F, U+212A).
 *
 *   php bench/snippets/caseless.php
 */
$alternatives = implode("|", array_merge(range("a", "z"), range("0", "9")));
$found = [];
for ($cp = 0x80; $cp <= 0x10FFFF; $cp++) {
    if (($cp < 0xD800 || $cp > 0xDFFF)
        && preg_match("/^(?:$alternatives)$/ui", mb_chr($cp, "UTF-8"))) {
        $found[] = sprintf("U+%04X", $cp);
    }
}
echo "PCRE ", PCRE_VERSION, ": ", implode(" ", $found) ?: "none", "\n";
