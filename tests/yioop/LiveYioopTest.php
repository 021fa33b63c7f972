<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * The live comparison: fresh random inputs, run through Yioop's own
 * Utility.php (a separate PHP process, no extension) and through the
 * extension, with identical results required. Needs YIOOP_DIR pointing at a
 * Yioop checkout; YIOOP_LIVE_SEED replays a run.
 *
 *   YIOOP_DIR=/path/to/yioop php -d extension=... /usr/bin/phpunit --filter LiveYioop
 */
class LiveYioopTest extends TestCase
{
    private const CASES_PER_FUNCTION = 400;
    private const FORMAT_DEPENDENT = ['packPosting', 'unpackPosting'];

    private static ?string $dir;
    private static int $seed;

    public static function setUpBeforeClass(): void
    {
        self::$dir = getenv('YIOOP_DIR') ?: null;
        self::$seed = (int)(getenv('YIOOP_LIVE_SEED') ?: random_int(1, PHP_INT_MAX));
        if (self::$dir !== null) {
            fwrite(STDERR, "\nLiveYioopTest seed: " . self::$seed
                . " (replay with YIOOP_LIVE_SEED=" . self::$seed . ")\n");
        }
    }

    protected function setUp(): void
    {
        if (self::$dir === null) {
            $this->markTestSkipped('Set YIOOP_DIR to a Yioop checkout to compare against '
                . "Yioop's own Utility.php (see README, 'Check against your Yioop').");
        }
        if (!is_file(self::$dir . '/src/library/Utility.php')) {
            $this->fail('YIOOP_DIR has no src/library/Utility.php: ' . self::$dir);
        }
    }

    /** Which posting format the tree at YIOOP_DIR writes. */
    private static function treeFormat(): string
    {
        $source = file_get_contents(self::$dir . '/src/library/Utility.php');
        preg_match('/function\s+packPosting\b.*?\n}/s', $source, $m);
        return preg_match('/\[0\]\s*\+\+/', $m[0] ?? '') ? '2015' : '2019';
    }

    private static function treeDefines(string $function): bool
    {
        $source = file_get_contents(self::$dir . '/src/library/Utility.php');
        return (bool)preg_match('/function\s+' . $function . '\s*\(/', $source);
    }

    public function testFormatIndependentFunctions(): void
    {
        $functions = array_diff(array_keys(self::generators()), self::FORMAT_DEPENDENT);
        $this->compareAll(array_values(array_filter($functions, [self::class, 'treeDefines'])));
    }

    public function testPostingFunctionsInTheTreesFormat(): void
    {
        $format = self::treeFormat();
        if ($format !== (ini_get('yioop.format') ?: '2019')) {
            $this->markTestSkipped("the tree writes the $format format: "
                . "run with -d yioop.format=$format to compare packPosting and unpackPosting");
        }
        $this->compareAll(self::FORMAT_DEPENDENT);
    }

    private function compareAll(array $functions): void
    {
        mt_srand(self::$seed);
        $calls = [];
        foreach ($functions as $function) {
            $generate = self::generators()[$function];
            for ($i = 0; $i < self::CASES_PER_FUNCTION; $i++) {
                $calls[] = ['fn' => $function, 'args' => $generate()];
            }
        }
        $yioop = $this->runInYioop($calls);
        foreach ($calls as $i => $call) {
            $this->assertSame(
                Vectors::jsonText($yioop[$i]),
                Vectors::jsonText(self::runNative($call)),
                "seed " . self::$seed . ", call " . Vectors::toJson($call['args']) . " to {$call['fn']}"
            );
        }
    }

    private static function runNative(array $call): array
    {
        $args = $call['args'];
        try {
            $ret = ('\\' . $call['fn'])(...$args);
            return ['ret' => Vectors::encode($ret), 'args_after' => Vectors::encode($args)];
        } catch (\Throwable $e) {
            return ['throws' => get_class($e)];
        }
    }

    private function runInYioop(array $calls): array
    {
        $in = tempnam(sys_get_temp_dir(), 'yioop-live-in');
        $out = tempnam(sys_get_temp_dir(), 'yioop-live-out');
        try {
            $lines = array_map(fn($c) => json_encode(['fn' => $c['fn'], 'args' => Vectors::encode($c['args'])],
                JSON_UNESCAPED_SLASHES), $calls);
            file_put_contents($in, implode("\n", $lines) . "\n");
            $command = implode(' ', array_map('escapeshellarg',
                [PHP_BINARY, '-n', __DIR__ . '/../tools/yioop/yioop-runner.php', self::$dir, $in, $out]));
            exec("$command 2>&1", $output, $status);
            $this->assertSame(0, $status, "Yioop's side failed:\n" . implode("\n", $output));
            return array_map(fn($l) => json_decode($l, true, 512, JSON_BIGINT_AS_STRING),
                file($out, FILE_IGNORE_NEW_LINES));
        } finally {
            @unlink($in);
            @unlink($out);
        }
    }

    // ---- input generators (mt_rand, seeded) ----

    private static function generators(): array
    {
        return [
            'packPosting' => fn() => [self::docIndex(), self::positions(), (bool)mt_rand(0, 3)],
            'unpackPosting' => fn() => [$s = self::postingString(), self::offset($s), (bool)mt_rand(0, 3)],
            'decodeModified9' => fn() => [$s = self::postingString(), self::offset($s)],
            'nextPostString' => fn() => [$s = self::postingString(), self::offset($s)],
            'addDocIndexPostings' => fn() => [self::postingString(), mt_rand(-1000, 300000)],
            'deltaList' => fn() => [self::positions()],
            'deDeltaList' => fn() => [self::deltas()],
            'encodeModified9' => fn() => [self::encodable()],
            'unpackListModified9' => fn() => [self::anyInt()],
            'docIndexModified9' => fn() => [self::anyInt()],
            'unpackInt' => fn() => [self::bytes(mt_rand(0, 12))],
            'decodeQueueWeightInfo' => fn() => [self::anyInt(), self::crawlOrder()],
            'encodeQueueWeightInfo' => fn() => [mt_rand(-5, 1 << 30), mt_rand(-5, 300), self::crawlOrder()],
            'adjustWeightCallback' => fn() => [mt_rand(0, PHP_INT_MAX), mt_rand(0, PHP_INT_MAX)],
        ];
    }

    /** Doc indexes across 0..2^27, often near the folding boundaries. */
    private static function docIndex(): int
    {
        $edges = [0, 1, 32767, 32768, 32769, 262143, 262144, (1 << 27) - 1];
        return mt_rand(0, 2) ? mt_rand(0, (1 << 27) - 1) : $edges[array_rand($edges)] + mt_rand(-2, 2);
    }

    /** Sorted positions: Yioop's shape, sometimes long, sometimes a first gap of 500-1100. */
    private static function positions(): array
    {
        $count = mt_rand(0, 9) ? mt_rand(0, 12) : mt_rand(13, 3000);
        $position = mt_rand(0, 4) ? 0 : mt_rand(500, 1100);
        $list = [];
        for ($i = 0; $i < $count; $i++) {
            $position += mt_rand(0, 9) ? mt_rand(1, 400) : mt_rand(1, 1 << 24);
            $list[] = $position;
        }
        return $list;
    }

    private static function deltas(): array
    {
        $list = [];
        for ($i = mt_rand(0, 40); $i > 0; $i--) {
            $list[] = mt_rand(0, 20) ? mt_rand(0, 1 << 20) : mt_rand(PHP_INT_MAX >> 2, PHP_INT_MAX);
        }
        return $list;
    }

    /** Lists for encodeModified9: mostly valid, sometimes 0, huge (below 2^62, where Yioop's encoder hangs) or negative. */
    private static function encodable(): array
    {
        $list = [];
        for ($i = mt_rand(0, 40); $i > 0; $i--) {
            $list[] = match (mt_rand(0, 12)) {
                0 => 0,
                1 => mt_rand(1 << 28, (1 << 40)),
                2 => -mt_rand(1, 1 << 30),
                default => mt_rand(1, 1 << mt_rand(1, 28)),
            };
        }
        return $list;
    }

    /** Postings packed by the extension, sometimes damaged. */
    private static function postingString(): string
    {
        $s = '';
        for ($i = mt_rand(1, 6); $i > 0; $i--) {
            $s .= packPosting(self::docIndex(), self::positions());
        }
        return match (mt_rand(0, 5)) {
            0 => substr($s, 0, mt_rand(0, strlen($s))),
            1 => substr_replace($s, self::bytes(mt_rand(1, 9)), mt_rand(0, strlen($s)), mt_rand(0, 6)),
            2 => self::bytes(mt_rand(0, 40)),
            default => $s,
        };
    }

    private static function offset(string $s): int
    {
        return mt_rand(0, 3) ? 4 * mt_rand(0, intdiv(strlen($s), 4)) : mt_rand(-12, strlen($s) + 8);
    }

    private static function anyInt(): int
    {
        return mt_rand(0, 1) ? mt_rand(0, 0xFFFFFFFF) : mt_rand(PHP_INT_MIN, PHP_INT_MAX);
    }

    /** Random bytes from the seeded generator, so a seed replays them too. */
    private static function bytes(int $n): string
    {
        $bytes = '';
        for ($i = 0; $i < $n; $i++) {
            $bytes .= chr(mt_rand(0, 255));
        }
        return $bytes;
    }

    private static function crawlOrder(): mixed
    {
        return [0, 'ad', 'ae', true, false, null][mt_rand(0, 5)];
    }
}
