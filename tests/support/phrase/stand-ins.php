<?php
/**
 * Yioop's classes that the native PhraseParser passes read, under their
 * names, for the tests of tests/text/: the en_US Tokenizer (its no-stem
 * list, its stemmer's scratch, its segment() that gives its input back,
 * tagTokenizePartOfSpeech and extractTripletsPhrases, the statics its
 * triplets read, a method with the statics its canonicalization reads)
 * and NWordGrams (its filter cache). Their methods hand the call to the
 * native functions, as the integration tool's guards do: the native
 * passes check that they do.
 */
namespace seekquarry\yioop\locale\en_US\resources {
    if (!class_exists(Tokenizer::class, false)) {
        class Tokenizer
        {
            public static $no_stem_list = [];
            // The part-of-speech lists and question token the native
            // triplets read (tests/text/TripletsTest.php sets Yioop's).
            public static $adjective_type;
            public static $adverb_type;
            public static $conjunction_type;
            public static $determiner_type;
            public static $noun_type;
            public static $verb_type;
            public static $question_token;
            private static $buffer;
            private static $k;
            private static $j;

            public static function segment($pre_segment)
            {
                return $pre_segment;
            }

            public static function stem($word)
            {
                return \yioop_codec\stem_en\stem(static::class, $word);
            }

            // Its existence is what extractTermSentencePositionsTags asks.
            public static function tagTokenizePartOfSpeech($text)
            {
                return \yioop_codec\triplets_en\tagTokenizePartOfSpeech(static::class, $text);
            }

            public static function extractTripletsPhrases($word_and_phrase_list, $lang = null)
            {
                return \yioop_codec\triplets_en\extractTripletsPhrases(static::class, $word_and_phrase_list);
            }

            /** tests/text/CanonicalTest.php sets Yioop's replacement list. */
            public static $recorded_substitutions = [];

            public function canonicalizePunctuatedTerms(&$string)
            {
                static $substitutions = [];
                $substitutions = static::$recorded_substitutions;
                return \yioop_codec\canonical_en\canonicalizePunctuatedTerms($this, $string);
            }
        }
    }
}

namespace seekquarry\yioop\library {
    if (!class_exists(NWordGrams::class, false)) {
        class NWordGrams
        {
            public static $ngrams = [];

            public static function ngramsContains($phrase, $lang, $filter_prefix = 2)
            {
                return \yioop_codec\ngrams\ngramsContains(static::class, $phrase, $lang, $filter_prefix);
            }
        }
    }
}
