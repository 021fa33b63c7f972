<?php
/**
 * How the gain grows with the index: bench/scale's figures (results.csv:
 * pages, measure, Yioop's value, the extension's, as the runs printed them,
 * and whether lower or higher is better) drawn as how many times better
 * the extension is against the pages indexed (log scale), one line per
 * measure, into an SVG:
 *
 *   php bench/scale/plot.php [bench/scale/results.csv] > docs/scale.svg
 */
declare(strict_types=1);

const WIDTH = 760;
const HEIGHT = 420;
const MARGIN = [50, 230, 40, 60]; // top, right, bottom, left
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
    "#17becf", "#7f7f7f", "#bcbd22"];

/** measure => [pages => ratio], in the file's order. */
function ratios(string $csv): array
{
    $lines = array_filter(array_map("trim", file($csv)), fn($l) => $l !== "" && $l[0] !== "#");
    $series = [];
    foreach (array_slice(array_values($lines), 1) as $line) {
        [$pages, $measure, $yioop, $ext, $better] = str_getcsv($line);
        $series[$measure][(int)$pages] = $better === "higher" ? (float)$ext / (float)$yioop
            : (float)$yioop / (float)$ext;
    }
    foreach ($series as &$points) {
        ksort($points);
    }
    return $series;
}

function plot(array $series): string
{
    [$top, $right, $bottom, $left] = MARGIN;
    $pages = array_merge(...array_map("array_keys", array_values($series)));
    [$x0, $x1] = [log10(min($pages)), log10(max($pages))];
    $values = array_merge(...array_map("array_values", array_values($series)));
    [$y0, $y1] = [0.0, ceil(max($values) + 0.5)];
    $x = fn($p) => $left + (log10($p) - $x0) / max(1e-9, $x1 - $x0) * (WIDTH - $left - $right);
    $y = fn($r) => HEIGHT - $bottom - ($r - $y0) / ($y1 - $y0) * (HEIGHT - $top - $bottom);
    $svg = sprintf('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
        . 'font-family="sans-serif" font-size="12">' . "\n", WIDTH, HEIGHT);
    $svg .= sprintf('<text x="%d" y="24" font-size="15">Yioop / extension (times faster) '
        . 'against pages indexed</text>' . "\n", $left);
    for ($r = $y0; $r <= $y1; $r += 0.5) {
        $svg .= sprintf('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
            . '<text x="%d" y="%.1f" text-anchor="end">%.1fx</text>' . "\n", $left,
            WIDTH - $right, $y($r), $y($r), $left - 6, $y($r) + 4, $r);
    }
    foreach (array_unique($pages) as $p) {
        $svg .= sprintf('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' . "\n", $x($p),
            HEIGHT - $bottom + 18, number_format($p));
    }
    $i = 0;
    foreach ($series as $measure => $points) {
        $colour = COLOURS[$i % count(COLOURS)];
        $dash = str_starts_with($measure, "index") ? ' stroke-dasharray="6 3"' : "";
        $xy = implode(" ", array_map(fn($p, $r) => sprintf("%.1f,%.1f", $x($p), $y($r)),
            array_keys($points), $points));
        $svg .= sprintf('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>'
            . "\n", $xy, $colour, $dash);
        foreach ($points as $p => $r) {
            $svg .= sprintf('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' . "\n", $x($p),
                $y($r), $colour);
        }
        $svg .= sprintf('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"%s/>'
            . '<text x="%d" y="%d">%s</text>' . "\n", WIDTH - $right + 15, WIDTH - $right + 40,
            $top + 16 * $i, $top + 16 * $i, $colour, $dash, WIDTH - $right + 46,
            $top + 16 * $i + 4, htmlspecialchars($measure));
        $i++;
    }
    return $svg . "</svg>\n";
}

echo plot(ratios($argv[1] ?? __DIR__ . "/results.csv"));
