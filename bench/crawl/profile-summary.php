<?php
/**
 * Summarises php-excimer's collapsed stacks (REPLAY_PROFILE of worker.php):
 *
 *   php bench/crawl/profile-summary.php PROFILE [TOP=30]
 *
 * Prints, per function, the share of samples it is on the stack (inclusive)
 * and at the top (self), the largest first.
 */
[, $file] = $argv;
$top = (int)($argv[2] ?? 30);
$inclusive = $self = [];
$total = 0;
foreach (file($file, FILE_IGNORE_NEW_LINES) as $line) {
    $space = strrpos($line, " ");
    $count = (int)substr($line, $space + 1);
    $frames = explode(";", substr($line, 0, $space));
    $total += $count;
    foreach (array_unique($frames) as $frame) {
        $inclusive[$frame] = ($inclusive[$frame] ?? 0) + $count;
    }
    $leaf = end($frames);
    $self[$leaf] = ($self[$leaf] ?? 0) + $count;
}
arsort($inclusive);
printf("%d samples\n%7s %7s  function\n", $total, "incl%", "self%");
foreach (array_slice($inclusive, 0, $top, true) as $frame => $count) {
    printf("%6.1f%% %6.1f%%  %s\n", 100 * $count / $total, 100 * ($self[$frame] ?? 0) / $total, $frame);
}
arsort($self);
echo "\nself, largest first:\n";
foreach (array_slice($self, 0, $top, true) as $frame => $count) {
    printf("%6.1f%%  %s\n", 100 * $count / $total, $frame);
}
