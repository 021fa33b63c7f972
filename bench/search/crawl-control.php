<?php
/**
 * What Manage Crawls in Yioop's admin pages does for bench/search/run.php,
 * through Yioop's own CrawlModel, in an installed tree:
 *
 *   php crawl-control.php YIOOP_TREE start SEED_URL ALLOWED_PREFIX DESCRIPTION
 *   php crawl-control.php YIOOP_TREE status
 *   php crawl-control.php YIOOP_TREE stop
 *   php crawl-control.php YIOOP_TREE set-index CRAWL_TIME
 *   php crawl-control.php YIOOP_TREE machines NAME=URL ...
 *
 * SEED_URL and ALLOWED_PREFIX may be several, separated by spaces. With --network last
 * (bench/multi), start and stop go to the queue
 * servers of the machine table, as Manage Crawls passes them
 * (MachineModel::getQueueServerUrls). machines: what Manage Machines does,
 * Yioop's MachineModel: the install's own row deleted, each queue server
 * added (channel 0, one fetcher).
 *
 * start: a crawl.ini whose only seed is SEED_URL and whose crawl stays on
 * URLs starting with ALLOWED_PREFIX ("restrict sites by url"), then the
 * start message the admin UI writes for the queue server (sendStartCrawlMessage,
 * with the queue server and fetcher already running, so it starts none);
 * prints the crawl time. status: one JSON line from the queue server's
 * crawl status file. stop: the stop message. set-index: "Set as Index".
 */
namespace seekquarry\yioop\configs;

use seekquarry\yioop\library\CrawlConstants as K;
use seekquarry\yioop\models\CrawlModel;
use seekquarry\yioop\models\MachineModel;

$network = end($argv) === "--network";
if ($network) {
    array_pop($argv);
}
[, $tree, $command] = $argv + [2 => ""];
require "$tree/src/library/Utility.php";
require "$tree/src/library/LocaleFunctions.php";
set_error_handler(fn() => true); // Yioop's handler prints PHP 8.2+ deprecations
// a web page's limit, as the admin page runs under: FetchUrl::getPages (the
// requests to the queue servers) waits only while memory is below a share
// of memory_limit, never with the CLI's -1
ini_set("memory_limit", "512M");
$_SERVER["NO_LOGGING"] = true;
$model = new CrawlModel();
$network = $network ? (new MachineModel())->getQueueServerUrls() : null;
switch ($command) {
    case "start":
        echo startCrawl($model, $argv[3], $argv[4], $argv[5], $network), "\n";
        break;
    case "status":
        echo json_encode(crawlStatus()), "\n";
        break;
    case "stop":
        $model->sendStopCrawlMessage(0, $network);
        break;
    case "set-index":
        $model->setCurrentIndexDatabaseName($argv[3]);
        break;
    case "machines":
        $machines = new MachineModel();
        foreach ($machines->getMachineList() as $row) {
            $machines->deleteMachine($row["NAME"]);
        }
        foreach (array_slice($argv, 3) as $machine) {
            [$name, $url] = explode("=", $machine, 2);
            $machines->addMachine($name, $url, 0, 1);
        }
        echo json_encode($machines->getQueueServerUrls()), "\n";
        break;
    default:
        fwrite(STDERR, "usage: php crawl-control.php YIOOP_TREE start|status|stop|set-index ...\n");
        exit(2);
}

/** Writes the crawl's seeds and start message; returns its crawl time. */
function startCrawl(CrawlModel $model, string $seed, string $allowed, string $description,
    ?array $network): int
{
    $seed_info = $model->getSeedInfo(true);
    $seed_info["seed_sites"]["url"] = explode(" ", $seed);
    $seed_info["allowed_sites"]["url"] = explode(" ", $allowed);
    $seed_info["disallowed_sites"]["url"] = [];
    $seed_info["general"]["restrict_sites_by_url"] = true;
    // index pages of the corpus list more links than the default 50
    $seed_info["general"]["max_links_to_extract"] = "300";
    $model->setSeedInfo($seed_info);
    $seed_info = $model->getSeedInfo();
    $params = crawlParameters($seed_info) + [K::STATUS => "NEW_CRAWL", K::CRAWL_TIME => time(),
        "DESCRIPTION" => $description, K::TOR_PROXY => TOR_PROXY];
    file_put_contents(CRAWL_DIR . "/schedules/0-NameServerMessages.txt", serialize($params));
    if (!$model->sendStartCrawlMessage($params, $seed_info, $network)) {
        fwrite(STDERR, "CrawlModel::sendStartCrawlMessage failed\n");
        exit(1);
    }
    return $params[K::CRAWL_TIME];
}

/**
 * The queue server's crawl parameters from crawl.ini, as the admin UI's
 * crawl component reads them (its field for field mapping of the ini).
 */
function crawlParameters(array $seed_info): array
{
    $general = $seed_info["general"];
    $params = [K::CRAWL_TYPE => $general["crawl_type"], K::CRAWL_INDEX =>
        $general["crawl_index"] ?? "", K::CHANNEL => 0, K::ARC_DIR => $general["arc_dir"] ?? "",
        K::ARC_TYPE => $general["arc_type"] ?? "",
        K::CACHE_PAGES => intval($general["cache_pages"]),
        K::PAGE_RANGE_REQUEST => intval($general["page_range_request"]),
        K::MAX_DESCRIPTION_LEN => intval($general["max_description_len"]),
        K::MAX_LINKS_TO_EXTRACT => intval($general["max_links_to_extract"]),
        K::PAGE_RECRAWL_FREQUENCY => intval($general["page_recrawl_frequency"]),
        K::TO_CRAWL => $seed_info["seed_sites"]["url"],
        K::CRAWL_ORDER => $general["crawl_order"], K::MAX_DEPTH => $general["max_depth"],
        K::REPEAT_TYPE => $general["repeat_type"], K::SLEEP_START => $general["sleep_start"],
        K::SLEEP_DURATION => $general["sleep_duration"], K::ROBOTS_TXT => $general["robots_txt"] ?? null,
        K::RESTRICT_SITES_BY_URL => $general["restrict_sites_by_url"],
        K::ALLOWED_SITES => $seed_info["allowed_sites"]["url"] ?? [],
        K::DISALLOWED_SITES => $seed_info["disallowed_sites"]["url"] ?? []];
    $optional = [K::INDEXED_FILE_TYPES => $seed_info["indexed_file_types"]["extensions"] ?? null,
        K::SUMMARIZER_OPTION => $general["summarizer_option"] ?? null,
        K::ACTIVE_CLASSIFIERS => $seed_info["active_classifiers"]["label"] ?? null,
        K::ACTIVE_RANKERS => $seed_info["active_rankers"]["label"] ?? null,
        K::INDEXING_PLUGINS => $seed_info["indexing_plugins"]["plugins"] ?? null];
    return $params + array_filter($optional, fn($value) => $value !== null);
}

/** The queue server's view of the crawl (its crawl_status file), or [] before it wrote one. */
function crawlStatus(): array
{
    $file = CRAWL_DIR . "/schedules/0-crawl_status.txt";
    $status = is_file($file) ? unserialize(file_get_contents($file)) : [];
    return ["crawl_time" => $status["CRAWL_TIME"] ?? 0, "count" => $status["COUNT"] ?? 0,
        "visited" => $status["VISITED_URLS_COUNT"] ?? 0,
        "description" => $status["DESCRIPTION"] ?? ""];
}
