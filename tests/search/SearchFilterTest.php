<?php
namespace YioopCodec\Tests;

use PHPUnit\Framework\TestCase;

/**
 * yioop_codec\search_filter\isFiltered against Yioop's own
 * SearchverticalsModel::isFiltered: the cases of
 * support/search_filter/run.php on a stand-in of the model, in a PHP process
 * of its own, against what Yioop's PHP gave (fixtures/search_filter,
 * recorded by tools/record/record-search-filter.php). The native function
 * answers a host the model remembers; the rest is Yioop's PHP's.
 */
class SearchFilterTest extends TestCase
{
    /** The cases the native function leaves to Yioop's PHP, and why. */
    private const DECLINED = [
        'a host not remembered: the database' => 'Yioop asks its database',
        'a host remembered as null: the database' => 'isset() is false: Yioop asks its database',
        'a query_filter holding the URL' => "Yioop searches the query's filter first",
        'a URL whose host to work out' => 'Yioop works out the host with UrlParser',
    ];


    private static function recorded(): array
    {
        return json_decode(file_get_contents(__DIR__ . '/../fixtures/search_filter/yioop-2021.json'), true)['cases'];
    }

    public function testTheNativeFunctionGivesYioopsAnswersOrDeclines(): void
    {
        $native = CaseRunner::run(__DIR__ . '/../support/search_filter/run.php', 'stand-ins')['cases'];
        $yioop = self::recorded();
        $this->assertSame(array_column($yioop, 'name'), array_column($native, 'name'));
        foreach ($yioop as $i => $case) {
            $name = $case['name'];
            $this->assertSame(isset(self::DECLINED[$name]), $native[$i]['declined'], "$name: declined");
            $this->assertSame($case['memory_filter'], $native[$i]['memory_filter'], "$name: memory_filter");
            if (!$native[$i]['declined']) {
                $this->assertSame($case['result'], $native[$i]['result'], "$name: result");
            }
        }
    }

    public function testTheRecordingIsStillYioops(): void
    {
        $yioop = getenv('YIOOP_DIR');
        if (!$yioop) {
            $this->markTestSkipped('YIOOP_DIR not set');
        }
        $live = CaseRunner::run(__DIR__ . '/../support/search_filter/run.php', 'yioop', $yioop)['cases'];
        $this->assertSame(self::recorded(), $live);
    }
}
