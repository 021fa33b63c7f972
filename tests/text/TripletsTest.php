<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;
use seekquarry\yioop\locale\en_US\resources\Tokenizer;

require_once __DIR__ . '/../support/phrase/stand-ins.php';
require_once __DIR__ . '/../support/stem/scratch.php';
require_once __DIR__ . '/../support/triplets/recording.php';

/**
 * yioop_codec\triplets_en\extractTripletsPhrases and
 * tagTokenizePartOfSpeech against Yioop's own en_US Tokenizer
 * (tests/tools/record/record-triplets.php): the sentences of 100 pages of a real
 * crawl's summaries, as the shard build makes them, and crafted ones for
 * each rule, with the stemmer's scratch after each call; the texts of 40
 * pages and the crafted ones tagged. The lexicon is the lines of Yioop's
 * that tag a word of these texts. Then a threshold written as a string,
 * as the installer writes constants, and what is left to Yioop's PHP.
 */
class TripletsTest extends TestCase
{
    private static array $recorded;

    public static function setUpBeforeClass(): void
    {
        self::$recorded = TripletsRecording::load();
        TripletsRecording::defineConstants(self::$recorded, self::$recorded['threshold']);
    }

    protected function setUp(): void
    {
        TripletsRecording::setStatics(self::$recorded);
    }

    private static function extract($list)
    {
        return \yioop_codec\triplets_en\extractTripletsPhrases(Tokenizer::class, $list);
    }

    public function testEveryRecordedListGivesYioopsQuestionsAnswersAndScratch(): void
    {
        $calls = self::$recorded['calls'];
        $this->assertGreaterThan(150, count($calls));
        $with_questions = 0;
        foreach ($calls as $n => [$sentences, $expected, $scratch]) {
            $this->assertSame($expected, self::extract(TripletsRecording::sentences($sentences)), "call $n");
            $this->assertSame($scratch, stemScratch(Tokenizer::class), "call $n");
            $with_questions += !empty($expected['QUESTION_LIST']);
        }
        $this->assertGreaterThan(75, $with_questions, 'the recording makes questions');
    }

    public function testEveryRecordedTextIsTaggedAsYioopTagsIt(): void
    {
        $this->assertGreaterThan(90, count(self::$recorded['tagged']));
        foreach (self::$recorded['tagged'] as $n => [$text, $expected]) {
            $this->assertSame($expected, \yioop_codec\triplets_en\tagTokenizePartOfSpeech(Tokenizer::class,
                base64_decode($text)), "text $n");
        }
    }

    /** The installer writes constants as strings: a numeric string compares as its number. */
    public function testAThresholdWrittenAsAStringGivesTheSameQuestions(): void
    {
        $child = __DIR__ . '/../support/triplets/string-threshold.php';
        $cmd = [PHP_BINARY, '-d', 'extension=' . LoadedExtension::path(), $child, (string)self::$recorded['threshold']];
        $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        $this->assertSame(0, proc_close($proc), $err);
        $expected = array_map(fn($call) => $call[1], array_slice(self::$recorded['calls'], 0, 20));
        $this->assertSame(json_encode($expected), trim($out), $err);
    }

    /**
     * A damaged lexicon.txt.gz: Yioop's gzdecode warns once a tagging call
     * and tags with an empty lexicon. The native call declines before any
     * warning of its own, so Yioop's PHP warns once, as without the
     * extension (an intact file: answered, no warning).
     */
    public function testADamagedLexiconDeclinesWithoutAWarningOfItsOwn(): void
    {
        // Yioop's warnings, a call (tests/tools/record/record-triplets-lexicon.php).
        $yioop = json_decode(file_get_contents(__DIR__ . '/../fixtures/triplets/lexicon.json'), true);
        $child = __DIR__ . '/../support/triplets/damaged-lexicon.php';
        foreach ($yioop as $damage => $recorded) {
            $this->assertTrue($recorded['locale_dir']);
            // Where Yioop warns, the call must be Yioop's (it alone warns).
            $declines = array_map(fn($warnings) => $warnings !== [], $recorded['warnings']);
            $cmd = [PHP_BINARY, '-d', 'extension=' . LoadedExtension::path(), $child, $damage];
            $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
            $out = stream_get_contents($pipes[1]);
            $err = stream_get_contents($pipes[2]);
            $this->assertSame(0, proc_close($proc), $err);
            $this->assertSame(['declined' => $declines, 'warnings' => []],
                json_decode($out, true), "$damage: $out $err");
        }
        // The recording covers the case: Yioop warns once a call, each call.
        $this->assertSame([1, 1], array_map('count', $yioop['data']['warnings']));
    }

    public function testWhatIsLeftToYioopsPhp(): void
    {
        $list = ['the big dog quickly ate a bone' => [1]];
        $this->assertNotNull(self::extract($list));
        $this->assertNull(\yioop_codec\triplets_en\extractTripletsPhrases(self::class, $list), 'another class');
        $this->assertNull(self::extract('the big dog ate'), 'not an array');
        $this->assertNull(self::extract(["the dog ate a \xff bone" => [1]]), 'a kept sentence that is not UTF-8');
        $this->assertNotNull(self::extract(["a \xff" => [1]]), 'a sentence too short to keep is never read');
        $deep = str_repeat('the cat and the dog ', 600) . 'ran home';
        $this->assertNull(self::extract([$deep => [1]]), 'nested beyond the native parser');
        Tokenizer::$question_token = 'q q';
        $this->assertNull(self::extract($list), 'a question token that is not one word');
        TripletsRecording::setStatics(self::$recorded);
        Tokenizer::$noun_type = ['NN', '1'];
        $this->assertNull(self::extract($list), 'a numeric part of speech (in_array would compare numbers)');
        TripletsRecording::setStatics(self::$recorded);
        Tokenizer::$no_stem_list = ['10'];
        $this->assertNull(self::extract($list), 'a numeric no-stem word');
        TripletsRecording::setStatics(self::$recorded);
        $this->assertNull(\yioop_codec\triplets_en\tagTokenizePartOfSpeech(Tokenizer::class, 12), 'not a string');
    }

    /** The statics are read at each call: Yioop's lists may be changed. */
    public function testChangedPartOfSpeechListsAreRead(): void
    {
        $list = ['the big dog quickly ate a bone' => [1]];
        $before = self::extract($list);
        Tokenizer::$verb_type = ['VBZ'];
        $this->assertNotSame($before, self::extract($list));
        $this->assertSame([], self::extract($list)['QUESTION_LIST'], 'no verb, no triplet');
    }
}
