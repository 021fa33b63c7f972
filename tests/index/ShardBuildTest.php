<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

require_once __DIR__ . "/../support/yioop-log-stand-ins.php";

/**
 * yioop_codec\shard\addDocumentWords and the save steps against Yioop's
 * own IndexShard methods, recorded by tests/tools/record/record-build.php into
 * tests/fixtures/shard/build.json: from the state a new IndexShard starts in, each
 * call must return what Yioop's returned, write the same bytes to its
 * stream and leave every state property (serialized) as Yioop's left it.
 * Input outside the native functions' types must be declined: null, and
 * nothing changed, so that the switched method runs Yioop's PHP on it.
 */
class ShardBuildTest extends TestCase
{
    private static function recording(): array
    {
        return json_decode(file_get_contents(__DIR__ . "/../fixtures/shard/build.json"), true);
    }

    public static function recordedSequences(): iterable
    {
        foreach (array_keys(self::recording()["sequences"]) as $name) {
            yield $name => [$name];
        }
    }

    /** @dataProvider recordedSequences */
    #[DataProvider('recordedSequences')]
    public function testEachCallLeavesYioopsState(string $name): void
    {
        if ((ini_get('yioop.format') ?: '2019') !== '2019') {
            $this->markTestSkipped("recorded from Yioop's 2021 line, whose postings are in the 2019 format");
        }
        $recording = self::recording();
        $calls = $recording["sequences"][$name];
        $shard = new BuildingShard(unserialize(base64_decode($recording["initial"])));
        foreach ($calls as $i => $call) {
            if (isset($call["set"])) {
                foreach (unserialize(base64_decode($call["set"])) as $property => $value) {
                    $shard->$property = $value;
                }
                continue;
            }
            if (isset($call["step"])) {
                if (!$this->replayStep($shard, $call, $i === count($calls) - 1)) {
                    return;
                }
                continue;
            }
            $args = unserialize(base64_decode($call["args"]));
            $shard->aux = base64_decode($call["aux"]);
            $before = $shard->digest();
            $result = \yioop_codec\shard\addDocumentWords($shard, ...$args);
            if ($result === null) {
                $this->assertSame(count($calls) - 1, $i, "only the last call of a sequence is one to decline");
                $this->assertSame($before, $shard->digest(), "a declined call changes nothing");
                $this->assertNull($shard->aux_args, "a declined call does not even pack the auxiliary keys");
                return;
            }
            $this->assertArrayHasKey("returns", $call["result"], "call $i: Yioop threw, the native call did not decline");
            $this->assertSame(unserialize(base64_decode($call["result"]["returns"])), $result, "call $i");
            $this->assertSame([$args[6], $args[7]], $shard->aux_args, "call $i: the auxiliary keys come from the shard's method");
            $this->assertSame($call["state"], $shard->digest(), "call $i");
            $shard->aux_args = null;
        }
        $this->assertArrayNotHasKey("throws", end($calls)["result"] ?? []);
    }

    /**
     * One save step; false where it declined (then it must be the last of
     * its sequence and change nothing).
     */
    private function replayStep(BuildingShard $shard, array $call, bool $last): bool
    {
        $stream = fopen("php://memory", "w+b");
        $args = array_map(fn($arg) => $arg === "STREAM" ? $stream : $arg, unserialize(base64_decode($call["args"])));
        $before = $shard->digest();
        $result = ("yioop_codec\\shard\\" . $call["step"])($shard, ...$args);
        rewind($stream);
        $written = stream_get_contents($stream);
        if ($result === null) {
            $this->assertTrue($last, "{$call["step"]}: only the last call of a sequence is one to decline");
            $this->assertSame($before, $shard->digest(), "{$call["step"]}: a declined call changes nothing");
            $this->assertSame("", $written, "{$call["step"]}: a declined call writes nothing");
            return false;
        }
        $this->assertTrue($result, $call["step"]);
        $this->assertArrayHasKey("returns", $call["result"], "{$call["step"]}: Yioop threw, the native call did not decline");
        $this->assertSame($call["written"], sha1($written), "{$call["step"]}: the bytes written");
        $this->assertSame($call["state"], $shard->digest(), $call["step"]);
        return true;
    }

    /**
     * The auxiliary keys are packed natively on Yioop's IndexShard, without
     * calling its packAuxiliaryDocumentKeys, and must be what Yioop's gave
     * (the recording has links, with none, and pages with description
     * scores); with a MAX_AUX_DOC_KEYS that is not an int the method is
     * called, as for any other class. In a process of its own, where a
     * class of IndexShard's name can be declared.
     */
    public function testAuxiliaryKeysAreYioopsWithoutTheCall(): void
    {
        if ((ini_get('yioop.format') ?: '2019') !== '2019') {
            $this->markTestSkipped("recorded from Yioop's 2021 line, whose postings are in the 2019 format");
        }
        foreach (['200' => false, '"200"' => true] as $max => $called) {
            [$compared, $differ, $packs, $scored] = SettingProcess::run('yioop.format', '2019',
                self::namedShardReplay($max, __DIR__ . "/../fixtures/shard/build.json"));
            $this->assertGreaterThan(10, $scored, "MAX_AUX_DOC_KEYS $max: calls with description scores");
            $this->assertGreaterThan($scored + 10, $compared, "MAX_AUX_DOC_KEYS $max: calls replayed");
            $this->assertSame([], $differ, "MAX_AUX_DOC_KEYS $max: calls whose state is not Yioop's");
            $this->assertSame($called ? $compared : 0, $packs,
                "MAX_AUX_DOC_KEYS $max: packAuxiliaryDocumentKeys calls");
        }
    }

    /**
     * A script replaying the recorded addDocumentWords calls on a class
     * named as Yioop's IndexShard: prints [calls compared, those whose state
     * differs from Yioop's, packAuxiliaryDocumentKeys calls, calls with
     * description scores].
     */
    private static function namedShardReplay(string $max, string $fixture): string
    {
        return 'namespace seekquarry\\yioop\\library;
            final class IndexShard {
                const MAX_AUX_DOC_KEYS = ' . $max . ';
                public $words, $num_docs_word, $doc_infos, $docids_len, $word_docs_len, $num_docs,
                    $num_link_docs, $len_all_docs, $len_all_link_docs, $word_docs, $word_docs_packed,
                    $word_postings, $prefixes, $prefixes_len, $words_len, $last_flattened_words_count,
                    $generation;
                public $aux = "";
                public $packs = 0;
                public $names = [];
                public function __construct(array $state) {
                    foreach ($state as $name => $value) { $this->$name = $value; $this->names[$name] = $name; }
                }
                public function packAuxiliaryDocumentKeys($scores = [], $ranks = []) {
                    $this->packs++;
                    return $this->aux;
                }
            }
            $recording = json_decode(file_get_contents(' . var_export($fixture, true) . '), true);
            [$compared, $differ, $packs, $scored] = [0, [], 0, 0];
            foreach ($recording["sequences"] as $name => $calls) {
                $shard = new IndexShard(unserialize(base64_decode($recording["initial"])));
                foreach ($calls as $i => $call) {
                    if (isset($call["set"])) {
                        foreach (unserialize(base64_decode($call["set"])) as $p => $v) { $shard->$p = $v; }
                        continue;
                    }
                    if (isset($call["step"])) { break; }
                    $shard->aux = base64_decode($call["aux"]);
                    $args = unserialize(base64_decode($call["args"]));
                    if (\\yioop_codec\\shard\\addDocumentWords($shard, ...$args) === null) { break; }
                    $compared++;
                    $scored += (int)!empty($args[6]);
                    if (array_map(fn($p) => sha1(serialize($shard->$p)), $shard->names) != $call["state"]) { $differ[] = "$name/$i"; }
                }
                $packs += $shard->packs;
            }
            echo json_encode([$compared, $differ, $packs, $scored]), "\\n";';
    }

    public function testTheMergeLogsAsYioopsDoes(): void
    {
        $shard = new BuildingShard(unserialize(base64_decode(self::recording()["initial"])));
        \yioop_codec\shard\addDocumentWords($shard, str_repeat("k", 24), 1, ["a" => [1], "b" => [2]]);
        \seekquarry\yioop\library\YioopLog::$lines = [];
        $this->assertTrue(\yioop_codec\shard\mergeWordPostingsToString($shard));
        $lines = \seekquarry\yioop\library\YioopLog::$lines;
        $this->assertSame("Merge index shard postings to string to save memory.", $lines[0]);
        $this->assertStringStartsWith("..outer loop merge index postings to string .. processing 0 of 2.", $lines[1]);
        $this->assertSame(["..Merge Index Posting Final Copy", "CrawlDaemon::processHandler(true)",
            "..Done Merge Index Posting Final Copy"], array_slice($lines, 2));
    }

    public function testSaveStepsOfAPackedShardDoNothing(): void
    {
        $shard = new BuildingShard(unserialize(base64_decode(self::recording()["initial"])));
        \yioop_codec\shard\addDocumentWords($shard, str_repeat("k", 24), 1, ["a" => [1]]);
        $shard->word_docs_packed = true;
        $before = $shard->digest();
        $this->assertTrue(\yioop_codec\shard\mergeWordPostingsToString($shard));
        $this->assertTrue(\yioop_codec\shard\packWords($shard));
        $this->assertSame($before, $shard->digest());
    }

    public function testTheRecordingCoversDeclinesAndRejectedKeys(): void
    {
        $results = [];
        foreach (self::recording()["sequences"] as $calls) {
            foreach ($calls as $call) {
                $results[] = $call["result"]["returns"] ?? ($call["result"]["throws"] ?? "set");
            }
        }
        $this->assertContains(base64_encode(serialize(false)), $results, "keys that are not whole return false");
        $this->assertContains("TypeError", $results, "Yioop throws on a position list that is not an array");
    }

    public function testAShardWithoutItsPropertiesIsDeclined(): void
    {
        $shard = new \stdClass();
        $this->assertNull(\yioop_codec\shard\addDocumentWords($shard, str_repeat("k", 24), 1, ["a" => [1]]));
        $this->assertEquals(new \stdClass(), $shard);
        // The same fields as dynamic properties: not IndexShard's, declined too.
        $recording = self::recording();
        $dynamic = (object)unserialize(base64_decode($recording["initial"]));
        $copy = clone $dynamic;
        $this->assertNull(\yioop_codec\shard\addDocumentWords($dynamic, str_repeat("k", 24), 1, ["a" => [1]]));
        $this->assertEquals($copy, $dynamic);
    }

    public function testANonObjectShardIsATypeError(): void
    {
        $this->expectException(\TypeError::class);
        \yioop_codec\shard\addDocumentWords("shard", str_repeat("k", 24), 1, []);
    }
}

/**
 * Stands in for IndexShard: its state properties, and its
 * packAuxiliaryDocumentKeys giving what Yioop's gave for the call.
 */
final class BuildingShard
{
    public $words;
    public $num_docs_word;
    public $doc_infos;
    public $docids_len;
    public $word_docs_len;
    public $num_docs;
    public $num_link_docs;
    public $len_all_docs;
    public $len_all_link_docs;
    public $word_docs;
    public $word_docs_packed;
    public $word_postings;
    public $prefixes;
    public $prefixes_len;
    public $words_len;
    public $last_flattened_words_count;
    public $generation;
    /** What packAuxiliaryDocumentKeys returns, and the arguments it got. */
    public string $aux = "";
    public ?array $aux_args = null;
    /** name => name of the recorded state properties. */
    private array $state_names = [];

    public function __construct(array $state)
    {
        foreach ($state as $name => $value) {
            $this->$name = $value;
            $this->state_names[$name] = $name;
        }
    }

    public function packAuxiliaryDocumentKeys($description_scores = [], $user_ranks = [])
    {
        $this->aux_args = [$description_scores, $user_ranks];
        return $this->aux;
    }

    /** As tests/tools/record/record-build.php digests IndexShard's state. */
    public function digest(): array
    {
        return array_map(fn($p) => sha1(serialize($this->$p)), $this->state_names);
    }
}
