<?php
/**
 * The pages bench/scale indexes: the HTML of Debian's documentation
 * packages (bench/search's corpus and more), as installed, each at the URL
 * bench/search's corpus site gives it (http://127.0.0.1:8471/SECTION/...).
 * The first N of one seeded shuffle of all of them, so that a smaller
 * index's pages are a prefix of a larger one's. Left out: the kernel
 * documentation's translations (342 pages, Chinese, Japanese, Korean and
 * Italian): on some, Yioop 2021's Chinese tokenizer calls max() of an empty
 * array, an error in PHP 8 that stops the Fetcher.
 */
declare(strict_types=1);

require_once dirname(__DIR__, 2) . "/tests/tools/yioop/stock-setup.php";
require_once dirname(__DIR__) . "/search/corpus.php";

/** section => [Debian package, directory it installs its HTML in] */
const SCALE_SECTIONS = DocCorpus::SECTIONS + [
    "java" => ["openjdk-17-doc", "/usr/share/doc/openjdk-17-jre-headless/api"],
    "boost" => ["libboost1.74-doc", "/usr/share/doc/libboost1.74-doc/doc"],
    "linux" => ["linux-doc-6.1", "/usr/share/doc/linux-doc-6.1/html"],
    "libstdcxx" => ["libstdc++-12-doc", "/usr/share/doc/gcc-12-base/libstdc++"],
    "qt5" => ["qtbase5-doc-html", "/usr/share/qt5/doc"],
];
const SCALE_PORT = 8471;

/** The first $n pages of the seeded shuffle: [url => file]; fails when there are fewer. */
function scalePages(int $n, int $seed = 1): array
{
    $corpus = new DocCorpus("", SCALE_PORT, false, SCALE_SECTIONS);
    $paths = array_values(array_filter(array_keys($corpus->pages),
        fn($path) => !str_starts_with($path, "/linux/translations/")));
    if ($n > count($paths)) {
        throw new SetUpFailure("--pages=$n, but the packages hold " . count($paths)
            . " HTML pages (apt-get install -y " . implode(" ", DocCorpus::packages(SCALE_SECTIONS))
            . ")");
    }
    mt_srand($seed, MT_RAND_MT19937);
    shuffle($paths);
    $pages = [];
    foreach (array_slice($paths, 0, $n) as $path) {
        $pages[$corpus->url($path)] = $corpus->pages[$path];
    }
    return $pages;
}
