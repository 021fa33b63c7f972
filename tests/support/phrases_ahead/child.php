<?php
/**
 * tests/text/PhrasesAheadTest.php's process (its own: the stand-ins take
 * Yioop's class names, and yioop.compress_threads is set at start):
 *
 *   php -d extension=SO -d yioop.compress_threads=N child.php [CHANGE_AT]
 *
 * Asks PhraseParser::extractPhrasesInLists for each page's and link's
 * text as the shard build makes it, once before any archive is read (each
 * pass runs) and once after getObjects read them back from an archive, as
 * the build does (the memo's lists dropped in between). Prints JSON: the pages, those whose lists and stemmer's
 * scratch were the same both times (TIMES compared by key and type), the
 * first that differed, and the lists made ahead and used. With CHANGE_AT,
 * the question token changes before that page of the second round (and
 * the first round's lists after it are not compared).
 */
namespace YioopCodec\Tests;

use seekquarry\yioop\library\NWordGrams;
use seekquarry\yioop\library\BloomFilterFile;
use seekquarry\yioop\library\PhraseParser;
use seekquarry\yioop\library\UrlParser;
use seekquarry\yioop\locale\en_US\resources\Tokenizer;

$support = dirname(__DIR__);
foreach (['archive/stand-ins.php', 'ngrams/BloomFilterFile.php', 'phrase/stand-ins.php', 'stem/scratch.php',
    'triplets/recording.php', 'phrases_ahead/stand-ins.php'] as $file) {
    require_once "$support/$file";
}
$change_at = isset($argv[1]) ? (int)$argv[1] : null;

$phrase = json_decode(gzdecode(file_get_contents("$support/../fixtures/phrase/recorded.json.gz")), true);
$triplets = TripletsRecording::load();
TripletsRecording::defineConstants($triplets, $triplets['threshold']);
TripletsRecording::setStatics($triplets);
define('seekquarry\yioop\configs\PUNCT', $phrase['punct']);
define('seekquarry\yioop\configs\NS_LOCALE', 'seekquarry\yioop\locale\\');
define('seekquarry\yioop\configs\ENABLE_QUESTION_ANSWERING', true);
Tokenizer::$no_stem_list = $phrase['no_stem_list'];
PhraseParser::$programming_language_map = $phrase['programming_language_map'];
PhraseParser::$tokenizers = ['en-US' => new Tokenizer()];
$filter = new BloomFilterFile();
$filter->num_keys = $phrase['filter']['num_keys'];
$filter->filter_size = $phrase['filter']['filter_size'];
$filter->filter = base64_decode($phrase['filter']['filter']);
NWordGrams::$ngrams = ['en_US' => ['all' => $filter]];

// Pages of the recorded texts, and links between them (a link's text is
// its description).
$sites = [];
foreach (array_values(array_filter($phrase['calls'], fn($call) => strlen($call[0]) > 200)) as $i => [$text]) {
    $sites[] = ['e' => 'text/html', 'l' => "https://docs.example-site.org/manual/part-$i/page_$i.html",
        's' => "Page $i of the manual", 't' => $text, 'bg' => 'en-US'];
    $sites[] = ['e' => 'link', 'l' => "https://docs.example-site.org/from/$i", 's' => "", 't' => "link $i",
        'bg' => 'en-US'];
}
$sites[] = ['e' => 'link', 'l' => 'https://docs.example-site.org/long', 's' => '',
    't' => str_repeat('A long link text about manuals. ', 20), 'bg' => 'en-US'];

/** The text buildInvertedIndexShard makes of a site. */
function buildText(array $site): string
{
    if ($site['e'] == 'link') {
        return $site['t'];
    }
    return UrlParser::getWordsInHostUrl($site['l']) . " .. " . $site['s'] . " ..  "
        . UrlParser::getWordsLastPathPartUrl($site['l']) . " .. " . $site['t'];
}

/**
 * Each site's lists and the stemmer's scratch after them, TIMES by key and
 * type. With $made, waits after the first (which hands the pages over)
 * until that many lists are made (under valgrind, slowly), so that none is
 * left to PHP for want of time.
 */
function round(array $sites, ?int $change_at = null, ?int $made = null): array
{
    Tokenizer::stem('beginning');
    $out = [];
    foreach ($sites as $i => $site) {
        if ($i === $change_at) {
            Tokenizer::$question_token = Tokenizer::$question_token . 'x';
        }
        if ($i == 1 && $made !== null) {
            for ($wait = 0; aheadCounts()[0] < $made && $wait < 1200; $wait++) {
                usleep(50000);
            }
        }
        $lists = PhraseParser::extractPhrasesInLists(buildText($site), $site['bg']);
        $lists['TIMES'] = array_map('gettype', $lists['TIMES']);
        $out[] = [$lists, stemScratch(Tokenizer::class)];
    }
    return $out;
}

function aheadCounts(): array
{
    ob_start();
    phpinfo(INFO_MODULES);
    preg_match("/Pages' phrase lists made ahead in this process => (\d+) made, (\d+) used/", ob_get_clean(), $m);
    return [(int)$m[1], (int)$m[2]];
}

$first = round($sites);
// The memo's lists made in another state are dropped: the links' short
// texts are not given from it.
$token = Tokenizer::$question_token;
Tokenizer::$question_token = "{$token}x";
PhraseParser::extractPhrasesInLists('the memo forgotten', 'en-US');
Tokenizer::$question_token = $token;
$runs = PhraseParser::$runs;

$archive = new ArchiveWriterStandIn(tempnam(sys_get_temp_dir(), 'phrases-ahead'));
$archive->count = 0;
$fh = fopen($archive->filename, 'r+');
$archive->writeInfoBlock($fh);
fclose($fh);
$records = $sites;
\yioop_codec\archive\addObjects($archive, 'U', $records, null, null, false);
$read = \yioop_codec\archive\getObjects($archive, $records[0]['U'], count($records), true, null, 100000000);
unlink($archive->filename);
$same = 0;
$differs = null;
$long = count(array_filter($sites, fn($site) => strlen(buildText($site)) > 512));
$threads = (int)ini_get('yioop.compress_threads');
$second = round(array_column($read, 1), $change_at, $threads > 1 ? count($sites) - 1 : null);
foreach ($second as $i => $got) {
    if ($change_at !== null && $i >= $change_at) {
        break;
    }
    if ($got == $first[$i] && $got[0] === $first[$i][0]) {
        $same++;
    } else {
        $differs ??= $i;
    }
}
[$made, $used] = aheadCounts();
echo json_encode(['sites' => count($sites), 'pages' => $long,
    'same' => $same, 'differs' => $differs, 'made' => $made, 'used' => $used,
    'runs' => PhraseParser::$runs - $runs, 'read' => count($read)]), "\n";
