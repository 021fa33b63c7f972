<?php
/**
 * The pages bench/scale indexes: the HTML of Debian's documentation
 * packages (bench/search's corpus and more), as installed, each at the URL
 * bench/search's corpus site gives it (http://127.0.0.1:8471/SECTION/...).
 * The first N of one seeded shuffle of SCALE_SECTIONS' pages followed by
 * one of SCALE_MORE_SECTIONS' (added for 30,000 pages without changing the
 * smaller sets), then of SCALE_LARGE_SECTIONS' (for 100,000), so that a
 * smaller index's pages are a prefix of a larger one's. Left out: the kernel
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
/** Pages beyond SCALE_SECTIONS' 26,429 */
const SCALE_MORE_SECTIONS = [
    "gtk4" => ["libgtk-4-doc", "/usr/share/doc/libgtk-4-doc"],
    "cmake" => ["cmake-doc", "/usr/share/doc/cmake-data/html"],
    "qml" => ["qtdeclarative5-doc-html", "/usr/share/qt5/doc"],
    "sqlalchemy" => ["python-sqlalchemy-doc", "/usr/share/doc/python-sqlalchemy-doc/html"],
];
/** Pages beyond the 38,516 above: 100,000 and more (bench/scale's largest size) */
const SCALE_LARGE_SECTIONS = [
    "rust" => ["rust-doc", "/usr/share/doc/rust-doc/html"],
    "libreoffice" => ["libreoffice-dev-doc", "/usr/share/doc/libreoffice/sdk/docs"],
    "pcl" => ["libpcl-doc", "/usr/share/doc/libpcl-dev/html"],
    "wx" => ["wx3.2-doc", "/usr/share/doc/wx3.2-doc/html"],
    "coin" => ["libcoin-doc", "/usr/share/doc/libcoin-dev/html"],
    "eigen" => ["libeigen3-doc", "/usr/share/doc/libeigen3-dev/html"],
    "webkit" => ["libwebkit2gtk-4.0-doc", "/usr/share/doc/libwebkit2gtk-4.0-doc/html"],
    "gtkmm" => ["libgtkmm-4.0-doc", "/usr/share/doc/libgtkmm-4.0-doc"],
    "pango" => ["libpango1.0-doc", "/usr/share/doc/libpango1.0-doc"],
    "soup" => ["libsoup-3.0-doc", "/usr/share/doc/libsoup-3.0"],
    "sfml" => ["libsfml-doc", "/usr/share/doc/libsfml-dev/html"],
    "gegl" => ["libgegl-doc", "/usr/share/doc/libgegl-dev"],
    "gda" => ["libgda-5.0-doc", "/usr/share/gtk-doc/html/libgda-5.0"],
    "libxml2" => ["libxml2-doc", "/usr/share/doc/libxml2/html"],
    "clutter" => ["libclutter-1.0-doc", "/usr/share/gtk-doc/html/clutter"],
];
const SCALE_PORT = 8471;

/** The first $n pages: [url => file]; fails when there are fewer. */
function scalePages(int $n, int $seed = 1): array
{
    $pages = [];
    foreach ([SCALE_SECTIONS, SCALE_MORE_SECTIONS, SCALE_LARGE_SECTIONS] as $i => $sections) {
        if (count($pages) >= $n) {
            break;
        }
        $corpus = new DocCorpus("", SCALE_PORT, false, $sections);
        $paths = array_values(array_filter(array_keys($corpus->pages),
            fn($path) => !str_starts_with($path, "/linux/translations/")));
        mt_srand($seed + $i, MT_RAND_MT19937);
        shuffle($paths);
        foreach ($paths as $path) {
            $pages[$corpus->url($path)] = $corpus->pages[$path];
        }
    }
    if ($n > count($pages)) {
        throw new SetUpFailure("--pages=$n, but the packages hold " . count($pages)
            . " HTML pages (apt-get install -y " . implode(" ", DocCorpus::packages(
            SCALE_SECTIONS + SCALE_MORE_SECTIONS + SCALE_LARGE_SECTIONS)) . ")");
    }
    return array_slice($pages, 0, $n, true);
}
