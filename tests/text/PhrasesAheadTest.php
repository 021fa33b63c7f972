<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * With yioop.compress_threads above 1, the pages and links a shard build
 * reads (getObjects) have their phrase lists made on another thread, and
 * PhraseParser::extractPhrasesInLists gives those for exactly their text:
 * the same lists, TIMES' keys and the stemmer's scratch as the passes
 * chained by PHP give (tests/support/phrases_ahead/child.php, in a process
 * of its own).
 */
class PhrasesAheadTest extends TestCase
{
    private static function child(int $threads, ?int $change_at = null): array
    {
        $cmd = [PHP_BINARY, '-d', 'extension=' . LoadedExtension::path(), '-d', "yioop.compress_threads=$threads",
            __DIR__ . '/../support/phrases_ahead/child.php'];
        if ($change_at !== null) {
            $cmd[] = (string)$change_at;
        }
        $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        self::assertSame(0, proc_close($proc), $err . $out);
        self::assertSame('', $err, 'no warning or output besides the report');
        return json_decode($out, true, flags: JSON_THROW_ON_ERROR);
    }

    public function testListsMadeAheadAreThosePhpsPassesMake(): void
    {
        $report = self::child(2);
        $this->assertSame($report['sites'], $report['read']);
        $this->assertGreaterThan(80, $report['pages'], 'pages whose text is long, and one link');
        $this->assertSame($report['sites'], $report['same'], 'first different: ' . json_encode($report['differs']));
        // The first text hands the others over, and runs the passes itself.
        $this->assertSame($report['sites'] - 1, $report['used']);
        $this->assertSame($report['used'], $report['made']);
        $this->assertSame(1, $report['runs']);
    }

    public function testOneThreadMakesNothingAhead(): void
    {
        $report = self::child(1);
        $this->assertSame($report['sites'], $report['same']);
        $this->assertSame([0, 0], [$report['made'], $report['used']]);
        $this->assertSame($report['sites'], $report['runs']);
    }

    /** A static the passes read changed midway: what was made before is not used. */
    public function testListsMadeBeforeAChangeAreNotUsed(): void
    {
        $change_at = 40;
        $report = self::child(2, $change_at);
        $this->assertSame($change_at, $report['same']);
        $this->assertSame($change_at - 1, $report['used'], 'none after the change');
        $this->assertSame($report['sites'] - $change_at + 1, $report['runs']);
    }
}
