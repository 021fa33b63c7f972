<?php
/**
 * run.php --profile's report: the CPU samples excimer took in each pool's
 * workers (profile.php), as shares of the configuration's samples, all
 * requests together (the search page and the requests Yioop makes to its
 * own site while it serves it):
 *  - by namespace and by class: the innermost frame that has a class
 *    (internal functions count for the class that called them), Yioop's
 *    namespace shortened (controllers, models, views, library, ...);
 *  - by function, inclusive: each frame counted once per sample it is on;
 *  - by function, self: the innermost frame.
 */
declare(strict_types=1);

const PROFILE_TOP = 15;

function printProfiles(string $dir, array $names): void
{
    foreach ($names as $name) {
        $file = "$dir/" . str_replace("+", "-", $name) . ".txt";
        $stacks = is_file($file) ? readCollapsed($file) : [];
        $total = array_sum($stacks);
        echo "\nprofile of $name: $total samples of 1 ms CPU\n";
        if ($total == 0) {
            continue;
        }
        [$classes, $inclusive, $self] = profileShares($stacks);
        $namespaces = [];
        foreach ($classes as $class => $samples) {
            $namespace = str_contains($class, "\\") ? substr($class, 0, strrpos($class, "\\"))
                : $class;
            $namespaces[$namespace] = ($namespaces[$namespace] ?? 0) + $samples;
        }
        foreach (["by namespace" => $namespaces, "by class" => $classes, "by function, inclusive" => $inclusive,
            "by function, self" => $self] as $title => $shares) {
            echo "  $title:\n";
            arsort($shares);
            foreach (array_slice($shares, 0, PROFILE_TOP, true) as $what => $samples) {
                printf("    %5.1f%%  %s\n", 100 * $samples / $total, $what);
            }
        }
    }
}

/** stack ("a;b;c") => samples, from excimer's collapsed format */
function readCollapsed(string $file): array
{
    $stacks = [];
    foreach (file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
        $at = strrpos($line, " ");
        $stack = substr($line, 0, $at);
        $stacks[$stack] = ($stacks[$stack] ?? 0) + (int)substr($line, $at + 1);
    }
    return $stacks;
}

/** [class => samples, function => samples inclusive, function => samples self] */
function profileShares(array $stacks): array
{
    $classes = $inclusive = $self = [];
    foreach ($stacks as $stack => $samples) {
        $frames = array_map("shortFrame", explode(";", $stack));
        foreach (array_unique($frames) as $frame) {
            $inclusive[$frame] = ($inclusive[$frame] ?? 0) + $samples;
        }
        $leaf = end($frames);
        $self[$leaf] = ($self[$leaf] ?? 0) + $samples;
        $class = "(no class)";
        foreach (array_reverse($frames) as $frame) {
            if (str_contains($frame, "::")) {
                $class = strstr($frame, "::", true);
                break;
            }
        }
        $classes[$class] = ($classes[$class] ?? 0) + $samples;
    }
    return [$classes, $inclusive, $self];
}

/** A frame without Yioop's namespace prefix or a file's directories. */
function shortFrame(string $frame): string
{
    $frame = str_replace("seekquarry\\yioop\\", "", $frame);
    return $frame === "" ? "(unnamed frame)" : (str_starts_with($frame, "/") ? basename($frame)
        : $frame);
}
