<?php
// auto_prepend_file of every pool bench/search/run.php serves, the same for
// each configuration: Yioop's error handler prints a <pre> block for every
// PHP 8.2+ deprecation whatever error_reporting says (Yioop's code restores
// it after many calls), into pages and into the name server's replies to
// its Fetcher, which they corrupt. This takes the blocks out of the output.
ob_start(fn(string $out) => preg_replace(
    '~<pre>\n(?:NOTICE:|WARNING:|PHP OTHER ERROR) .*?</pre>~s', "", $out));
