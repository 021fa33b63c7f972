//! Yioop's English stemmer (`locale/en_US/resources/Tokenizer::stem`):
//! Porter's algorithm over bytes, as Yioop runs it. Its state is the
//! class's scratch (`$buffer`, the end `$k`, the suffix start `$j`), which
//! Yioop leaves set after a call: `Stemmed::state` is that state, for the
//! binding to leave as Yioop does. Two Yioop additions: words of its
//! no-stem list come back unchanged (and leave the state as it was), and
//! a hyphenated word keeps everything up to its last hyphen, only the rest
//! being stemmed (a hyphen at the start does not count).
//!
//! Every step is Yioop's, in Yioop's order of evaluation, because a suffix
//! test that matches moves `$j` even when the step then changes nothing,
//! and the state left behind must be Yioop's.

/// The class's scratch after a call: buffer, `$k`, `$j`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    pub buffer: Vec<u8>,
    pub k: i64,
    pub j: i64,
}

/// A call's result, and the state it leaves (None: left as it was).
#[derive(Debug, PartialEq, Eq)]
pub struct Stemmed {
    pub stem: Vec<u8>,
    pub state: Option<State>,
}

/// `stem($word)`; `no_stem` says whether a word is on the no-stem list.
pub fn stem(word: &[u8], no_stem: &dyn Fn(&[u8]) -> bool) -> Stemmed {
    if no_stem(word) {
        return Stemmed { stem: word.to_vec(), state: None };
    }
    if let Some(hyphen) = word.iter().rposition(|&b| b == b'-').filter(|&h| h > 0) {
        let rest = stem(&word[hyphen + 1..], no_stem);
        let mut out = word[..=hyphen].to_vec();
        out.extend_from_slice(&rest.stem);
        return Stemmed { stem: out, state: rest.state };
    }
    let k = word.len() as i64 - 1;
    let mut s = State { buffer: word.to_vec(), k, j: k };
    if k <= 1 {
        return Stemmed { stem: word.to_vec(), state: Some(s) };
    }
    s.step1ab();
    s.step1c();
    s.step2();
    s.step3();
    s.step4();
    s.step5();
    let stem = s.buffer[..(s.k + 1) as usize].to_vec();
    Stemmed { stem, state: Some(s) }
}

impl State {
    fn at(&self, i: i64) -> u8 {
        self.buffer[i as usize]
    }

    /// Whether position `i` is a consonant ('y' after a consonant is not).
    fn cons(&self, i: i64) -> bool {
        match self.at(i) {
            b'a' | b'e' | b'i' | b'o' | b'u' => false,
            b'y' => i == 0 || !self.cons(i - 1),
            _ => true,
        }
    }

    /// The number of vowel-consonant sequences in positions 0..=j.
    fn m(&self) -> i64 {
        let mut n = 0;
        // Leading consonants, then (vowels, consonants) pairs: each pair
        // that reaches a consonant counts.
        let Some(mut i) = self.first_where(0, false) else { return 0 };
        loop {
            let Some(consonant) = self.first_where(i + 1, true) else { return n };
            n += 1;
            let Some(vowel) = self.first_where(consonant + 1, false) else { return n };
            i = vowel;
        }
    }

    /// The first position from `i` to j whose `cons` is `consonant`.
    fn first_where(&self, i: i64, consonant: bool) -> Option<i64> {
        // An exclusive range: `i..=j` made the whole stemmer 12% slower.
        (i..self.j + 1).find(|&p| self.cons(p) == consonant)
    }

    fn vowel_in_stem(&self) -> bool {
        (0..=self.j).any(|i| !self.cons(i))
    }

    /// Positions `j` and `j - 1` hold the same consonant.
    fn double_consonant(&self, j: i64) -> bool {
        j >= 1 && self.at(j) == self.at(j - 1) && self.cons(j)
    }

    /// Consonant-vowel-consonant ending at `i`, the last not w, x or y.
    fn cvc(&self, i: i64) -> bool {
        if i < 2 || !self.cons(i) || self.cons(i - 1) || !self.cons(i - 2) {
            return false;
        }
        !matches!(self.at(i), b'w' | b'x' | b'y')
    }

    /// Whether 0..=k ends with `suffix`; if so `j` moves before it.
    fn ends(&mut self, suffix: &[u8]) -> bool {
        let len = suffix.len() as i64;
        let loc = self.k - len + 1;
        if loc < 0 || &self.buffer[loc as usize..(loc + len) as usize] != suffix {
            return false;
        }
        self.j = self.k - len;
        true
    }

    /// Puts `to` after `j` (substr_replace of as many bytes) and ends there.
    fn set_to(&mut self, to: &[u8]) {
        let start = (self.j + 1) as usize;
        let end = (start + to.len()).min(self.buffer.len());
        self.buffer.splice(start..end, to.iter().copied());
        self.k = self.j + to.len() as i64;
    }

    fn replace(&mut self, to: &[u8]) {
        if self.m() > 0 {
            self.set_to(to);
        }
    }

    /// The first suffix of `rules` that ends the word is replaced (when
    /// m() > 0); the suffixes after it are not tried.
    fn first_rule(&mut self, rules: &[(&[u8], &[u8])]) {
        for (suffix, to) in rules {
            if self.ends(suffix) {
                self.replace(to);
                return;
            }
        }
    }

    fn step1ab(&mut self) {
        if self.at(self.k) == b's' {
            if self.ends(b"sses") {
                self.k -= 2;
            } else if self.ends(b"ies") {
                self.set_to(b"i");
            } else if self.at(self.k - 1) != b's' {
                self.k -= 1;
            }
        }
        if self.ends(b"eed") {
            if self.m() > 0 {
                self.k -= 1;
            }
        } else if (self.ends(b"ed") || self.ends(b"ing")) && self.vowel_in_stem() {
            self.k = self.j;
            if self.ends(b"at") {
                self.set_to(b"ate");
            } else if self.ends(b"bl") {
                self.set_to(b"ble");
            } else if self.ends(b"iz") {
                self.set_to(b"ize");
            } else if self.double_consonant(self.k) {
                self.k -= 1;
                if matches!(self.at(self.k), b'l' | b's' | b'z') {
                    self.k += 1;
                }
            } else if self.m() == 1 && self.cvc(self.k) {
                self.set_to(b"e");
            }
        }
    }

    fn step1c(&mut self) {
        if self.ends(b"y") && self.vowel_in_stem() {
            let k = self.k as usize;
            self.buffer[k] = b'i';
        }
    }

    fn step2(&mut self) {
        if self.k < 1 {
            return;
        }
        let rules: &[(&[u8], &[u8])] = match self.at(self.k - 1) {
            b'a' => &[(b"ational", b"ate"), (b"tional", b"tion")],
            b'c' => &[(b"enci", b"ence"), (b"anci", b"ance")],
            b'e' => &[(b"izer", b"ize")],
            b'l' => &[(b"abli", b"able"), (b"alli", b"al"), (b"entli", b"ent"), (b"eli", b"e"), (b"ousli", b"ous")],
            b'o' => &[(b"ization", b"ize"), (b"ation", b"ate"), (b"ator", b"ate")],
            b's' => &[(b"alism", b"al"), (b"iveness", b"ive"), (b"fulness", b"ful"), (b"ousness", b"ous")],
            b't' => &[(b"aliti", b"al"), (b"iviti", b"ive"), (b"biliti", b"ble")],
            _ => &[],
        };
        self.first_rule(rules);
    }

    fn step3(&mut self) {
        let rules: &[(&[u8], &[u8])] = match self.at(self.k) {
            b'e' => &[(b"icate", b"ic"), (b"ative", b""), (b"alize", b"al")],
            b'i' => &[(b"iciti", b"ic")],
            b'l' => &[(b"ical", b"ic"), (b"ful", b"")],
            b's' => &[(b"ness", b"")],
            _ => &[],
        };
        self.first_rule(rules);
    }

    fn step4(&mut self) {
        if self.k < 1 {
            return;
        }
        let suffixes: &[&[u8]] = match self.at(self.k - 1) {
            b'a' => &[b"al"],
            b'c' => &[b"ance", b"ence"],
            b'e' => &[b"er"],
            b'i' => &[b"ic"],
            b'l' => &[b"able", b"ible"],
            b'n' => &[b"ant", b"ement", b"ment", b"ent"],
            b'o' => {
                // -ion only after s or t; then -ou.
                if self.ends(b"ion") && self.j >= 0 && matches!(self.at(self.j), b's' | b't') {
                    return self.remove_if_long();
                }
                &[b"ou"]
            }
            b's' => &[b"ism"],
            b't' => &[b"ate", b"iti"],
            b'u' => &[b"ous"],
            b'v' => &[b"ive"],
            b'z' => &[b"ize"],
            _ => &[],
        };
        for suffix in suffixes {
            if self.ends(suffix) {
                return self.remove_if_long();
            }
        }
    }

    fn remove_if_long(&mut self) {
        if self.m() > 1 {
            self.k = self.j;
        }
    }

    fn step5(&mut self) {
        self.j = self.k;
        if self.at(self.k) == b'e' {
            let a = self.m();
            if a > 1 || a == 1 && !self.cvc(self.k - 1) {
                self.k -= 1;
            }
        }
        if self.at(self.k) == b'l' && self.double_consonant(self.k) && self.m() > 1 {
            self.k -= 1;
        }
    }
}

/// The stems of one call that stems many words (PhraseParser stems a
/// page's in one call; a page repeats its words): each word stemmed once,
/// by first use, and the scratch the last stem left, as Yioop's `stem`
/// leaves `$buffer`, `$k` and `$j` when called word after word.
#[derive(Default)]
pub struct StemCache {
    stems: Vec<Stemmed>,
    index: rustc_hash::FxHashMap<Vec<u8>, usize>,
    /// The last stem that left a scratch.
    last: Option<usize>,
}

impl StemCache {
    /// `word`'s number, stemmed by `stem_uncached` the first time.
    pub fn number(&mut self, word: &[u8], stem_uncached: impl FnOnce(&[u8]) -> Stemmed) -> usize {
        let at = match self.index.get(word) {
            Some(&at) => at,
            None => {
                self.stems.push(stem_uncached(word));
                self.index.insert(word.to_vec(), self.stems.len() - 1);
                self.stems.len() - 1
            }
        };
        if self.stems[at].state.is_some() {
            self.last = Some(at);
        }
        at
    }

    pub fn stemmed(&self, number: usize) -> &[u8] {
        &self.stems[number].stem
    }

    /// The scratch the last word stemmed left; None where no stem wrote one.
    pub fn last_state(&self) -> Option<&State> {
        self.last.and_then(|at| self.stems[at].state.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(word: &str) -> String {
        String::from_utf8(stem(word.as_bytes(), &|_| false).stem).unwrap()
    }

    #[test]
    fn porter_examples() {
        for (word, want) in [("caresses", "caress"), ("ponies", "poni"), ("ties", "ti"), ("cats", "cat"),
            ("feed", "feed"), ("agreed", "agre"), ("plastered", "plaster"), ("motoring", "motor"),
            ("sing", "sing"), ("conflated", "conflat"), ("troubled", "troubl"), ("sized", "size"),
            ("hopping", "hop"), ("falling", "fall"), ("filing", "file"), ("happy", "happi"),
            ("relational", "relat"), ("generalization", "gener"), ("electrical", "electr"),
            ("revival", "reviv"), ("adoption", "adopt"), ("controll", "control"), ("roll", "roll")] {
            assert_eq!(plain(word), want, "{word}");
        }
    }

    #[test]
    fn yioop_additions() {
        let list = |w: &[u8]| w == b"fishing";
        assert_eq!(stem(b"fishing", &list), Stemmed { stem: b"fishing".to_vec(), state: None });
        assert_eq!(stem(b"fly-fishing", &list).stem, b"fly-fishing");
        assert_eq!(plain("state-owned"), "state-own");
        assert_eq!(plain("-owned"), "-own");
        let end = stem(b"abc-", &|_| false);
        assert_eq!(end.stem, b"abc-");
        assert_eq!(end.state, Some(State { buffer: vec![], k: -1, j: -1 }));
    }

    #[test]
    fn the_state_is_left_as_yioop_leaves_it() {
        let s = stem(b"ponies", &|_| false).state.unwrap();
        assert_eq!((s.buffer.as_slice(), s.k, s.j), (&b"ponies"[..], 3, 3));
        assert_eq!(stem(b"ab", &|_| false).state, Some(State { buffer: b"ab".to_vec(), k: 1, j: 1 }));
    }
}
