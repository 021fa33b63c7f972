//! The English Tokenizer's recursive-descent parse of a tagged sentence
//! (`parseWholePhrase` and the parsers it calls) and the subject,
//! predicate and object read off the tree (`extractTripletsParseTree`).
//!
//! Yioop's trees are PHP arrays whose key order and leftover entries
//! matter: the RAW parts are every leaf of a subtree joined in order,
//! empty strings and emptied subtrees included. So the tree here is the
//! same ordered map ([`Tree`]), built step for step as Yioop builds it.
//! Yioop also keeps the parse position in each tree (`cur_node`), but
//! unsets it before a tree becomes part of another: here each parser
//! returns it beside its tree instead.

use super::tagger::{Tagged, Tagger};
use crate::php_semantics::text::php_trim;
use std::cell::RefCell;

#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Str(String),
    Map(Tree),
}

/// A key of Yioop's trees: a name, or a name and a clause number ("IN_1").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Name(&'static str),
    Indexed(&'static str, usize),
}

/// A PHP array with string keys, in insertion order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tree(Vec<(Key, Node)>);

/// PHP's truth of a string: neither `""` nor `"0"`.
fn truthy(s: &str) -> bool {
    !s.is_empty() && s != "0"
}


impl Node {
    /// PHP's `empty()`.
    fn is_empty(&self) -> bool {
        match self {
            Node::Str(s) => !truthy(s),
            Node::Map(tree) => tree.0.is_empty(),
        }
    }

    /// `$node[$key]` under `empty()`/`isset()`: a string has no such offset.
    fn get(&self, key: &'static str) -> Option<&Node> {
        match self {
            Node::Map(tree) => tree.get(Key::Name(key)),
            _ => None,
        }
    }

    /// Every leaf, each followed by a space (Yioop's RecursiveIteratorIterator loop).
    fn leaves(&self, out: &mut String) {
        match self {
            Node::Str(s) => out.push_str(s),
            Node::Map(tree) => return tree.0.iter().for_each(|(_, node)| node.leaves(out)),
        }
        out.push(' ');
    }
}

impl Tree {
    fn get(&self, key: Key) -> Option<&Node> {
        self.0.iter().find(|(k, _)| *k == key).map(|(_, node)| node)
    }

    /// `$tree[$key] = $node` for a key the tree does not hold yet.
    fn push(&mut self, key: Key, node: Node) {
        self.0.push((key, node));
    }

    /// `$tree[$key]`, moved out (Yioop copies it; the tree is not used again).
    fn take(&mut self, key: &'static str) -> Option<Node> {
        let at = self.0.iter().position(|(k, _)| *k == Key::Name(key))?;
        Some(self.0.remove(at).1)
    }

    fn node(self) -> Node {
        Node::Map(self)
    }
}

/// The Tokenizer's part-of-speech groups (its static `$..._type` lists).
#[derive(Clone, Debug, Default)]
pub struct Grammar {
    pub adjective: Vec<String>,
    pub adverb: Vec<String>,
    pub conjunction: Vec<String>,
    pub determiner: Vec<String>,
    pub noun: Vec<String>,
    pub verb: Vec<String>,
}

fn listed(list: &[String], tag: &str) -> bool {
    list.iter().any(|t| t == tag)
}

/// A sentence nested deeper than this is left to Yioop's PHP, which has
/// no such limit, rather than risk the native stack.
const MAX_DEPTH: usize = 1000;

#[derive(Debug)]
pub struct TooDeep;

/// A parser's tree, less its `cur_node`, and that position.
type Parsed = Result<(Tree, usize), TooDeep>;

pub struct Parser<'g> {
    grammar: &'g Grammar,
    depth: usize,
}

/// A sentence's words as one of Yioop's parsers sees them: tagged on
/// demand, with the words its callers retagged as adjectives
/// (parseVerbPhrase's "very", on its own copy of the array).
#[derive(Clone)]
pub struct Words<'t, 'a> {
    tagger: &'t RefCell<Tagger<'a>>,
    adjectives: Vec<usize>,
}

impl<'t, 'a> Words<'t, 'a> {
    pub fn new(tagger: &'t RefCell<Tagger<'a>>) -> Self {
        Words { tagger, adjectives: Vec::new() }
    }

    fn get(&self, at: usize) -> Option<Tagged<'a>> {
        let mut word = self.tagger.borrow_mut().get(at)?;
        if self.adjectives.contains(&at) {
            word.tag = "JJ";
        }
        Some(word)
    }

    /// `$tagged_phrase[$at]['tag']`, "" past the end.
    fn tag(&self, at: usize) -> &'a str {
        self.get(at).map_or("", |w| w.tag)
    }

    fn with_adjective(&self, at: usize) -> Self {
        let mut words = self.clone();
        words.adjectives.push(at);
        words
    }
}

impl<'g> Parser<'g> {
    pub fn new(grammar: &'g Grammar) -> Self {
        Parser { grammar, depth: 0 }
    }

    fn enter(&mut self) -> Result<(), TooDeep> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(TooDeep);
        }
        Ok(())
    }

    fn leave<T>(&mut self, result: T) -> T {
        self.depth -= 1;
        result
    }

    /// `parseTypeList`: the words from `at` on whose (trimmed) tags are in
    /// `types`, conjunctions allowed after the first, each as " word"; a
    /// trailing conjunction is given back.
    fn type_list(&self, at: &mut usize, words: &Words, types: &[String]) -> String {
        let start = *at;
        let (mut phrase, mut before_last) = (String::new(), String::new());
        let (mut last_tag, mut conjunctions): (&str, &[String]) = ("", &[]);
        let next_tag = |at: usize| {
            let tag = words.tag(at);
            if truthy(tag) { php_trim(tag) } else { "" }
        };
        let mut tag = next_tag(*at);
        while truthy(tag) && (listed(types, tag) || listed(conjunctions, tag)) {
            before_last.clone_from(&phrase);
            phrase.push(' ');
            phrase.push_str(words.get(*at).map_or("", |w| w.token));
            *at += 1;
            conjunctions = &self.grammar.conjunction;
            last_tag = tag;
            tag = next_tag(*at);
        }
        if listed(conjunctions, last_tag) && start < *at {
            *at -= 1;
            phrase = before_last;
        }
        phrase
    }

    /// parseAdjective, parseDeterminer, parseNoun, parseVerb, less their
    /// `cur_node` (moved on in `at`): `[$key => phrase]`, or `[]` where
    /// there is no phrase.
    fn typed(&self, words: &Words, at: &mut usize, types: &[String], key: &'static str) -> Tree {
        let phrase = self.type_list(at, words, types);
        let mut tree = Tree::default();
        if truthy(&phrase) {
            tree.push(Key::Name(key), Node::Str(phrase));
        }
        tree
    }

    /// `parsePrepositionalPhrases`: at a preposition, "IN_i", "DT_i",
    /// "JJ_i", "NP_i" and the next phrases under "PRP".
    fn prepositional(&mut self, words: &Words, at: usize, index: usize) -> Parsed {
        self.enter()?;
        let mut tree = Tree::default();
        let mut at = at;
        if words.get(at).is_some_and(|w| php_trim(w.tag) == "IN") {
            let grammar = self.grammar;
            let preposition = ["IN".to_string()];
            let parts: [(&'static str, &[String]); 4] =
                [("IN", &preposition), ("DT", &grammar.determiner), ("JJ", &grammar.adjective), ("NP", &grammar.noun)];
            for (key, types) in parts {
                let phrase = self.type_list(&mut at, words, types);
                if truthy(&phrase) {
                    tree.push(Key::Indexed(key, index), Node::Str(phrase));
                }
            }
            // Yioop keeps the following phrases but not where they end:
            // the position stays after this one.
            let (next, _) = self.prepositional(words, at, index + 1)?;
            tree.push(Key::Name("PRP"), next.node());
        }
        Ok(self.leave((tree, at)))
    }

    /// `parseNounPhrase`: determiner, adjectives, nouns, prepositional
    /// phrases, an auxiliary clause, then a conjunction and the next noun
    /// phrase; `"NP" => ""` where it starts with none of the first three.
    fn noun_phrase(&mut self, words: &Words, at: usize) -> Parsed {
        self.enter()?;
        let grammar = self.grammar;
        let mut nn_end = at;
        let dt = self.typed(words, &mut nn_end, &grammar.determiner, "DT");
        let jj = self.typed(words, &mut nn_end, &grammar.adjective, "JJ");
        let nn = self.typed(words, &mut nn_end, &grammar.noun, "NN");
        if nn_end == at {
            return Ok(self.leave((Tree(vec![(Key::Name("NP"), Node::Str(String::new()))]), at)));
        }
        let (pp, pp_end) = self.prepositional(words, nn_end, 1)?;
        let (aux, mut cur) = self.aux_clause(words, pp_end)?;
        let mut cc = String::new();
        if let Some(word) = words.get(cur).filter(|w| truthy(w.tag) && listed(&grammar.conjunction, w.tag)) {
            cc.push_str(word.token);
            cur += 1;
        }
        let (mut more, more_end) = self.noun_phrase(words, cur)?;
        if more_end == cur && truthy(&cc) {
            cur -= 1;
            more = Tree::default();
            cc.clear();
        } else {
            cur = more_end;
        }
        let sub = Tree(vec![
            (Key::Name("DT"), dt.node()),
            (Key::Name("JJ"), jj.node()),
            (Key::Name("NN"), nn.node()),
            (Key::Name("PRP"), pp.node()),
            (Key::Name("AUX"), aux.node()),
            (Key::Name("CC"), Node::Str(cc)),
            (Key::Name("ADD_NP"), more.node()),
        ]);
        Ok(self.leave((Tree(vec![(Key::Name("NP"), sub.node())]), cur)))
    }

    /// `parseVerbPhrase`: adverbs, verbs, adverbs (but "very" starts the
    /// noun phrase, retagged as an adjective), a noun phrase, adverbs;
    /// the tree given back unchanged where there is no verb.
    fn verb_phrase(&mut self, words: &Words, at: usize) -> Parsed {
        self.enter()?;
        let grammar = self.grammar;
        let mut cur = at;
        let mut adverbs = self.type_list(&mut cur, words, &grammar.adverb);
        let mut vb_end = cur;
        let mut vb = self.typed(words, &mut vb_end, &grammar.verb, "VB");
        if cur == vb_end {
            return Ok(self.leave((Tree::default(), at)));
        }
        cur = vb_end;
        let more_adverbs = self.type_list(&mut cur, words, &grammar.adverb);
        let retagged;
        let words = if php_trim(&more_adverbs) != "very" {
            adverbs.push_str(&more_adverbs);
            vb_end = cur;
            words
        } else {
            retagged = words.with_adjective(vb_end);
            &retagged
        };
        let (mut np, mut np_end) = self.noun_phrase(words, vb_end)?;
        adverbs.push_str(&self.type_list(&mut np_end, words, &grammar.adverb));
        if truthy(&adverbs) {
            vb.push(Key::Name("RB"), Node::Str(adverbs));
        }
        let mut vp = Tree(vec![(Key::Name("VB"), vb.node())]);
        if let Some(noun_phrase) = np.take("NP").filter(|n| !n.is_empty()) {
            vp.push(Key::Name("NP"), noun_phrase);
        }
        Ok(self.leave((Tree(vec![(Key::Name("VP"), vp.node())]), np_end)))
    }

    /// `parseWholePhrase` from `at`: leading prepositional phrases, a noun
    /// phrase, a verb phrase; an empty tree at `at` where either is missing.
    pub fn whole_phrase(&mut self, words: &Words, at: usize) -> Parsed {
        self.enter()?;
        let (start, cur) = self.prepositional(words, at, 1)?;
        let (mut np, np_end) = self.noun_phrase(words, cur)?;
        if np_end == cur {
            return Ok(self.leave((Tree::default(), at)));
        }
        let (mut vp, end) = self.verb_phrase(words, np_end)?;
        if np_end == end {
            return Ok(self.leave((Tree::default(), at)));
        }
        let mut noun_phrase = np.take("NP").unwrap_or(Node::Str(String::new()));
        if let Node::Map(sub) = &mut noun_phrase {
            if !start.0.is_empty() && !sub.0.is_empty() {
                sub.push(Key::Name("PRP-1"), start.node());
            }
        }
        let verb_phrase = vp.take("VP").unwrap_or(Node::Str(String::new()));
        Ok(self.leave((Tree(vec![(Key::Name("NP"), noun_phrase), (Key::Name("VP"), verb_phrase)]), end)))
    }

    /// `parseAuxClause`: after "that", "who", "which", "because", "like"
    /// or "as", a verb phrase or else a whole phrase.
    fn aux_clause(&mut self, words: &Words, at: usize) -> Parsed {
        self.enter()?;
        let token = words.get(at).map_or("", |w| if truthy(w.token) { php_trim(w.token) } else { "" });
        if !["that", "who", "which", "because", "like", "as"].contains(&token) {
            return Ok(self.leave((Tree::default(), at)));
        }
        let cur = at + 1;
        let (mut phrase, mut end) = self.verb_phrase(words, cur)?;
        if end == cur {
            (phrase, end) = self.whole_phrase(words, cur)?;
            if end == cur {
                return Ok(self.leave((Tree::default(), at)));
            }
        }
        let tree = Tree(vec![(Key::Name("IN"), Node::Str(token.to_string())), (Key::Name("PHRASE"), phrase.node())]);
        Ok(self.leave((tree, end)))
    }
}

/// `extractDeepestSpeechPartPhrase`: the `$pos` of the deepest `$pos`
/// under `$pos`. (Yioop's trees hold strings there; an array would be
/// Yioop's error, and is "" here.)
fn deepest(node: &Node, pos: &'static str) -> String {
    let Some(child) = node.get(pos).filter(|c| !c.is_empty()) else {
        return String::new();
    };
    let extract = deepest(child, pos);
    if truthy(&extract) {
        return extract;
    }
    match child.get(pos) {
        Some(Node::Str(s)) if truthy(s) => s.clone(),
        _ => extract,
    }
}

/// The leaves of a subtree, each followed by a space.
fn leaves(tree: &Node) -> String {
    let mut out = String::new();
    tree.leaves(&mut out);
    out
}

/// One part of a triplet: CONCISE (the head words) and RAW (every leaf).
#[derive(Debug, Default, PartialEq)]
pub struct Part {
    pub concise: String,
    pub raw: String,
}

pub struct Triplet {
    pub subject: Part,
    pub predicate: Part,
    pub object: Part,
}

fn non_empty<'t>(tree: &'t Tree, key: &'static str) -> Option<&'t Node> {
    tree.get(Key::Name(key)).filter(|n| !n.is_empty())
}

/// `extractTripletsParseTree` of a `parseWholePhrase` tree.
pub fn triplet(tree: &Tree) -> Triplet {
    let subject = non_empty(tree, "NP").map_or_else(Part::default, |np| Part { concise: deepest(np, "NN"), raw: leaves(np) });
    let vp = non_empty(tree, "VP");
    let predicate = vp.map_or_else(Part::default, |vp| Part {
        concise: deepest(vp, "VB"),
        raw: vp.get("VB").filter(|vb| !vb.is_empty()).map_or_else(String::new, leaves),
    });
    let object = vp.and_then(|vp| vp.get("NP")).filter(|np| !np.is_empty());
    let object = object.map_or_else(Part::default, |np| Part { concise: deepest(np, "NN"), raw: leaves(np) });
    Triplet { subject, predicate, object }
}

#[cfg(test)]
mod tests {
    use super::super::lexicon::Lexicon;
    use super::*;

    fn words(tagged: &str) -> Vec<Tagged<'_>> {
        tagged.split(' ').map(|w| {
            let (token, tag) = w.split_once('/').unwrap();
            Tagged { token, tag }
        }).collect()
    }

    fn parse(tagged: &str) -> Result<Tree, TooDeep> {
        let lexicon = Lexicon::parse(b"").unwrap();
        let tagger = RefCell::new(Tagger::of_words(words(tagged), &lexicon));
        Parser::new(&grammar()).whole_phrase(&Words::new(&tagger), 0).map(|(tree, _)| tree)
    }

    fn grammar() -> Grammar {
        let list = |s: &str| s.split(' ').map(String::from).collect();
        Grammar {
            adjective: list("JJ JJR JJS"),
            adverb: list("RB RBR RBS"),
            conjunction: list("CC"),
            determiner: list("DT PDT"),
            noun: list("NN NNS NNP NNPS PRP"),
            verb: list("VB VBD VBG VBN VBP VBZ"),
        }
    }

    fn parts(tagged: &str) -> [(String, String); 3] {
        let t = triplet(&parse(tagged).unwrap());
        [t.subject, t.predicate, t.object].map(|p| (p.concise, p.raw))
    }

    #[test]
    fn a_simple_sentence_gives_head_words_and_every_leaf() {
        // Traced by hand through Yioop's parsers: leaves of the noun
        // phrase tree are DT, JJ, NN, then "" for CC and the empty
        // subtrees, each followed by a space.
        let [s, p, o] = parts("the/DT big/JJ dog/NN quickly/RB ate/VBD a/DT bone/NN");
        assert_eq!(s, (" dog".into(), " the  big  dog   ".into()));
        assert_eq!(p, (" ate".into(), " ate  quickly ".into()));
        assert_eq!(o, (" bone".into(), " a  bone   ".into()));
    }

    #[test]
    fn no_verb_no_triplet_and_a_trailing_conjunction_is_given_back() {
        let [s, p, _] = parts("dogs/NNS and/CC cats/NNS");
        assert_eq!(s, (String::new(), String::new()));
        assert_eq!(p, (String::new(), String::new()));
        let grammar = grammar();
        let lexicon = Lexicon::parse(b"").unwrap();
        let tagger = RefCell::new(Tagger::of_words(words("dogs/NNS and/CC ran/VBD"), &lexicon));
        let mut at = 0;
        let phrase = Parser::new(&grammar).type_list(&mut at, &Words::new(&tagger), &grammar.noun);
        assert_eq!((phrase.as_str(), at), (" dogs", 1));
    }

    #[test]
    fn very_after_a_verb_starts_the_object() {
        let [_, p, o] = parts("it/PRP is/VBZ very/RB big/JJ");
        assert_eq!(p, (" is".into(), " is ".into()));
        assert_eq!(o, (String::new(), " very big   ".into()));
    }

    #[test]
    fn a_second_prepositional_phrase_does_not_move_the_parse_on() {
        // "of winter" is kept under the first phrase's "PRP", but the noun
        // phrase is then looked for at "of": none, so no triplet.
        let [s, p, _] = parts("in/IN the/DT dark/NN of/IN winter/NN the/DT dog/NN barked/VBD");
        assert_eq!((s, p), Default::default());
        // One phrase: the parse goes on after it, and the phrase joins the
        // subject's leaves last ("PRP-1").
        let [s, _, _] = parts("in/IN the/DT dark/NN the/DT dog/NN barked/VBD");
        assert_eq!(s, (" dog".into(), " the  dog    in  the  dark ".into()));
    }

    #[test]
    fn deep_nesting_is_declined() {
        let tagged = vec!["the/DT cat/NN"; MAX_DEPTH].join(" ") + " ran/VBD";
        assert!(parse(&tagged).is_err());
    }
}
