<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;
use seekquarry\yioop\locale\en_US\resources\Tokenizer;

require_once __DIR__ . '/../support/phrase/stand-ins.php';

/**
 * yioop_codec\canonical_en\canonicalizePunctuatedTerms against Yioop's own
 * en_US Tokenizer::canonicalizePunctuatedTerms
 * (tests/tools/record/record-canonical.php): the phrase strings of 100 pages of a
 * real crawl's summaries and crafted texts for each replacement, with
 * Yioop's replacement list as the method's statics held it. The native
 * function reads that list from the method's statics, so the stand-in
 * Tokenizer's method holds it there.
 */
class CanonicalTest extends TestCase
{
    private static array $recorded;

    public static function setUpBeforeClass(): void
    {
        self::$recorded = unserialize(gzdecode(file_get_contents(__DIR__ . '/../fixtures/canonical/recorded.gz')));
    }

    protected function setUp(): void
    {
        Tokenizer::$recorded_substitutions = self::$recorded['substitutions'];
    }

    private static function canonical(string $text): array
    {
        $done = (new Tokenizer())->canonicalizePunctuatedTerms($text);
        return [$done, $text];
    }

    public function testEveryRecordedTextGivesYioopsText(): void
    {
        $calls = self::$recorded['calls'];
        $this->assertCount(133, $calls);
        $this->assertGreaterThan(30, count(array_filter($calls, fn($c) => $c[1] !== null)));
        foreach ($calls as $i => [$text, $changed, $type]) {
            if (!mb_check_encoding($text, 'UTF-8')) {
                continue;
            }
            $this->assertSame([true, $changed ?? $text], self::canonical($text), "text $i");
        }
    }

    /**
     * Random texts over the letters, digits, marks and multi-byte letters
     * the replacements turn on, against PHP's own preg_replace of Yioop's
     * whole list.
     */
    public function testRandomTextsAsPhpsOwnPregReplace(): void
    {
        $list = self::$recorded['substitutions'];
        $alphabet = ['a', 'n', 't', 'd', 'l', 'v', 'e', 'r', 's', 'S', 'h', 'I', 'T', 'w', 'o', "'", "'", "'", ' ', ' ',
            '1', '_', '.', "\n", 'é', 'ª', 'Ü', 'µ', '×', 'M', 'D', ','];
        mt_srand(19);
        for ($i = 0; $i < 3000; $i++) {
            $text = '';
            for ($n = mt_rand(0, 40); $n > 0; $n--) {
                $text .= $alphabet[mt_rand(0, count($alphabet) - 1)];
            }
            $want = preg_replace(array_keys($list), array_values($list), $text);
            $this->assertSame([true, $want], self::canonical($text), json_encode($text));
        }
    }

    /**
     * PCRE's limits: Yioop's one preg_replace leaves NULL where PCRE gives
     * up (a long run of letters is searched at every start, apostrophe or
     * not), at the limit PHP hands PCRE. Recorded under several limits, JIT
     * on and off (tests/tools/record/record-canonical-limits.php): the
     * native call gives Yioop's text or NULL, or declines.
     */
    public function testPcreLimitsAsYioopsPregReplaceMeetsThem(): void
    {
        $recorded = unserialize(gzdecode(file_get_contents(__DIR__ . '/../fixtures/canonical/limits.gz')));
        $saved = [ini_get('pcre.jit'), ini_get('pcre.backtrack_limit')];
        $answered = 0;
        try {
            foreach ($recorded['calls'] as [$jit, $limit, $i, $md5]) {
                ini_set('pcre.jit', $jit);
                ini_set('pcre.backtrack_limit', $limit);
                $text = $recorded['texts'][$i];
                [$done, $canonical] = self::canonical($text);
                if (!$done) {
                    $this->assertSame($recorded['texts'][$i], $canonical, 'a decline changes nothing');
                    continue;
                }
                // The stand-in's PHP path is Yioop's: only native answers count.
                $answered++;
                $this->assertSame($md5, $canonical === null ? null : md5($canonical), "jit $jit, limit $limit, text $i");
            }
        } finally {
            ini_set('pcre.jit', $saved[0]);
            ini_set('pcre.backtrack_limit', $saved[1]);
        }
        $this->assertGreaterThan(20, $answered);
    }

    public function testTheListIsTheMethodsOwnStatic(): void
    {
        $text = "I don't know why he's here";
        Tokenizer::$recorded_substitutions = [];
        $this->assertSame([true, $text], self::canonical($text));
        Tokenizer::$recorded_substitutions = ["/\\b(\\p{L}+)n\\'t/" => ' $1 not', "/know/" => 'see'];
        $this->assertSame([true, "I  do not see why he's here"], self::canonical($text));
    }

    public function testAFailedPhpReplacementLeavesNullAsYioopsOneCallDoes(): void
    {
        // The first replacement is Yioop's, natively; the second is PHP's,
        // and PCRE refuses its pattern.
        Tokenizer::$recorded_substitutions = ["/\\b(\\p{L}+)n\\'t/" => ' $1 not', "/(?<=a+)b/" => 'c'];
        $this->assertSame([true, null], @self::canonical("don't"));
    }

    public function testDeclinesTextThatIsNotUtf8(): void
    {
        $bad = array_filter(self::$recorded['calls'], fn($c) => !mb_check_encoding($c[0], 'UTF-8'));
        $this->assertNotEmpty($bad);
        foreach ($bad as [$text, $changed, $type]) {
            $this->assertSame('null', $type, 'Yioop gives null');
            $this->assertSame([false, $text], self::canonical($text));
        }
    }

    public function testDeclinesAListThatIsNotStrings(): void
    {
        Tokenizer::$recorded_substitutions = [0 => 'x'];
        $this->assertSame([false, "don't"], self::canonical("don't"));
        Tokenizer::$recorded_substitutions = ['/x/' => ['y']];
        $this->assertSame([false, "don't"], self::canonical("don't"));
    }
}
