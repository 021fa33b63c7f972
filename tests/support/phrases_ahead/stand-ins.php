<?php
/**
 * PhraseParser and UrlParser under Yioop's names, for
 * tests/text/PhrasesAheadTest.php: the methods the shard build's phrase
 * lists made ahead call by name (the URL's words, the canonicalization),
 * and an extractPhrasesInLists whose own PHP chains the native passes the
 * way Yioop's method chains its passes: canonicalization and hyphenation
 * (outside programming languages), term and sentence positions, then the
 * Tokenizer's triplets, whose questions join the terms. Each pass hands
 * its call to its native function, as the integration tool's guards do,
 * and throws where that declines (the test is of the lists made ahead,
 * not of a pass's own PHP).
 */
namespace seekquarry\yioop\library;

use seekquarry\yioop\configs as C;

if (!class_exists(PhraseParser::class, false)) {
    class PhraseParser
    {
        public static $programming_language_map = [];
        public static $tokenizers = [];
        public static int $runs = 0;

        public static function getTokenizer($lang)
        {
            return self::$tokenizers[$lang] ?? null;
        }

        public static function extractPhrasesInLists($string, $lang = null)
        {
            if (($lists = \yioop_codec\phrase\extractPhrasesInLists(static::class, $string, $lang)) !== null) {
                return $lists;
            }
            self::$runs++;
            $lists = ['TIMES' => ['CANONICALIZE' => 0, 'TERM_POSITIONS_SENTENCE_TAGGING' => 0,
                'QUESTION_ANSWER_EXTRACT' => 0]];
            $start = microtime(true);
            if (!isset(self::$programming_language_map[$lang])) {
                self::canonicalizePunctuatedTerms($string, $lang);
                self::hyphenateEntities($string, $lang);
                $lists['TIMES']['CANONICALIZE'] = microtime(true) - $start;
            }
            $start = microtime(true);
            $found = self::extractTermSentencePositionsTags($string, $lang, C\ENABLE_QUESTION_ANSWERING);
            if (empty($found['TERM_POSITIONS'])) {
                $found['TERM_POSITIONS'] = [];
            }
            $lists['TIMES']['TERM_POSITIONS_SENTENCE_TAGGING'] = microtime(true) - $start;
            if (C\ENABLE_QUESTION_ANSWERING && !empty($found['SENTENCES'])) {
                $start = microtime(true);
                $triplets = self::getTokenizer($lang)->extractTripletsPhrases($found['SENTENCES'], $lang)
                    ?? throw new \LogicException('the native triplets declined');
                $found['TERM_POSITIONS'] += $triplets['QUESTION_LIST'];
                $lists['QUESTION_ANSWER_LIST'] = $triplets['QUESTION_ANSWER_LIST'];
                $lists['TIMES']['QUESTION_ANSWER_EXTRACT'] = microtime(true) - $start;
            }
            $lists['WORD_LIST'] = $found['TERM_POSITIONS'];
            return $lists;
        }

        /** Apostrophes written as entities, then the Tokenizer's own pass. */
        public static function canonicalizePunctuatedTerms(&$string, $lang = null)
        {
            $string = preg_replace("/\s*&apos;\s*/u", "'", $string);
            self::getTokenizer($lang)?->canonicalizePunctuatedTerms($string);
        }

        public static function hyphenateEntities(&$string, $lang = null)
        {
            if (!\yioop_codec\phrase\hyphenateEntities(static::class, $string, $lang)) {
                throw new \LogicException('the native hyphenateEntities declined');
            }
        }

        public static function extractTermSentencePositionsTags($string, $lang = null, $extract_sentences = false)
        {
            return \yioop_codec\phrase\extractTermSentencePositionsTags(static::class, $string, $lang, $extract_sentences)
                ?? throw new \LogicException('the native positions declined');
        }

        public static function stemCharGramSegment($string, $lang, $to_string = false)
        {
            return \yioop_codec\phrase\stemCharGramSegment(static::class, $string, $lang, $to_string)
                ?? throw new \LogicException('the native stemCharGramSegment declined');
        }
    }
}

if (!class_exists(UrlParser::class, false)) {
    class UrlParser
    {
        /** The host's words less its top-level domain, padded with spaces. */
        public static function getWordsInHostUrl($url)
        {
            $host = parse_url($url, PHP_URL_HOST) ?: "";
            $parts = preg_split('/\.|-/', $host);
            array_pop($parts);
            return " " . implode(" ", $parts) . " ";
        }

        /** The last path part's words, padded with spaces. */
        public static function getWordsLastPathPartUrl($url)
        {
            $last = pathinfo(parse_url($url, PHP_URL_PATH) ?: "", PATHINFO_FILENAME);
            return " " . implode(" ", array_filter(preg_split('/_|-|\.|\+/', $last), 'strlen')) . " ";
        }
    }
}
